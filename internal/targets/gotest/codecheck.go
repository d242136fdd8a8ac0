package gotest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// codeFindings reads the machine code of the benchmark function fn in the
// test binary and judges its b.N loop (or b.Loop loop): the loop the
// benchmark's author wrote, found by the source line of its for statement.
//
// Only a loop with no loop inside it is judged, and only by what it does
// besides its own control (the compare with b.N, reloaded from memory
// after a store the compiler cannot prove harmless): a loop that calls a
// function, or that holds an inner loop, has work to do, which is the
// honest case of strconv.BenchmarkQuote (a call whose result is discarded,
// not inlined, so not deleted).
func codeFindings(bin, fn string) []finding.Finding {
	l, err := asm.InspectFile(bin, fn)
	if err != nil {
		return []finding.Finding{{Code: result.CodeAsmUnknown, Severity: finding.Info,
			Message: "could not read the machine code of the benchmark: " + err.Error()}}
	}
	s := l.Summary()
	fs := []finding.Finding{{Code: result.CodeAsm, Severity: finding.Info, Message: s.Line}}
	lines := forLines(l.Func)
	loop, ok := benchLoop(l.Func, lines)
	if !ok {
		return fs
	}
	w := loopWork(l.Func, loop, lines)
	if w.inner {
		// The work is in the inner loops: one that only counts had its
		// body deleted (Go keeps the counting of a loop whose body it
		// removed).
		for _, in := range l.Func.Loops {
			if in.Inner && in.Head > loop.Head && in.End <= loop.End && onlyCounts(in.Body) {
				fs = append(fs, finding.Finding{Code: result.CodeEmptyLoop, Severity: finding.Error,
					Message:  fmt.Sprintf("the loop at %#x inside the benchmark's loop only counts: its work was deleted by the compiler (a call inlined and its result discarded); keep the result, e.g. in a package-level variable", in.Head),
					Evidence: map[string]any{"func": fn, "loop": fmt.Sprintf("%#x", in.Head), "benchmark_loop": fmt.Sprintf("%#x", loop.Head)}})
				break
			}
		}
		return fs
	}
	if w.calls > 0 {
		return fs
	}
	ev := map[string]any{"func": fn, "loop": fmt.Sprintf("%#x", loop.Head), "loads": w.loads, "stores": w.stores, "arith": w.arith}
	switch {
	case w.loads == 0 && w.stores == 0 && w.arith == 0:
		fs = append(fs, finding.Finding{Code: result.CodeEmptyLoop, Severity: finding.Error,
			Message:  fmt.Sprintf("the benchmark's loop at %#x only counts to b.N: the work was deleted by the compiler (a call inlined and its result discarded); keep the result, e.g. in a package-level variable", loop.Head),
			Evidence: ev})
	case w.loads == 0 && w.arith == 0:
		fs = append(fs, finding.Finding{Code: result.CodeFolded, Severity: finding.Error,
			Message:  fmt.Sprintf("the benchmark's loop at %#x stores the same value every iteration and computes nothing: the result was computed before the loop or while compiling (constant inputs); read the inputs from variables", loop.Head),
			Evidence: ev})
	case w.loads == 0:
		fs = append(fs, finding.Finding{Code: result.CodeNoLoadInLoop, Severity: finding.Warn,
			Message:  fmt.Sprintf("the benchmark's loop at %#x reads no memory and calls nothing: it computes on registers only, so its inputs may have been constants the compiler propagated", loop.Head),
			Evidence: ev})
	}
	return fs
}

// onlyCounts reports whether a loop body does nothing but count: no load,
// no store (a local array on the stack is memory too), no arithmetic, no
// call.
func onlyCounts(b asm.Body) bool {
	return b.Loads+b.StackLoads == 0 && b.Stores+b.StackStores == 0 && b.Arith == 0 && len(b.Calls) == 0
}

// line is a source position, file and line.
type line struct {
	file string
	n    int
}

// forLines are the lines of the for statements in fn's source file whose
// condition reads b.N or calls b.Loop: the benchmark loops.
func forLines(fn asm.Func) map[line]bool {
	if fn.File == "" {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, fn.File, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	lines := map[line]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		fs, ok := n.(*ast.ForStmt)
		if !ok || fs.Cond == nil || !benchCond(fs.Cond) {
			return true
		}
		lines[line{fn.File, fset.Position(fs.For).Line}] = true
		lines[line{fn.File, fset.Position(fs.Cond.Pos()).Line}] = true
		return true
	})
	return lines
}

// benchCond reports whether a loop condition reads a .N field or calls a
// .Loop method: i < b.N, b.Loop().
func benchCond(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			found = found || x.Sel.Name == "N"
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Loop" && len(x.Args) == 0 {
				found = true
			}
		}
		return !found
	})
	return found
}

// benchLoop is the benchmark's loop among fn's loops: the innermost loop
// with an instruction on a for line; without one (b.N copied to a local
// first), the function's only outermost loop.
func benchLoop(fn asm.Func, lines map[line]bool) (asm.Loop, bool) {
	var best asm.Loop
	found := false
	for _, lp := range fn.Loops {
		for _, in := range fn.Insts {
			if in.PC >= lp.Head && in.PC < lp.End && lines[line{in.File, in.Line}] {
				if !found || lp.Depth > best.Depth {
					best, found = lp, true
				}
				break
			}
		}
	}
	if found {
		// Loops found from backward branches are ranges of code; where
		// the compiler laid two loops out interleaved, the ranges overlap
		// without nesting, and what lies in which loop is not known.
		for _, lp := range fn.Loops {
			inside := lp.Head >= best.Head && lp.End <= best.End
			around := best.Head >= lp.Head && best.End <= lp.End
			if lp.Head < best.End && best.Head < lp.End && !inside && !around {
				return asm.Loop{}, false
			}
		}
		return best, true
	}
	var outer []asm.Loop
	for _, lp := range fn.Loops {
		if lp.Depth == 1 {
			outer = append(outer, lp)
		}
	}
	if len(outer) == 1 {
		return outer[0], true
	}
	return asm.Loop{}, false
}

// work is what a loop does besides its control.
type work struct {
	loads, stores, arith, calls int
	inner                       bool // another loop lies inside it
}

// loopWork is what loop does: its stores and arithmetic as asm counted
// them (a local array on the stack is memory too), and its own count of
// loads and calls, since loads on a for line (control) are the loop's own
// (b.N read again) and calls into testing's b.Loop and the runtime's
// stack growth are no work.
func loopWork(fn asm.Func, loop asm.Loop, control map[line]bool) work {
	w := work{stores: loop.Body.Stores + loop.Body.StackStores, arith: loop.Body.Arith, inner: !loop.Inner}
	for _, in := range fn.Insts {
		if in.PC < loop.Head || in.PC >= loop.End {
			continue
		}
		switch {
		case in.Call && !loopCallee(in.Callee):
			w.calls++
		case (in.Load || in.StackLoad) && !control[line{in.File, in.Line}]:
			w.loads++ // a local array on the stack is an input too
		}
	}
	return w
}

// loopCallee reports whether a call is part of the benchmark's loop
// machinery, not its work: b.Loop's slow path, the stack's growth.
func loopCallee(name string) bool {
	return strings.HasPrefix(name, "testing.(*B).") || strings.HasPrefix(name, "runtime.morestack")
}
