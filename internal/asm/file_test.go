package asm_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	. "github.com/benchy-dev/benchy/internal/asm"
)

// The tests of File.Inspect read test binaries of testdata/bench, built as
// people build them: plain, stripped, position-independent, and for the
// other architecture benchy decodes.

const benchPkg = "example.com/asmbench."

// openAndInspect opens the executable at path and inspects the function named
// name in it (File.Inspect).
func openAndInspect(path, name string) (*Listing, error) {
	f, err := OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Inspect(name)
}

// needFileTests skips where the binaries are not ELF files of amd64 or
// arm64, where building them is too slow (-short), and under the race
// detector, whose instrumentation of the code would be read.
func needFileTests(t *testing.T) {
	t.Helper()
	needPlainCode(t)
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skipf("benchy decodes amd64 and arm64, and this is %s", runtime.GOARCH)
	}
	if runtime.GOOS != "linux" {
		t.Skipf("the test binaries of %s are not ELF files", runtime.GOOS)
	}
	if testing.Short() {
		t.Skip("builds test binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go command to build the test binaries: %v", err)
	}
}

// buildBench builds the test binary of testdata/bench into dir.
func buildBench(t *testing.T, dir, name string, env []string, flags ...string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", append([]string{"test", "-c", "-o", bin}, flags...)...)
	cmd.Dir = filepath.Join("testdata", "bench")
	cmd.Env = append(append(os.Environ(), "GOWORK=off"), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c %s: %v\n%s", strings.Join(flags, " "), err, out)
	}
	return bin
}

func inspectFile(t *testing.T, bin, name string) (*Listing, Summary) {
	t.Helper()
	l, err := openAndInspect(bin, name)
	if err != nil {
		t.Fatalf("File.Inspect(%s): %v", name, err)
	}
	s := l.Summary()
	t.Logf("%s: %s", strings.TrimPrefix(name, benchPkg), s.Line)
	return l, s
}

// openOnce checks that a File opened once reads each function as a file
// opened for it alone does (openAndInspect), a name it does not have on the
// way changing nothing.
func openOnce(t *testing.T, bin string) {
	t.Helper()
	f, err := OpenFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i, name := range benchFuncs {
		if i == 1 {
			if _, err := f.Inspect(benchPkg + "NoSuchFunction"); err == nil {
				t.Errorf("%s: a function it does not have was found", bin)
			}
		}
		got, err := f.Inspect(benchPkg + name)
		if err != nil {
			t.Fatalf("%s: File.Inspect(%s): %v", bin, name, err)
		}
		want, _ := inspectFile(t, bin, benchPkg+name)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %s read from the open file differs from one opened for it alone", bin, name)
		}
	}
	if got, want := f.FuncNames(benchPkg+"BenchmarkSumRun.func"), []string{benchPkg + "BenchmarkSumRun.func1"}; !slices.Equal(got, want) {
		t.Errorf("%s: closures %q, want %q", bin, got, want)
	}
}

// benchFuncs are the functions the tests look at, the closure included.
var benchFuncs = []string{"BenchmarkSum", "BenchmarkSumDiscarded", "BenchmarkMulFolded",
	"BenchmarkMulFoldedN", "BenchmarkSumLoop", "BenchmarkSumRun.func1"}

