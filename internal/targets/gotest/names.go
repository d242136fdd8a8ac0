package gotest

import (
	"bytes"
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BenchmarkNames lists the benchmarks that the test files of the packages
// matching patterns (resolved in dir) declare, sorted, without "Benchmark"
// in front: what a shell offers for gotest --bench. It asks go list where
// the test files are and parses them; it builds nothing, so it answers in
// a fraction of a second where go test -list would compile the package
// first. Sub-benchmarks are not listed: only running a benchmark finds
// its b.Run names. ctx bounds the go list.
func BenchmarkNames(ctx context.Context, dir string, patterns []string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"list", "-e", "-json=Dir,TestGoFiles,XTestGoFiles", "--"}, patterns...)...)
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Run(); err != nil {
		return nil, err
	}
	var names []string
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var p Package
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		for _, f := range slices.Concat(p.TestGoFiles, p.XTestGoFiles) {
			src, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				continue // a file gone since go list: its names are not offered
			}
			names = append(names, benchmarksIn(src)...)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}

// benchmarksIn is the names of the benchmarks a Go test file declares, as
// go test finds them: a top-level func BenchmarkX(b *testing.B), X empty
// or not starting with a lower-case letter. A file that does not parse
// gives the functions read before the error.
func benchmarksIn(src []byte) []string {
	f, _ := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Type.TypeParams != nil || !isBenchmarkName(fn.Name.Name) || !takesB(fn.Type) {
			continue
		}
		names = append(names, strings.TrimPrefix(fn.Name.Name, "Benchmark"))
	}
	return names
}

// isBenchmarkName is go test's rule for a benchmark function's name.
func isBenchmarkName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Benchmark")
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// takesB reports whether ft is func(*testing.B) (or *B, with testing
// imported with a dot), returning nothing.
func takesB(ft *ast.FuncType) bool {
	if ft.Results != nil && len(ft.Results.List) > 0 || ft.Params == nil || len(ft.Params.List) != 1 || len(ft.Params.List[0].Names) > 1 {
		return false
	}
	star, ok := ft.Params.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch t := star.X.(type) {
	case *ast.SelectorExpr:
		return t.Sel.Name == "B"
	case *ast.Ident:
		return t.Name == "B"
	}
	return false
}
