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

func TestRewriteLeavesOtherFilesAlone(t *testing.T) {
	for _, src := range []string{
		"package p\n\nfunc f() {}\n",
		"package p\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
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
