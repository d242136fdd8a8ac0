package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/units"
)

// ListEntry is one experiment of `benchy list`; a list of them is its
// --format json.
type ListEntry struct {
	Name        string  `json:"name"`
	Units       float64 `json:"units"`
	Unit        string  `json:"unit"`
	FloorCycles float64 `json:"floor_cycles"` // per unit
	ReadsMemory bool    `json:"reads_memory"`
	// Call says the experiment declares a single call: run --latency
	// times it.
	Call        bool   `json:"call"`
	Description string `json:"description"`
}

// WriteList writes the experiments as a table whose descriptions wrap
// under their own column at width, or as JSON for format "json".
func WriteList(w io.Writer, format string, entries []ListEntry, width int) error {
	if format == "json" {
		return writeJSON(w, entries)
	}
	// The descriptions wrap under their own column, so that the list
	// reads on an 80-column terminal.
	works := make([]string, len(entries))
	nameW, workW := len("NAME"), len("WORK PER OP")
	for i, e := range entries {
		works[i] = "none declared"
		if e.Units > 0 {
			works[i] = fmt.Sprintf("%g %s", e.Units, workOf(e.Unit, e.Units))
		}
		nameW, workW = max(nameW, len(e.Name)), max(workW, len(works[i]))
	}
	indent := strings.Repeat(" ", nameW+2+workW+2)
	fmt.Fprintf(w, "%-*s  %-*s  DESCRIPTION\n", nameW, "NAME", workW, "WORK PER OP")
	for i, e := range entries {
		desc := strings.ReplaceAll(Wrap(e.Description, max(width-len(indent), 30), ""), "\n", "\n"+indent)
		fmt.Fprintf(w, "%-*s  %-*s  %s\n", nameW, e.Name, workW, works[i], desc)
	}
	return nil
}

// workOf names the work of one op: "4096 adds", "1 multiply".
func workOf(unit string, n float64) string {
	if n == 1 || unit == "" {
		return unit
	}
	return units.Plural(unit)
}
