package gotest

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rewrite returns the source of a test file with every benchmark wrapped,
// so that its body runs on a thread pinned to the measured CPU (see
// helperSource): the body of each top-level Benchmark function becomes
// `benchyRun(b, func(b *testing.B) { body })`, the function given to
// (*testing.B).Run becomes `benchyWrap(f)`, and the one given to
// RunParallel `benchyParallel(f)`, which marks the call, since its
// goroutines cannot be pinned. It edits the text at the positions the
// parser found rather than printing the tree, so every line keeps its
// number and the compiler's messages point at the user's lines. changed is
// false for a file without benchmarks, which then needs no overlay.
func Rewrite(filename string, src []byte) (out []byte, pkg string, changed bool, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, "", false, err
	}
	edits := benchmarkEdits(fset, f, src)
	runs, err := runEdits(fset, f)
	if err != nil {
		return nil, "", false, err
	}
	edits = append(edits, runs...)
	if len(edits) == 0 {
		return src, f.Name.Name, false, nil
	}
	return applyEdits(src, edits), f.Name.Name, true, nil
}

// edit inserts text at an offset of the source; replace says it replaces
// the one byte there instead (a "_" parameter that gets a name).
type edit struct {
	at      int
	text    string
	replace bool
}

// benchmarkEdits wrap the body of every benchmark function in benchyRun,
// naming a parameter that has no name (or "_").
func benchmarkEdits(fset *token.FileSet, f *ast.File, src []byte) []edit {
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var edits []edit
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !isBenchmark(fd) {
			continue
		}
		param := fd.Type.Params.List[0]
		name, typ := "benchyB", string(src[off(param.Type.Pos()):off(param.Type.End())])
		switch {
		case len(param.Names) == 0:
			edits = append(edits, edit{at: off(param.Type.Pos()), text: name + " "})
		case param.Names[0].Name == "_":
			edits = append(edits, edit{at: off(param.Names[0].Pos()), text: name, replace: true})
		default:
			name = param.Names[0].Name
		}
		edits = append(edits,
			edit{at: off(fd.Body.Lbrace) + 1, text: fmt.Sprintf(" benchyRun(%s, func(%s %s) {", name, name, typ)},
			edit{at: off(fd.Body.Rbrace), text: "})"})
	}
	return edits
}

// isBenchmark reports whether fd is a benchmark as go test finds them: a
// top-level func BenchmarkXxx with a body, Xxx not starting with a
// lower-case letter, one parameter of type *B or *x.B and no result (go
// test goes by the words; the compiler then holds it to *testing.B).
func isBenchmark(fd *ast.FuncDecl) bool {
	name := fd.Name.Name
	if fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil || !strings.HasPrefix(name, "Benchmark") {
		return false
	}
	if rest := name[len("Benchmark"):]; rest != "" {
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsLower(r) {
			return false
		}
	}
	ps := fd.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 || fd.Type.Results != nil && len(fd.Type.Results.List) > 0 {
		return false
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch x := star.X.(type) {
	case *ast.Ident:
		return x.Name == "B"
	case *ast.SelectorExpr:
		return x.Sel.Name == "B"
	}
	return false
}

// runEdits wrap the function given to every call of (*testing.B).Run and
// RunParallel, found by the types of the file: a Run of another type is
// left alone, whatever its receiver is named, and testing may be imported
// under any name, or with a dot.
func runEdits(fset *token.FileSet, f *ast.File) ([]edit, error) {
	b, err := typeCheck(fset, f)
	if err != nil {
		return nil, err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch method := b.method(call); {
		case method == "Run" && len(call.Args) == 2:
			edits = append(edits, edit{at: off(call.Args[1].Pos()), text: "benchyWrap("}, edit{at: off(call.Args[1].End()), text: ")"})
		case method == "RunParallel" && len(call.Args) == 1:
			edits = append(edits, edit{at: off(call.Args[0].Pos()), text: "benchyParallel("}, edit{at: off(call.Args[0].End()), text: ")"})
		}
		return true
	})
	return edits, nil
}

// testingStub declares what the rewrite needs of package testing, and no
// more: checked against it, a file's types tell a *testing.B from anything
// else, with no build of the real package (fast, and the same whatever Go
// the user has). What the file uses of testing besides is an error of the
// check, which is ignored; so are the errors of every other import, which
// is not loaded: only the calls on a *testing.B matter, and their types
// come from this file and the stub.
const testingStub = `package testing

type B struct{ N int }
type PB struct{}

func (b *B) Run(name string, f func(b *B)) bool { return false }
func (b *B) RunParallel(body func(*PB))        {}
func (pb *PB) Next() bool                       { return false }
`

// checked is a file's types.
type checked struct {
	info    *types.Info
	testing *types.Package
}

// typeCheck checks f against the testing stub, ignoring every error.
func typeCheck(fset *token.FileSet, f *ast.File) (checked, error) {
	stubFile, err := parser.ParseFile(fset, "testing_stub.go", testingStub, 0)
	if err != nil {
		return checked{}, err
	}
	stub, err := (&types.Config{}).Check("testing", fset, []*ast.File{stubFile}, nil)
	if err != nil {
		return checked{}, err
	}
	c := checked{info: &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}, testing: stub}
	conf := &types.Config{
		Importer:    stubImporter{stub},
		Error:       func(error) {},
		FakeImportC: true,
	}
	conf.Check(f.Name.Name, fset, []*ast.File{f}, c.info) // the errors are ignored
	return c, nil
}

// stubImporter imports the testing stub, and nothing else.
type stubImporter struct{ testing *types.Package }

var errNotLoaded = errors.New("not loaded: only the calls on a *testing.B are looked for")

func (i stubImporter) Import(path string) (*types.Package, error) {
	if path == "testing" {
		return i.testing, nil
	}
	return nil, errNotLoaded
}

// method is the name of the method of testing.B that call calls, "" when
// it calls anything else.
func (c checked) method(call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	s, ok := c.info.Selections[sel]
	if !ok || s.Kind() != types.MethodVal || s.Obj().Pkg() != c.testing {
		return ""
	}
	recv := s.Obj().(*types.Func).Type().(*types.Signature).Recv()
	if ptr, ok := recv.Type().(*types.Pointer); ok {
		if named, ok := ptr.Elem().(*types.Named); ok && named.Obj().Name() == "B" {
			return s.Obj().Name()
		}
	}
	return ""
}

// applyEdits applies the edits from the end, so earlier offsets stay
// valid; of the edits at one offset the last made goes in first, so that
// the text ends up in the order the edits were made ("{" ... "})" of an
// empty body).
func applyEdits(src []byte, edits []edit) []byte {
	edits = slices.Clone(edits)
	slices.Reverse(edits)
	slices.SortStableFunc(edits, func(a, b edit) int { return b.at - a.at })
	out := slices.Clone(src)
	for _, e := range edits {
		end := e.at
		if e.replace {
			end++
		}
		out = slices.Concat(out[:e.at], []byte(e.text), out[end:])
	}
	return out
}
