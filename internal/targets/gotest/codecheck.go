package gotest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// codeFindings reads the machine code of the benchmark function fn in the
// test binary and judges its b.N loop (or b.Loop loop): the loop the
// benchmark's author wrote, found by the source line of its for statement.
// Where fn has no such loop, the loop is in a function it calls, as large
// libraries write them (func BenchmarkSumSmall(b *testing.B) {
// benchmarkSum(b, small) }): the calls out of fn are followed, a few levels
// deep, into the functions that take a *testing.B, and the first one that
// holds the loop is judged.
//
// Only a loop with no loop inside it is judged, and only by what it does
// besides its own control (the compare with b.N, reloaded from memory
// after a store the compiler cannot prove harmless): a loop that calls a
// function, or that holds an inner loop, has work to do, which is the
// honest case of strconv.BenchmarkQuote (a call whose result is discarded,
// not inlined, so not deleted).
func codeFindings(exe *asm.File, src *sources, fn string) []finding.Finding {
	l, err := exe.Inspect(fn)
	if err != nil {
		return asmUnknown(err)
	}
	info := finding.Finding{Code: result.CodeAsm, Severity: finding.Info, Message: l.Summary().Line}
	f, where := l.Func, ""
	lines := src.forLines(f)
	loop, found := lineLoop(f, lines)
	if !found {
		if h := followLoop(exe, src, l.Func); h != nil {
			f, lines = h.Func, src.forLines(h.Func)
			loop, found = lineLoop(f, lines)
			where = " (in " + asm.ShortName(f.Name) + ", which the benchmark calls)"
			info.Message = fmt.Sprintf("%s calls %s, which holds the b.N loop: %s", asm.ShortName(fn), asm.ShortName(f.Name), h.Summary().Line)
		}
	}
	fs := []finding.Finding{info}
	if found && tangled(f, loop) {
		return fs
	}
	if !found {
		if loop, found = onlyOuterLoop(f); !found {
			return fs
		}
	}
	w := loopWork(f, loop, lines)
	if w.inner {
		if fd, ok := emptyInnerLoop(fn, f, loop, where); ok {
			fs = append(fs, fd)
		}
		return fs
	}
	if w.calls > 0 {
		return fs
	}
	if w.loads > 0 {
		return fs
	}
	bodyCalls := func() bool { return src.bodyCalls(lineFor(f, loop, lines)) }
	if fd, ok := registerLoop(fn, f, loop, where, w, bodyCalls); ok {
		fs = append(fs, fd)
	}
	return fs
}

// readCodeFindings opens the binary for the checks of one function: they
// read the function and up to followMax that it calls.
func (b *Binary) readCodeFindings(fn string) []finding.Finding {
	exe, err := asm.OpenFile(b.Path)
	if err != nil {
		return asmUnknown(err)
	}
	defer exe.Close()
	if b.src == nil {
		b.src = newSources()
	}
	return codeFindings(exe, b.src, fn)
}

// asmUnknown is what the machine-code checks say when the code cannot be
// read.
func asmUnknown(err error) []finding.Finding {
	return []finding.Finding{{Code: result.CodeAsmUnknown, Severity: finding.Info,
		Message: "could not read the machine code of the benchmark: " + err.Error()}}
}

// emptyInnerLoop judges a benchmark's loop whose work is in its inner
// loops: one that only counts had its body deleted (Go keeps the
// counting of a loop whose body it removed). where says in which function
// the benchmark's loop is, when not in the benchmark's own.
func emptyInnerLoop(fn string, f asm.Func, loop asm.Loop, where string) (finding.Finding, bool) {
	for _, in := range f.Loops {
		if in.Inner && in.Head > loop.Head && in.End <= loop.End && onlyCounts(in.Body) {
			return finding.Finding{Code: result.CodeEmptyLoop, Severity: finding.Error,
				Message:  fmt.Sprintf("the loop at %#x inside the benchmark's loop%s only counts: its work was deleted by the compiler (a call inlined and its result discarded); keep the result, e.g. in a package-level variable", in.Head, where),
				Evidence: evidence(fn, f, map[string]any{"loop": fmt.Sprintf("%#x", in.Head), "benchmark_loop": fmt.Sprintf("%#x", loop.Head)})}, true
		}
	}
	return finding.Finding{}, false
}

