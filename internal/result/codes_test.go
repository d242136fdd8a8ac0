package result

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/machine"
)

// repoRoot is the module's root, from this package's directory.
var repoRoot = filepath.Join("..", "..")

// codeConstants returns the value of every Code* constant declared in
// codes.go, by name.
func codeConstants(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !strings.HasPrefix(n.Name, "Code") || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
					v, _ := strconv.Unquote(lit.Value)
					out[n.Name] = v
				}
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("found %d code constants in codes.go: the parse is wrong", len(out))
	}
	return out
}

// Every code is registered once, every constant and every machine code is
// in the registry, and nothing else is.
func TestCodesRegistered(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Codes {
		if seen[c.Code] {
			t.Errorf("%s is registered twice", c.Code)
		}
		seen[c.Code] = true
		if c.Scope != ScopeAnalysis && c.Scope != ScopeRun && c.Scope != ScopeEnvironment {
			t.Errorf("%s: scope %q", c.Code, c.Scope)
		}
	}
	declared := map[string]bool{}
	for name, v := range codeConstants(t) {
		declared[v] = true
		if !seen[v] {
			t.Errorf("%s (%q) is not in the registry", name, v)
		}
	}
	for _, v := range machine.Codes {
		declared[v] = true
		if c, ok := LookupCode(v); !ok || c.Scope != ScopeEnvironment {
			t.Errorf("machine code %q: registered %v as %q, want environment", v, ok, c.Scope)
		}
	}
	for code := range seen {
		if !declared[code] {
			t.Errorf("%q is registered but declared by no constant", code)
		}
	}
}

// Every registered code has its row in docs/findings.md, and every row
// there is a registered code.
func TestCodesDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "findings.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(doc), "\n") {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			if code, _, ok := strings.Cut(rest, "` |"); ok {
				rows[code] = true
			}
		}
	}
	for _, c := range Codes {
		if !rows[c.Code] {
			t.Errorf("%s has no row in docs/findings.md", c.Code)
		}
	}
	for code := range rows {
		if _, ok := LookupCode(code); !ok {
			t.Errorf("docs/findings.md has a row for %s, which is not a registered code", code)
		}
	}
}

// Every code is raised by some test: its constant or its value appears in
// a test or a golden output outside this file.
func TestCodesRaisedByTests(t *testing.T) {
	var corpus strings.Builder
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		inTestdata := strings.Contains(filepath.ToSlash(path), "/testdata/")
		if (strings.HasSuffix(path, "_test.go") && filepath.Base(path) != "codes_test.go") || inTestdata {
			if info, err := d.Info(); err == nil && info.Size() < 1<<22 {
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				corpus.Write(b)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	text := corpus.String()
	names := map[string]string{}
	for name, v := range codeConstants(t) {
		names[v] = name
	}
	for _, c := range Codes {
		quoted := strconv.Quote(c.Code)
		if !strings.Contains(text, quoted) && !(names[c.Code] != "" && strings.Contains(text, "."+names[c.Code])) &&
			!slices.ContainsFunc([]string{"code\": " + quoted, "(" + c.Code + ")", " " + c.Code + ":", " " + c.Code + "\""}, func(s string) bool { return strings.Contains(text, s) }) {
			t.Errorf("no test or golden output raises %s", c.Code)
		}
	}
}
