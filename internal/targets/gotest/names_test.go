package gotest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBenchmarksIn(t *testing.T) {
	src := `package p

import (
	"testing"
	tt "testing"
)

func BenchmarkSum(b *testing.B)       {}
func BenchmarkAliased(b *tt.B)        {}
func Benchmark(b *testing.B)          {}
func Benchmark_under(b *testing.B)    {}
func Benchmarkish(b *testing.B)       {} // lower case after Benchmark: not a benchmark
func BenchmarkTwo(b, c *testing.B)    {}
func BenchmarkT(t *testing.T)         {}
func BenchmarkValue(b testing.B)      {}
func BenchmarkResult(b *testing.B) int { return 0 }
func BenchmarkGeneric[T any](b *testing.B) {}
func helper(b *testing.B)             {}
func (s) BenchmarkMethod(b *testing.B) {}
func TestX(t *testing.T)              {}
`
	got := benchmarksIn([]byte(src))
	want := []string{"Sum", "Aliased", "", "_under"}
	if !slices.Equal(got, want) {
		t.Errorf("benchmarksIn = %q, want %q", got, want)
	}
	dot := "package p\nimport . \"testing\"\nfunc BenchmarkDot(b *B) {}\n"
	if got := benchmarksIn([]byte(dot)); !slices.Equal(got, []string{"Dot"}) {
		t.Errorf("dot import: benchmarksIn = %q, want [Dot]", got)
	}
	broken := "package p\nimport \"testing\"\nfunc BenchmarkFirst(b *testing.B) {}\nfunc Broken( {\n"
	if got := benchmarksIn([]byte(broken)); !slices.Contains(got, "First") {
		t.Errorf("a file that does not parse: benchmarksIn = %q, want the benchmark before the error", got)
	}
	if got := benchmarksIn([]byte("not go")); len(got) != 0 {
		t.Errorf("not Go: benchmarksIn = %q, want none", got)
	}
}

func TestBenchmarkNames(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("a.go", "package m\n")
	write("a_test.go", "package m\nimport \"testing\"\nfunc BenchmarkB(b *testing.B) {}\nfunc BenchmarkA(b *testing.B) {}\n")
	write("x_test.go", "package m_test\nimport \"testing\"\nfunc BenchmarkX(b *testing.B) {}\n")
	write("sub/s.go", "package sub\n")
	write("sub/s_test.go", "package sub\nimport \"testing\"\nfunc BenchmarkA(b *testing.B) {}\nfunc BenchmarkSub(b *testing.B) {}\n")
	// A package that does not build still lists its benchmarks: nothing is
	// compiled.
	write("bad/b.go", "package bad\nfunc f() { undefined() }\n")
	write("bad/b_test.go", "package bad\nimport \"testing\"\nfunc BenchmarkBad(b *testing.B) {}\n")

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tt := range []struct {
		patterns []string
		want     []string
	}{
		{[]string{"."}, []string{"A", "B", "X"}},
		{nil, []string{"A", "B", "X"}},
		{[]string{"./sub"}, []string{"A", "Sub"}},
		{[]string{"./..."}, []string{"A", "B", "Bad", "Sub", "X"}},
		{[]string{"./bad"}, []string{"Bad"}},
	} {
		got, err := BenchmarkNames(ctx, dir, tt.patterns)
		if err != nil {
			t.Fatalf("BenchmarkNames(%q): %v", tt.patterns, err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("BenchmarkNames(%q) = %q, want %q", tt.patterns, got, tt.want)
		}
	}
	if _, err := BenchmarkNames(ctx, filepath.Join(dir, "missing"), nil); err == nil {
		t.Errorf("BenchmarkNames in a missing directory: no error")
	}
}

func FuzzBenchmarksIn(f *testing.F) {
	f.Add([]byte("package p\nimport \"testing\"\nfunc BenchmarkSum(b *testing.B) {}\n"))
	f.Add([]byte("package p\nfunc Benchmark(b *B) {}\nfunc (x) BenchmarkM(b *testing.B) {}\n"))
	f.Add([]byte("package p\nfunc BenchmarkÄ(b *testing.B) {"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, name := range benchmarksIn(src) {
			if !isBenchmarkName("Benchmark"+name) || strings.ContainsAny(name, " \n(") {
				t.Errorf("benchmarksIn(%q) gave %q, not a benchmark's name", src, name)
			}
		}
	})
}
