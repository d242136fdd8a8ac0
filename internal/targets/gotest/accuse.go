package gotest

import (
	"regexp"
	"slices"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// Accusation is a finding of the machine-code checks that calls a
// benchmark's work gone or doubtful (severity warn or error), on one
// function.
type Accusation struct {
	Func    string // the benchmark's function, or the closure it gives to b.Run
	Finding finding.Finding
}

// accusingCodes are the machine-code findings that say the work is gone.
var accusingCodes = []string{result.CodeEmptyLoop, result.CodeFolded, result.CodeNoLoadInLoop}

// benchFunc matches the functions of a test binary that benchy gotest
// judges: a top-level BenchmarkX and the closures inside it (the body the
// helper wraps, the functions given to b.Run), in the package or its
// external test package.
var benchFunc = regexp.MustCompile(`^[^ ]*\.Benchmark[^.]*(\.func\d+(\.\d+)*)?$`)

// Accusations runs the machine-code checks of benchy gotest on every
// benchmark function of the binary and its closures, without running them,
// and returns the accusations: what a review of many packages reads by
// hand. Closures that take no *testing.B (a goroutine, the body given to
// b.RunParallel) are not judged: benchy gotest never judges them alone.
func (b *Binary) Accusations() ([]Accusation, error) {
	exe, err := asm.OpenFile(b.Path)
	if err != nil {
		return nil, err
	}
	defer exe.Close()
	src := newSources()
	var out []Accusation
	for _, name := range exe.FuncNames(b.Package.ImportPath) {
		m := benchFunc.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		if m[1] != "" { // a closure: a benchmark only if it takes a *testing.B
			l, err := exe.Inspect(name)
			if err != nil || !src.takesB(l.Func) {
				continue
			}
		}
		for _, f := range codeFindings(exe, src, name) {
			if slices.Contains(accusingCodes, f.Code) && f.Severity != finding.Info {
				out = append(out, Accusation{Func: name, Finding: f})
			}
		}
	}
	return out, nil
}
