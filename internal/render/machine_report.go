package render

import (
	"bytes"
	"fmt"
	"io"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
)

// writeFindings writes one finding per line, most severe first in the order
// given, as "  warn  governor: cpu2 governor is powersave, ...".
func writeFindings(w io.Writer, fs []finding.Finding) error {
	for _, sev := range []finding.Severity{finding.Error, finding.Warn, finding.Info} {
		for _, f := range fs {
			if f.Severity != sev {
				continue
			}
			if _, err := fmt.Fprintf(w, "  %-5s %s: %s\n", f.Severity, f.Code, f.Message); err != nil {
				return err
			}
		}
	}
	return nil
}

// MachineReport is what `benchy machine` says of a machine: its state, the
// CPU judged and why that one, and the findings for it. Its JSON is the
// command's --format json.
type MachineReport struct {
	CPU       int               `json:"cpu"`
	CPUChoice string            `json:"cpu_choice"`
	Machine   *machine.Snapshot `json:"machine"`
	Findings  []finding.Finding `json:"findings"`
}

// WriteMachineReport writes rep as text wrapped at width columns (the
// header, the choice of CPU, the findings) or, for format "json", as
// indented JSON with the findings an empty list, not null, when there
// are none.
func WriteMachineReport(w io.Writer, format string, rep MachineReport, width int) error {
	if format == "json" {
		if rep.Findings == nil {
			rep.Findings = []finding.Finding{}
		}
		return writeJSON(w, rep)
	}
	var b bytes.Buffer
	if err := machineHeader(&b, rep.Machine, rep.CPU); err != nil {
		return err
	}
	fmt.Fprintf(&b, "cpu%d chosen: %s\n", rep.CPU, rep.CPUChoice)
	if len(rep.Findings) == 0 {
		fmt.Fprintf(&b, "findings for cpu%d: none\n", rep.CPU)
	} else {
		fmt.Fprintf(&b, "findings for cpu%d:\n", rep.CPU)
		if err := writeFindings(&b, rep.Findings); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, WrapLines(b.String(), width))
	return err
}