// registerLoop judges a benchmark's loop that reads no memory and calls
// nothing. What it computes from its counter or from the last iteration
// changes every iteration, and is work in whatever instructions (SQRTSD
// in x = Sqrt(x), a byte swap of i); what it computes from constants does
// not. bodyCalls reports whether the loop's source calls a function.
func registerLoop(fn string, f asm.Func, loop asm.Loop, where string, w work, bodyCalls func() bool) (finding.Finding, bool) {
	ev := evidence(fn, f, map[string]any{"loop": fmt.Sprintf("%#x", loop.Head), "loads": w.loads, "stores": w.stores, "arith": w.arith, "changing": w.changing})
	switch {
	case w.changing > 0:
		return finding.Finding{Code: result.CodeNoLoadInLoop, Severity: finding.Info,
			Message:  fmt.Sprintf("the benchmark's loop at %#x%s reads no memory and calls nothing, but computes from its counter or from the last iteration (%s changing every iteration): work kept in registers", loop.Head, where, units.Count(w.changing, "instruction")),
			Evidence: ev}, true
	case w.stores == 0 && w.arith == 0:
		return finding.Finding{Code: result.CodeEmptyLoop, Severity: finding.Error,
			Message:  fmt.Sprintf("the benchmark's loop at %#x%s only counts to b.N: the work was deleted by the compiler (a call inlined and its result discarded); keep the result, e.g. in a package-level variable", loop.Head, where),
			Evidence: ev}, true
	case w.arith == 0 && bodyCalls():
		return finding.Finding{Code: result.CodeFolded, Severity: finding.Error,
			Message:  fmt.Sprintf("the benchmark's loop at %#x%s stores the same value every iteration and computes nothing: the result was computed before the loop or while compiling (constant inputs); read the inputs from variables", loop.Head, where),
			Evidence: ev}, true
	case w.arith == 0:
		// The same values stored every iteration where the source calls
		// nothing (runtime's ClearFat: *p = [8]byte{}): the stores are
		// what the benchmark measures.
		return finding.Finding{}, false
	}
	return finding.Finding{Code: result.CodeNoLoadInLoop, Severity: finding.Warn,
		Message:  fmt.Sprintf("the benchmark's loop at %#x%s reads no memory, calls nothing and computes the same values every iteration, from constants or values from before the loop: its inputs may have been constants the compiler propagated", loop.Head, where),
		Evidence: ev}, true
}

// evidence is a finding's evidence on the loop of f: "func" names the
// function judged, and "benchmark" the benchmark's own when it is another.
func evidence(bench string, f asm.Func, ev map[string]any) map[string]any {
	ev["func"] = f.Name
	if f.Name != bench {
		ev["benchmark"] = bench
	}
	return ev
}

// Following the calls out of a benchmark goes this many calls deep, and
// reads at most so many functions.
const (
	followDepth = 3
	followMax   = 8
)

// followLoop follows the direct calls out of fn, in the order of the code
// and depth first, into the functions that take a *testing.B (by their
// source), and returns the listing of the first that holds a b.N loop; nil
// when none does. The runtime's and package testing's functions are not
// followed: they are no helper of the user's.
func followLoop(exe *asm.File, src *sources, fn asm.Func) *asm.Listing {
	seen := map[string]bool{fn.Name: true}
	budget := followMax
	var visit func(f asm.Func, depth int) *asm.Listing
	visit = func(f asm.Func, depth int) *asm.Listing {
		for _, in := range f.Insts {
			name := in.Callee
			if !in.Call || name == "" || seen[name] || budget == 0 ||
				strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "testing.") {
				continue
			}
			seen[name] = true
			budget--
			l, err := exe.Inspect(name)
			if err != nil || !src.takesB(l.Func) {
				continue
			}
			if _, ok := lineLoop(l.Func, src.forLines(l.Func)); ok {
				return l
			}
			if depth > 1 {
				if h := visit(l.Func, depth-1); h != nil {
					return h
				}
			}
		}
		return nil
	}
	return visit(fn, followDepth)
}

// onlyCounts reports whether a loop body does nothing but count: no load,
// no store (a local array on the stack is memory too), no arithmetic, no
// call, nothing that changes from one iteration to the next.
func onlyCounts(b asm.Body) bool {
	return b.Loads+b.StackLoads == 0 && b.Stores+b.StackStores == 0 && b.Arith == 0 && len(b.Calls) == 0 && b.Changing == 0
}

// line is a source position, file and line.
type line struct {
	file string
	n    int
}

// sources are the source files a check reads, each parsed once.
type sources struct {
	fset  *token.FileSet
	files map[string]*ast.File // nil: unreadable
}

func newSources() *sources { return &sources{fset: token.NewFileSet(), files: map[string]*ast.File{}} }

func (s *sources) file(path string) *ast.File {
	f, ok := s.files[path]
	if !ok {
		f, _ = parser.ParseFile(s.fset, path, nil, parser.SkipObjectResolution)
		s.files[path] = f
	}
	return f
}

// forLines are the lines of the for statements whose condition reads b.N
// or calls b.Loop: the benchmark loops. They are looked for in the files
// of fn's code that are in the directory of fn's own file, so that a
// helper of the package inlined from another file is found, and testing's
// or the runtime's inlined code is not taken for the user's.
func (s *sources) forLines(fn asm.Func) map[line]bool {
	if fn.File == "" {
		return nil
	}
	lines := map[line]bool{}
	done := map[string]bool{}
	for _, in := range append([]asm.Inst{{File: fn.File}}, fn.Insts...) {
		if in.File == "" || done[in.File] || filepath.Dir(in.File) != filepath.Dir(fn.File) {
			continue
		}
		done[in.File] = true
		f := s.file(in.File)
		if f == nil {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			fs, ok := n.(*ast.ForStmt)
			if !ok || fs.Cond == nil || !benchCond(fs.Cond) {
				return true
			}
			lines[line{in.File, s.fset.Position(fs.For).Line}] = true
			lines[line{in.File, s.fset.Position(fs.Cond.Pos()).Line}] = true
			return true
		})
	}
	return lines
}

