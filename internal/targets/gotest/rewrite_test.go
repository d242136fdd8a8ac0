package gotest

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestRewrite(t *testing.T) {
	src := `package p

import (
	tt "testing"
)

func BenchmarkA(b *tt.B) {
	for i := 0; i < b.N; i++ {
		work()
	}
}

func BenchmarkB(_ *tt.B) {}

func BenchmarkC(*tt.B) {}

func Benchmarklower(b *tt.B) {}

func BenchmarkSub(b *tt.B) {
	b.Run("x", func(b *tt.B) {
		helper(b)
	})
	b.Run("y", sub)
	b.RunParallel(func(pb *tt.PB) {
		for pb.Next() {
		}
	})
}

func helper(b *tt.B) { b.Run("z", sub) }

func TestT(t *tt.T) { t.Run("t", func(t *tt.T) {}) }
`
	out, pkg, changed, err := Rewrite("p_test.go", []byte(src))
	if err != nil || !changed || pkg != "p" {
		t.Fatalf("Rewrite: changed %v, pkg %q, err %v", changed, pkg, err)
	}
	got := string(out)
	for _, want := range []string{
		"func BenchmarkA(b *tt.B) { benchyRun(b, func(b *tt.B) {",
		"func BenchmarkB(benchyB *tt.B) { benchyRun(benchyB, func(benchyB *tt.B) {})}",
		"func BenchmarkC(benchyB *tt.B) { benchyRun(benchyB, func(benchyB *tt.B) {})}",
		"func Benchmarklower(b *tt.B) {}",
		`b.Run("x", benchyWrap(func(b *tt.B) {`,
		`	}))`,
		`b.Run("y", benchyWrap(sub))`,
		`b.RunParallel(benchyParallel(func(pb *tt.PB) {`,
		`func helper(b *tt.B) { b.Run("z", benchyWrap(sub)) }`,
		`t.Run("t", func(t *tt.T) {})`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("rewritten file lacks %q:\n%s", want, got)
		}
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Errorf("line count changed: %d -> %d", strings.Count(src, "\n"), strings.Count(got, "\n"))
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "p_test.go", out, 0); err != nil {
		t.Errorf("the rewritten file does not parse: %v\n%s", err, got)
	}
	// Line numbers are kept: work() is still on line 9.
	if lines := strings.Split(got, "\n"); !strings.Contains(lines[8], "work()") {
		t.Errorf("line 9 is %q, want work()", lines[8])
	}
}

// The calls are found by type: a Run of another type is left alone
// whatever its receiver is named, a *testing.B is found however it is
// reached (a field, an embedded struct, a dot import, a call), and a
// shadowed name is not testing.
func TestRewriteByTypes(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		want      []string
		not       []string
	}{
		{"another Run on a b", `package p

import "testing"

type runner struct{}

func (runner) Run(n, m int) int { return n * m }

func BenchmarkX(b *testing.B) { b.Run("x", sub) }

func product() int {
	b := runner{}
	return b.Run(3, 4)
}
`, []string{`b.Run("x", benchyWrap(sub))`, `return b.Run(3, 4)`}, []string{"benchyWrap(4)"}},
		{"dot import", `package p

import . "testing"

func BenchmarkX(b *B) {
	b.Run("x", func(b *B) {})
	b.RunParallel(func(pb *PB) {})
}
`, []string{`func BenchmarkX(b *B) { benchyRun(b, func(b *B) {`, `b.Run("x", benchyWrap(func(b *B) {}))`,
			`b.RunParallel(benchyParallel(func(pb *PB) {}))`}, nil},
		{"reached otherwise", `package p_test

import (
	"testing"

	"example.com/p"
)

type suite struct{ b *testing.B }
type embeds struct{ *testing.B }

func get(b *testing.B) *testing.B { return b }

func BenchmarkX(b *testing.B) {
	s := suite{b}
	s.b.Run("field", p.Bench)
	embeds{b}.Run("embedded", p.Bench)
	get(b).Run("call", p.Bench)
	p.Runner.Run(1, 2)
}
`, []string{`s.b.Run("field", benchyWrap(p.Bench))`, `embeds{b}.Run("embedded", benchyWrap(p.Bench))`,
			`get(b).Run("call", benchyWrap(p.Bench))`, `p.Runner.Run(1, 2)`}, nil},
		{"shadowed", `package p

import "testing"

type fake struct{}

func (fake) Run(string, func(*testing.B)) bool { return true }

func BenchmarkX(b *testing.B) {
	{
		b := fake{}
		b.Run("fake", nil)
	}
	testing := fake{}
	testing.Run("fake too", nil)
}
`, []string{`b.Run("fake", nil)`, `testing.Run("fake too", nil)`}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, _, changed, err := Rewrite("p_test.go", []byte(tt.src))
			if err != nil || !changed {
				t.Fatalf("changed %v, err %v", changed, err)
			}
			got := string(out)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(got, w) {
					t.Errorf("has %q:\n%s", w, got)
				}
			}
			if _, err := parser.ParseFile(token.NewFileSet(), "p_test.go", out, 0); err != nil {
				t.Errorf("does not parse: %v\n%s", err, got)
			}
		})
	}
}

func TestRewriteLeavesOtherFilesAlone(t *testing.T) {
	for _, src := range []string{
		"package p\n\nfunc f() {}\n",
		"package p\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
		"package p\n\nimport \"testing\"\n\ntype r struct{}\n\nfunc (r) Run(a, b int) {}\n\nfunc TestX(t *testing.T) { var b r; b.Run(1, 2) }\n",
	} {
		out, _, changed, err := Rewrite("x_test.go", []byte(src))
		if err != nil || changed || string(out) != src {
			t.Errorf("Rewrite(%q) = changed %v, err %v", src, changed, err)
		}
	}
	if _, _, _, err := Rewrite("bad_test.go", []byte("package")); err == nil {
		t.Error("a file that does not parse was rewritten")
	}
}

func FuzzRewrite(f *testing.F) {
	f.Add([]byte("package p\nimport \"testing\"\nfunc BenchmarkX(b *testing.B) { b.Run(\"a\", f) }\n"))
	f.Add([]byte("package p\nimport . \"testing\"\nfunc BenchmarkX(_ *B) {}\nfunc g(b *B) { b.RunParallel(func(*PB){}) }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, _, changed, err := Rewrite("f_test.go", src)
		if err != nil || !changed {
			return
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "f_test.go", out, 0); err != nil {
			t.Errorf("rewritten source does not parse: %v\n%s", err, out)
		}
	})
}
