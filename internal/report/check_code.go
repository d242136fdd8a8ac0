package report

import (
	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/finding"
)

// Codes of the findings on an experiment's machine code. They are added
// when the code is read (by the run), not recomputed by Analyze: a result
// file does not hold the code.
const (
	CodeAsm          = "asm"
	CodeAsmUnknown   = "asm-unknown"
	CodeNoLoadInLoop = "no-load-in-loop"
	// CodeNotPinned is added by a run where the system cannot pin.
	CodeNotPinned = "not-pinned"
	// CodeCPUShared is an environment finding: another benchy process
	// held the measured CPU's lock, or the lock could not be taken.
	CodeCPUShared = "cpu-shared"
	// The findings of a Go benchmark (benchy gotest): its loop only
	// counts, or stores a constant; its setup is timed; its binary was
	// built to be debugged.
	CodeEmptyLoop    = "empty-loop"
	CodeFolded       = "folded"
	CodeSetupInTimer = "setup-in-timer"
	CodeDebugBuild   = "debug-build"
)

// CodeFindings judges the machine code of an experiment's measured loop:
// the asm line says what the loop does, and an experiment that reads its
// input from memory (readsMemory) but whose loop loads nothing has lost
// its work, whatever the time says. err is why the code could not be read.
func CodeFindings(s asm.Summary, err error, readsMemory bool) []finding.Finding {
	if err != nil {
		return []finding.Finding{{Code: CodeAsmUnknown, Severity: finding.Info,
			Message: "could not read the machine code of the loop: " + err.Error()}}
	}
	fs := []finding.Finding{{Code: CodeAsm, Severity: finding.Info, Message: s.Line}}
	if readsMemory && !s.LoopLoads {
		fs = append(fs, finding.Finding{Code: CodeNoLoadInLoop, Severity: finding.Warn,
			Message:  "the workload reads its input from memory, but its measured loop has no memory load: the work was removed, whatever the time says",
			Evidence: map[string]any{"summary": s.Line}})
	}
	return fs
}