// TestInspectFiles checks the summaries of the benchmarks of testdata/bench
// in its test binary, and that stripping the binary changes nothing but
// where the bounds come from, and that making it position-independent
// changes nothing but the addresses.
func TestInspectFiles(t *testing.T) {
	needFileTests(t)
	dir := t.TempDir()
	bin := buildBench(t, dir, "plain.test", nil)
	checkBenchmarks(t, bin)
	openOnce(t, bin)
	t.Run("stripped", func(t *testing.T) {
		stripped := buildBench(t, dir, "stripped.test", nil, "-ldflags=-s -w")
		openOnce(t, stripped)
		for _, name := range benchFuncs {
			a, _ := inspectFile(t, bin, benchPkg+name)
			b, _ := inspectFile(t, stripped, benchPkg+name)
			if b.Bounds != "gopclntab" {
				t.Errorf("%s: bounds from %q, want gopclntab", name, b.Bounds)
			}
			sameCode(t, name, a, b, 0)
		}
		if names, err := FuncNames(stripped, benchPkg+"BenchmarkSumRun.func"); err != nil || len(names) != 1 {
			t.Errorf("closures in the stripped binary: %q, %v", names, err)
		}
	})
	t.Run("pie", func(t *testing.T) {
		pie := buildBench(t, dir, "pie.test", nil, "-buildmode=pie")
		for _, name := range benchFuncs {
			a, sa := inspectFile(t, bin, benchPkg+name)
			b, sb := inspectFile(t, pie, benchPkg+name)
			if !reflect.DeepEqual(sa.Body, sb.Body) || len(a.Func.Loops) != len(b.Func.Loops) {
				t.Errorf("%s: the position-independent loop %+v, the plain one %+v", name, sb.Body, sa.Body)
			}
		}
	})
	t.Run("errors", func(t *testing.T) { testFileErrors(t, bin) })
	t.Run("other arch", func(t *testing.T) {
		other := map[string]string{"amd64": "arm64", "arm64": "amd64"}[runtime.GOARCH]
		cross := buildBench(t, dir, other+".test", []string{"GOARCH=" + other, "CGO_ENABLED=0"})
		if l, _ := inspectFile(t, cross, benchPkg+"BenchmarkSum"); l.Arch != other {
			t.Errorf("arch %s, want %s", l.Arch, other)
		}
		checkBenchmarks(t, cross)
	})
}

// checkBenchmarks checks what the summaries say of the benchmarks of
// testdata/bench in the test binary bin.
func checkBenchmarks(t *testing.T, bin string) {
	t.Run("honest", func(t *testing.T) {
		l, s := inspectFile(t, bin, benchPkg+"BenchmarkSum")
		if !s.LoopLoads || s.Body.Loads != 1 || !has(s.Body.Kinds, "add") || s.Loops != 2 ||
			!strings.Contains(s.Line, "loads 8 bytes per iteration and adds") {
			t.Errorf("the loop over data: %+v", s)
		}
		if l.Bounds != "elf symbols" || !strings.HasSuffix(l.Func.File, "bench_test.go") || l.Func.Line == 0 {
			t.Errorf("bounds %q, at %s:%d", l.Bounds, l.Func.File, l.Func.Line)
		}
		for _, in := range l.Func.Insts {
			if in.PC == s.Loop && (!strings.HasSuffix(in.File, "bench.go") || in.Line == 0) {
				t.Errorf("loop head at %s:%d, want sum's loop in bench.go", in.File, in.Line)
			}
		}
	})
	t.Run("discarded", func(t *testing.T) {
		_, s := inspectFile(t, bin, benchPkg+"BenchmarkSumDiscarded")
		if s.LoopLoads || s.Body.Loads != 0 || !strings.Contains(s.Line, "only counts") || s.Loops != 2 {
			t.Errorf("the inner loop should only count: %+v", s)
		}
	})
	t.Run("folded", func(t *testing.T) {
		// The loop reads b.N after each store, and nothing else (on
		// arm64 the 12 is made by ORR $12, ZR: a move, not logic).
		l, s := inspectFile(t, bin, benchPkg+"BenchmarkMulFolded")
		if s.Body.Stores != 1 || s.Body.Loads != 1 || multiplies(l) || s.Body.Arith != 0 {
			t.Errorf("the loop should store the constant: %+v", s)
		}
		l, s = inspectFile(t, bin, benchPkg+"BenchmarkMulFoldedN")
		if s.LoopLoads || s.Body.Stores != 1 || multiplies(l) ||
			!strings.Contains(s.Line, "stores a value computed before the loop (or while compiling)") {
			t.Errorf("the loop should store without loading: %+v", s)
		}
	})
	t.Run("b.Loop", func(t *testing.T) {
		l, s := inspectFile(t, bin, benchPkg+"BenchmarkSumLoop")
		if !s.LoopLoads || !has(s.Body.Kinds, "add") {
			t.Errorf("sum's loop: %+v", s)
		}
		// Loop's fast path is inlined; it calls out when the count is up.
		var calls []string
		for _, lp := range l.Func.Loops {
			calls = append(calls, lp.Body.Calls...)
		}
		if !slices.ContainsFunc(calls, func(c string) bool {
			return c == "testing.(*B).Loop" || c == "testing.(*B).loopSlowPath"
		}) {
			t.Errorf("the loops call %v, want testing.(*B).Loop or its slow path", calls)
		}
	})
	t.Run("closure", func(t *testing.T) {
		names, err := FuncNames(bin, benchPkg+"BenchmarkSumRun.func")
		if err != nil || len(names) != 1 {
			t.Fatalf("closures of BenchmarkSumRun: %q, %v", names, err)
		}
		_, s := inspectFile(t, bin, names[0])
		_, honest := inspectFile(t, bin, benchPkg+"BenchmarkSum")
		if !reflect.DeepEqual(s.Body, honest.Body) {
			t.Errorf("the closure's loop %+v, want that of BenchmarkSum %+v", s.Body, honest.Body)
		}
	})
}

