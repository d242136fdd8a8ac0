package asm_test

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	. "github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/workload"
)

// needPlainCode skips a test of what the compiler made of a loop when the
// race detector instrumented it.
func needPlainCode(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("the race detector adds calls to every loop: its machine code is not the program's")
	}
}

func inspect(t *testing.T, name string) (*Listing, Summary) {
	t.Helper()
	needPlainCode(t)
	if !supported() {
		t.Skipf("no disassembler for %s", runtime.GOARCH)
	}
	var loop any
	for _, w := range workload.All() {
		if w.Name == name {
			loop = w.Loop
		}
	}
	if loop == nil {
		t.Fatalf("no experiment %s", name)
	}
	l, err := Inspect(loop)
	if err != nil {
		t.Fatalf("Inspect(%s): %v", name, err)
	}
	return l, l.Summary()
}

// supported says benchy disassembles this architecture.
func supported() bool { return runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64" }

// needAMD64 skips tests that depend on the code the amd64 compiler emits.
func needAMD64(t *testing.T) {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skipf("the expected instructions are those of amd64; this is %s", runtime.GOARCH)
	}
}

func TestSumUnusedLoopLoadsNothing(t *testing.T) {
	_, s := inspect(t, "sum/unused")
	if s.LoopLoads || s.Body.Loads != 0 || s.Body.Arith != 0 {
		t.Errorf("sum/unused: %+v", s)
	}
	if !strings.Contains(s.Line, "no memory load: the input is not read") {
		t.Errorf("line = %q", s.Line)
	}
	// The counting loop itself is still there: that is the trap.
	if s.Loops != 2 {
		t.Errorf("sum/unused has %d loops, want the outer loop and the empty inner one", s.Loops)
	}
}

func TestSumSinkLoopLoadsAndAdds(t *testing.T) {
	needAMD64(t)
	_, s := inspect(t, "sum/sink")
	if !s.LoopLoads || s.Body.Loads != 1 || s.Body.LoadBytes != 8 || !has(s.Body.Kinds, "add") {
		t.Errorf("sum/sink: %+v", s)
	}
	if !strings.Contains(s.Line, "loads 8 bytes per iteration and adds") {
		t.Errorf("line = %q", s.Line)
	}
}

func TestNoinlineFollowsTheCall(t *testing.T) {
	l, s := inspect(t, "sum/noinline-total")
	if len(l.Callees) == 0 || !strings.HasSuffix(l.Callees[0].Name, "workload.sumNoinline") {
		t.Fatalf("callees = %v", names(l.Callees))
	}
	if !strings.HasSuffix(s.Func, "workload.sumNoinline") || !s.LoopLoads || s.Body.Loads == 0 {
		t.Errorf("summary does not describe the callee's loop: %+v", s)
	}
}

func TestFoldConstantWasFolded(t *testing.T) {
	needAMD64(t)
	_, c := inspect(t, "fold/constant")
	if c.LoopLoads || c.Body.Arith != 0 || c.Body.Stores != 1 {
		t.Errorf("fold/constant: %+v", c)
	}
	_, o := inspect(t, "fold/opaque")
	if !has(o.Body.Kinds, "multiply") || o.Body.Loads != 1 {
		t.Errorf("fold/opaque: %+v", o)
	}
	l, _ := inspect(t, "fold/opaque")
	muls := 0
	for _, in := range l.Func.Insts {
		if in.Arith == "multiply" {
			muls++
		}
	}
	if muls != 8 {
		t.Errorf("fold/opaque has %d multiplies, want 8", muls)
	}
}

// TestEveryExperiment checks that every loop function is found, has a loop,
// and that a workload over memory reads memory in it, except sum/unused.
func TestEveryExperiment(t *testing.T) {
	for _, w := range workload.All() {
		l, s := inspect(t, w.Name)
		if l.Func.End <= l.Func.Entry || len(l.Func.Insts) == 0 {
			t.Errorf("%s: empty listing %#x-%#x", w.Name, l.Func.Entry, l.Func.End)
		}
		if s.Loops == 0 || s.Line == "" {
			t.Errorf("%s: no loop found: %+v", w.Name, s)
		}
		if w.ReadsMemory && !s.LoopLoads && w.Name != "sum/unused" {
			t.Errorf("%s reads memory but its loop has no load: %s", w.Name, s.Line)
		}
		last := l.Func.Insts[len(l.Func.Insts)-1]
		if last.PC+uint64(last.Len) != l.Func.End {
			t.Errorf("%s: instructions end at %#x, function at %#x", w.Name, last.PC+uint64(last.Len), l.Func.End)
		}
		if _, err := json.Marshal(l); err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
	}
}

