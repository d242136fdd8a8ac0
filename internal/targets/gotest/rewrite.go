package gotest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rewrite returns the source of a test file with every benchmark wrapped,
// so that its body runs on a thread pinned to the measured CPU (see
// helperSource): the body of each top-level Benchmark function becomes
// `benchyRun(b, func(b *testing.B) { body })`, the function given to
// b.Run becomes `benchyWrap(f)`, and the one given to b.RunParallel is
// marked (benchyParallel), since its goroutines cannot be pinned. It edits
// the text at the positions the parser found rather than printing the
// tree, so every line keeps its number and the compiler's messages point
// at the user's lines. changed is false for a file without benchmarks,
// which then needs no overlay.
func Rewrite(filename string, src []byte) (out []byte, pkg string, changed bool, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, "", false, err
	}
	testing := testingName(f)
	if testing == "" {
		return src, f.Name.Name, false, nil
	}
	type edit struct {
		at   int
		text string
	}
	var edits []edit
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(n ast.Node) string { return string(src[off(n.Pos()):off(n.End())]) }
	isB := func(e ast.Expr) bool {
		star, ok := e.(*ast.StarExpr)
		if !ok {
			return false
		}
		sel, ok := star.X.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		id, ok := sel.X.(*ast.Ident)
		return ok && id.Name == testing && sel.Sel.Name == "B"
	}
	// bs are the names of the *testing.B parameters of every function in
	// the file: b.Run and b.RunParallel are recognised on those.
	bs := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		var ft *ast.FuncType
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft = n.Type
		case *ast.FuncLit:
			ft = n.Type
		default:
			return true
		}
		for _, p := range ft.Params.List {
			if isB(p.Type) {
				for _, name := range p.Names {
					bs[name.Name] = true
				}
			}
		}
		return true
	})
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !isBenchmark(fd, isB) {
			continue
		}
		param := fd.Type.Params.List[0]
		name, typ := "benchyB", text(param.Type)
		switch {
		case len(param.Names) == 0:
			edits = append(edits, edit{off(param.Type.Pos()), name + " "})
		case param.Names[0].Name == "_":
			edits = append(edits, edit{off(param.Names[0].Pos()), "\x00" + name}) // \x00: replace the "_"
		default:
			name = param.Names[0].Name
		}
		edits = append(edits,
			edit{off(fd.Body.Lbrace) + 1, fmt.Sprintf(" benchyRun(%s, func(%s %s) {", name, name, typ)},
			edit{off(fd.Body.Rbrace), "})"})
		changed = true
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		recv, ok := sel.X.(*ast.Ident)
		if !ok || !bs[recv.Name] {
			return true
		}
		switch {
		case sel.Sel.Name == "Run" && len(call.Args) == 2:
			edits = append(edits, edit{off(call.Args[1].Pos()), "benchyWrap("}, edit{off(call.Args[1].End()), ")"})
			changed = true
		case sel.Sel.Name == "RunParallel" && len(call.Args) == 1:
			edits = append(edits, edit{off(call.Args[0].Pos()), "benchyParallel("}, edit{off(call.Args[0].End()), ")"})
			changed = true
		}
		return true
	})
	if !changed {
		return src, f.Name.Name, false, nil
	}
	// Apply from the end, so earlier offsets stay valid; of the edits at
	// one offset the last made goes in first, so that the text ends up in
	// the order the edits were made ("{" ... "})" of an empty body).
	slices.Reverse(edits)
	slices.SortStableFunc(edits, func(a, b edit) int { return b.at - a.at })
	out = slices.Clone(src)
	for _, e := range edits {
		if t, ok := strings.CutPrefix(e.text, "\x00"); ok {
			out = slices.Concat(out[:e.at], []byte(t), out[e.at+1:]) // "_" -> name
			continue
		}
		out = slices.Concat(out[:e.at], []byte(e.text), out[e.at:])
	}
	return out, f.Name.Name, true, nil
}

// testingName is the name the file imports "testing" under ("" when it
// does not, or imports it as _ or .).
func testingName(f *ast.File) string {
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p != "testing" {
			continue
		}
		if im.Name == nil {
			return "testing"
		}
		if im.Name.Name != "_" && im.Name.Name != "." {
			return im.Name.Name
		}
	}
	return ""
}

// isBenchmark reports whether fd is a benchmark as go test finds them: a
// top-level func BenchmarkXxx(*testing.B) with a body, Xxx not starting
// with a lower-case letter.
func isBenchmark(fd *ast.FuncDecl, isB func(ast.Expr) bool) bool {
	name := fd.Name.Name
	if fd.Recv != nil || fd.Body == nil || !strings.HasPrefix(name, "Benchmark") {
		return false
	}
	if rest := name[len("Benchmark"):]; rest != "" {
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLower(r) {
			return false
		}
	}
	ps := fd.Type.Params.List
	return len(ps) == 1 && len(ps[0].Names) <= 1 && isB(ps[0].Type) &&
		(fd.Type.Results == nil || len(fd.Type.Results.List) == 0)
}