func testFileErrors(t *testing.T, bin string) {
	_, err := openAndInspect(filepath.Join("testdata", "bench", "go.mod"), "main.main")
	wantErr(t, "a text file", err, "not an ELF executable")
	_, err = FuncNames(filepath.Join(t.TempDir(), "missing"), "")
	if wantErr(t, "a missing file", err, "no such file"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v is not ErrNotExist", err)
	}

	// The same file for another machine: e_machine is the 2 bytes at 18.
	exe, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	exe[18], exe[19] = 243, 0 // EM_RISCV
	riscv := filepath.Join(t.TempDir(), "riscv.test")
	if err := os.WriteFile(riscv, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err = openAndInspect(riscv, benchPkg+"BenchmarkSum")
	if wantErr(t, "riscv64 code", err, "EM_RISCV"); !errors.Is(err, ErrUnsupportedArch) {
		t.Errorf("riscv64 code: %v is not ErrUnsupportedArch", err)
	}

	// A misspelt name: the names of the package that start the same come
	// first, five of them.
	_, err = openAndInspect(bin, benchPkg+"BenchmarkSums")
	if wantErr(t, "a misspelt name", err, "no function "+benchPkg+"BenchmarkSums", "similar: "+benchPkg+"BenchmarkSum, ", "more)"); err != nil &&
		strings.Count(err.Error(), benchPkg) != 6 {
		t.Errorf("a misspelt name: %v, want five suggestions", err)
	}
	_, err = openAndInspect(bin, "asmbench.BenchmarkSumLoop")
	wantErr(t, "a name without its package path", err, "similar: "+benchPkg+"BenchmarkSumLoop")
	_, err = openAndInspect(bin, "nothing.like.this")
	if wantErr(t, "a name like no other", err, "no function nothing.like.this"); err != nil && strings.Contains(err.Error(), "similar") {
		t.Errorf("a name like no other: %v", err)
	}
	_, err = openAndInspect(bin, "runtime.text")
	wantErr(t, "a symbol of size 0", err, "size 0")
}

// wantErr checks that err says all of want.
func wantErr(t *testing.T, what string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	t.Logf("%s: %v", what, err)
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %v, want it to say %q", what, err, w)
		}
	}
}

func multiplies(l *Listing) bool {
	return slices.ContainsFunc(l.Func.Insts, func(in Inst) bool { return in.Arith == "multiply" })
}