func TestSourceLines(t *testing.T) {
	l, s := inspect(t, "sum/sink")
	for _, in := range l.Func.Insts {
		if in.PC == s.Loop {
			if !strings.HasSuffix(in.File, "workload/sum.go") || in.Line == 0 {
				t.Errorf("loop head at %s:%d, want the sum in sum.go", in.File, in.Line)
			}
			return
		}
	}
	t.Errorf("no instruction at the loop head %#x", s.Loop)
}

func TestInspectRejects(t *testing.T) {
	if !supported() {
		_, err := Inspect(sink.Keep[int])
		if err != ErrUnsupportedArch {
			t.Errorf("err = %v, want ErrUnsupportedArch", err)
		}
		return
	}
	var nilFunc func(int)
	for _, v := range []any{nil, 42, nilFunc} {
		if _, err := Inspect(v); err == nil {
			t.Errorf("Inspect(%#v) did not fail", v)
		}
	}
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func names(fs []Func) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// BenchmarkInspectAll is what `benchy run` pays to check every experiment's
// loop: Inspect and Summary for all of them. The first call also reads the
// executable's symbol table; BenchmarkLoadImage measures that alone.
func BenchmarkInspectAll(b *testing.B) {
	all := workload.All()
	for b.Loop() {
		for _, w := range all {
			l, err := Inspect(w.Loop)
			if err != nil {
				b.Fatal(err)
			}
			_ = l.Summary()
		}
	}
}

var (
	fibN    = 90
	fibSink uint64
	data    = []uint64{1, 2, 3, 4, 5, 6, 7, 8}
)

// fibLoop computes Fibonacci numbers in registers: the compiler adds with
// LEAQ and carries a and b in register moves, and loads nothing inside.
func fibLoop(n int) {
	for i := 0; i < n; i++ {
		a, b := uint64(0), uint64(1)
		for j := 0; j < fibN; j++ {
			a, b = b, a+b
		}
		fibSink = a
	}
}

func TestWorkInRegistersIsNotCounting(t *testing.T) {
	needPlainCode(t)
	if !supported() {
		t.Skipf("no disassembler for %s", runtime.GOARCH)
	}
	l, err := Inspect(fibLoop)
	if err != nil {
		t.Fatal(err)
	}
	s := l.Summary()
	if strings.Contains(s.Line, "only counts") || !strings.Contains(s.Line, "adds") || s.Body.Arith == 0 {
		t.Errorf("Fibonacci loop: %q (body %+v); want its adds seen, not 'only counts'", s.Line, s.Body)
	}
}

func TestClosuresAreFound(t *testing.T) {
	needPlainCode(t)
	if !supported() {
		t.Skipf("no disassembler for %s", runtime.GOARCH)
	}
	xs := data
	honest := func(n int) {
		for i := 0; i < n; i++ {
			var t uint64
			for _, x := range xs {
				t += x
			}
			fibSink = t
		}
	}
	discarded := func(n int) {
		for i := 0; i < n; i++ {
			var t uint64
			for _, x := range xs {
				t += x
			}
			_ = t
		}
	}
	for _, tt := range []struct {
		name  string
		loop  func(int)
		loads bool
	}{{"honest", honest, true}, {"discarded", discarded, false}} {
		l, err := Inspect(tt.loop)
		if err != nil {
			t.Fatalf("%s closure: %v", tt.name, err)
		}
		if !strings.Contains(l.Func.Name, ".func") {
			t.Errorf("%s closure disassembled as %s, want the closure's own code", tt.name, l.Func.Name)
		}
		if s := l.Summary(); s.LoopLoads != tt.loads {
			t.Errorf("%s closure: loop loads %v (%s), want %v", tt.name, s.LoopLoads, s.Line, tt.loads)
		}
	}
}