// takesB reports whether the function fn (a declaration or a function
// literal) has a parameter of type *testing.B, under whatever name testing
// is imported: a helper a benchmark hands its b to, or the function given
// to b.Run. The function is the innermost one whose source holds the line
// of fn's entry: that line is the declaration's where the function checks
// its stack first, and its first statement's where it does not.
func (s *sources) takesB(fn asm.Func) bool {
	ft := s.enclosing(fn.File, fn.Line)
	if ft == nil || ft.Params == nil {
		return false
	}
	for _, p := range ft.Params.List {
		if isStarB(p.Type) {
			return true
		}
	}
	return false
}

// enclosing is the type of the innermost function declaration or literal
// of a file whose source spans the line n; nil when none does.
func (s *sources) enclosing(path string, n int) *ast.FuncType {
	if path == "" {
		return nil
	}
	f := s.file(path)
	if f == nil {
		return nil
	}
	var inner *ast.FuncType
	ast.Inspect(f, func(node ast.Node) bool {
		var ft *ast.FuncType
		switch node := node.(type) {
		case *ast.FuncDecl:
			ft = node.Type
		case *ast.FuncLit:
			ft = node.Type
		}
		if node == nil || s.fset.Position(node.Pos()).Line > n || s.fset.Position(node.End()).Line < n {
			return false
		}
		if ft != nil {
			inner = ft
		}
		return true
	})
	return inner
}

// isStarB reports whether a parameter's type reads *X.B, or *B (testing
// imported with a dot).
func isStarB(e ast.Expr) bool {
	star, ok := e.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch x := star.X.(type) {
	case *ast.SelectorExpr:
		return x.Sel.Name == "B"
	case *ast.Ident:
		return x.Name == "B"
	}
	return false
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

// lineLoop is the benchmark's loop among fn's loops: the innermost loop
// with an instruction on a for line.
func lineLoop(fn asm.Func, lines map[line]bool) (asm.Loop, bool) {
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
	return best, found
}

// tangled reports whether another loop of fn overlaps loop without
// nesting: loops found from backward branches are ranges of code, and
// where the compiler laid two loops out interleaved, what lies in which
// loop is not known.
func tangled(fn asm.Func, loop asm.Loop) bool {
	for _, lp := range fn.Loops {
		inside := lp.Head >= loop.Head && lp.End <= loop.End
		around := loop.Head >= lp.Head && loop.End <= lp.End
		if lp.Head < loop.End && loop.Head < lp.End && !inside && !around {
			return true
		}
	}
	return false
}

// onlyOuterLoop is the benchmark's loop when no instruction is on a for
// line (b.N copied to a local first): the function's only outermost loop.
func onlyOuterLoop(fn asm.Func) (asm.Loop, bool) {
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
	changing                    int  // asm.Body.Changing
	inner                       bool // another loop lies inside it
}

// loopWork is what loop does: its stores and arithmetic as asm counted
// them (a local array on the stack is memory too), and its own count of
// loads and calls, since loads on a for line (control) are the loop's own
// (b.N read again) and calls into testing's b.Loop and the runtime's
// stack growth are no work.
func loopWork(fn asm.Func, loop asm.Loop, control map[line]bool) work {
	w := work{stores: loop.Body.Stores + loop.Body.StackStores, arith: loop.Body.Arith, changing: loop.Body.Changing, inner: !loop.Inner}
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

// lineFor is the source line of the benchmark's for statement that holds
// an instruction of loop, if one does.
func lineFor(fn asm.Func, loop asm.Loop, lines map[line]bool) (line, bool) {
	for _, in := range fn.Insts {
		if in.PC >= loop.Head && in.PC < loop.End && lines[line{in.File, in.Line}] {
			return line{in.File, in.Line}, true
		}
	}
	return line{}, false
}

// bodyCalls reports whether the body of the for statement on the line at
// calls a function (a conversion looks the same, and counts): a loop whose
// stores the compiler computed while compiling had a call to fold, one
// that stores constants by itself (*p = [8]byte{}) measures the stores.
// True when the for statement is not known: the stores are then judged
// folded, as before this was asked.
func (s *sources) bodyCalls(at line, ok bool) bool {
	f := s.file(at.file)
	if !ok || f == nil {
		return true
	}
	calls, found := false, false
	ast.Inspect(f, func(n ast.Node) bool {
		fs, isFor := n.(*ast.ForStmt)
		if found || !isFor || fs.Cond == nil ||
			s.fset.Position(fs.For).Line != at.n && s.fset.Position(fs.Cond.Pos()).Line != at.n {
			return !found
		}
		found = true
		ast.Inspect(fs.Body, func(n ast.Node) bool {
			_, call := n.(*ast.CallExpr)
			calls = calls || call
			return !calls
		})
		return false
	})
	return calls || !found
}
