package analyze

import (
	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// CodeFindings judges the machine code of an experiment's measured loop:
// the asm line says what the loop does, and an experiment that reads its
// input from memory (readsMemory) but whose loop loads nothing has lost
// its work, whatever the time says. err is why the code could not be read.
func CodeFindings(s asm.Summary, err error, readsMemory bool) []finding.Finding {
	if err != nil {
		return []finding.Finding{{Code: result.CodeAsmUnknown, Severity: finding.Info,
			Message: "could not read the machine code of the loop: " + err.Error()}}
	}
	fs := []finding.Finding{{Code: result.CodeAsm, Severity: finding.Info, Message: s.Line}}
	if readsMemory && !s.LoopLoads {
		fs = append(fs, finding.Finding{Code: result.CodeNoLoadInLoop, Severity: finding.Warn,
			Message:  "the workload reads its input from memory, but its measured loop has no memory load: the work was removed, whatever the time says",
			Evidence: map[string]any{"summary": s.Line}})
	}
	return fs
}
