package workload

import (
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// sumOfData is 0+1+...+4095.
const sumOfData = 4096 * 4095 / 2

// Lookup returns the experiment with the given name.
func Lookup(name string) (inproc.Workload, bool) {
	for _, w := range catalogue {
		if w.Name == name {
			return w, true
		}
	}
	return inproc.Workload{}, false
}

func TestCatalogue(t *testing.T) {
	shape := regexp.MustCompile(`^[a-z]+(/[a-z0-9]+(-[a-z0-9]+)*)?$`)
	seen := map[string]bool{}
	for _, w := range All() {
		if !shape.MatchString(w.Name) {
			t.Errorf("name %q is not family/variant", w.Name)
		}
		if seen[w.Name] {
			t.Errorf("name %q twice", w.Name)
		}
		seen[w.Name] = true
		if w.Description == "" || strings.Contains(w.Description, "\n") {
			t.Errorf("%s: description must be one non-empty line", w.Name)
		}
		if w.Units <= 0 || w.Unit == "" {
			t.Errorf("%s: units %v %q", w.Name, w.Units, w.Unit)
		}
		if w.Loop == nil {
			t.Fatalf("%s: no loop", w.Name)
		}
		// The loop must be a named top-level function, so `benchy asm`
		// can find it: closures are named "...func1".
		name := runtime.FuncForPC(reflect.ValueOf(w.Loop).Pointer()).Name()
		if regexp.MustCompile(`\.func\d+$`).MatchString(name) || !strings.Contains(name, "/workload.") {
			t.Errorf("%s: loop %s is not a named function of this package", w.Name, name)
		}
	}
	if all := All(); all[0].Name != "sum/unused" {
		t.Errorf("All()[0] = %s, want sum/unused first", all[0].Name)
	}
	// All returns a copy: changing it does not change the catalogue.
	All()[0].Name = "changed"
	if All()[0].Name != "sum/unused" {
		t.Error("All() exposes the catalogue")
	}
	for _, want := range []string{"sum/unused", "sum/sink", "sum/keep", "sum/total", "sum/noinline-total",
		"sum/opaque", "fold/constant", "fold/opaque", "concat/quadratic", "concat/builder",
		"sort/ints-8000", "sort/copy-8000", "clock/now", "empty"} {
		if !seen[want] {
			t.Errorf("experiment %s missing", want)
		}
	}
}

// TestLoops runs every loop three times and checks what reaches the sinks.
func TestLoops(t *testing.T) {
	mixed := mix4(mix4(foldSeed))
	wantText := strings.Join(concatLines, "")
	tests := []struct {
		name  string
		reset func()
		check func(t *testing.T)
	}{
		{"sum/sink", func() { sink.SinkU64 = 0 }, func(t *testing.T) { wantU64(t, sumOfData) }},
		{"sum/total", func() { sink.SinkU64 = 0 }, func(t *testing.T) { wantU64(t, 3*sumOfData) }},
		{"sum/noinline-total", func() { sink.SinkU64 = 0 }, func(t *testing.T) { wantU64(t, 3*sumOfData) }},
		{"fold/constant", func() { sink.SinkU64 = 0 }, func(t *testing.T) { wantU64(t, mixed) }},
		{"fold/opaque", func() { sink.SinkU64 = 0 }, func(t *testing.T) { wantU64(t, mixed) }},
		{"concat/quadratic", func() { sink.SinkStr = "" }, func(t *testing.T) { wantStr(t, wantText) }},
		{"concat/builder", func() { sink.SinkStr = "" }, func(t *testing.T) { wantStr(t, wantText) }},
		{"sort/ints-8000", func() { sink.SinkInt = 0 }, func(t *testing.T) {
			if sink.SinkInt != sortLen-1 || !sortedPermutation(sortScratch) {
				t.Errorf("sort: last = %d, sorted permutation %v", sink.SinkInt, sortedPermutation(sortScratch))
			}
		}},
		{"sort/copy-8000", func() { sink.SinkInt = -1 }, func(t *testing.T) {
			if sink.SinkInt != sortInput[sortLen-1] {
				t.Errorf("copy: last = %d, want %d", sink.SinkInt, sortInput[sortLen-1])
			}
		}},
	}
	checked := map[string]bool{}
	for _, tt := range tests {
		checked[tt.name] = true
		t.Run(tt.name, func(t *testing.T) {
			w, ok := Lookup(tt.name)
			if !ok {
				t.Fatalf("no %s", tt.name)
			}
			tt.reset()
			run(w, 3)
			tt.check(t)
		})
	}
	// The others have no sink to check (or discard the result on
	// purpose): they must still run without panicking.
	for _, w := range All() {
		if !checked[w.Name] {
			t.Run(w.Name, func(t *testing.T) { run(w, 3); run(w, 0) })
		}
	}
}

func run(w inproc.Workload, n int) {
	if w.Setup != nil {
		w.Setup()
	}
	w.Loop(n)
}

func wantU64(t *testing.T, want uint64) {
	t.Helper()
	if sink.SinkU64 != want {
		t.Errorf("sink = %d, want %d", sink.SinkU64, want)
	}
}

func wantStr(t *testing.T, want string) {
	t.Helper()
	if sink.SinkStr != want {
		t.Errorf("sink has %d bytes, want %d", len(sink.SinkStr), len(want))
	}
}

func sortedPermutation(s []int) bool {
	for i, v := range s {
		if v != i {
			return false
		}
	}
	return len(s) == sortLen
}

// TestSumTotal checks the arithmetic the sum family relies on: the input is
// 0..4095 and its sum is 8386560.
func TestSumTotal(t *testing.T) {
	if sumOfData != 8386560 {
		t.Fatalf("sumOfData = %d", sumOfData)
	}
	if got := sum(sumData); got != 8386560 {
		t.Errorf("sum = %d, want 8386560", got)
	}
	if got := sumNoinline(sumData); got != 8386560 {
		t.Errorf("sumNoinline = %d, want 8386560", got)
	}
	sink.SinkU64 = 0
	sumTotalLoop(5)
	if sink.SinkU64 != 5*8386560 {
		t.Errorf("sum/total over 5 ops = %d, want %d", sink.SinkU64, 5*8386560)
	}
	if len(sumData) != 4096 || sumData[0] != 0 || sumData[4095] != 4095 {
		t.Errorf("sumData is not 0..4095")
	}
}

// TestInputs checks the inputs are what the descriptions say.
func TestInputs(t *testing.T) {
	if len(concatLines) != 8000 || concatTextLen != len(strings.Join(concatLines, "")) {
		t.Errorf("concat: %d lines, %d bytes", len(concatLines), concatTextLen)
	}
	if len(sortInput) != sortLen || sortedPermutation(sortInput) {
		t.Error("sort input is not a shuffled 0..7999")
	}
	if foldInput != foldSeed {
		t.Error("fold/opaque must mix the same value as fold/constant")
	}
}

// BenchmarkWorkloads gives the time per op of every experiment under
// testing.B, to compare with benchy run.
func BenchmarkWorkloads(b *testing.B) {
	for _, w := range All() {
		b.Run(w.Name, func(b *testing.B) {
			if w.Setup != nil {
				w.Setup()
			}
			w.Loop(b.N)
		})
	}
}

// tail/rare-slow's slow path: 2 calls in 1,000 do 100 sums, the rest one,
// so 0.2% of the calls are slow and p99.9 falls among them; its Loop makes
// the same calls as its Call.
func TestTailRareSlow(t *testing.T) {
	tailCalls = 0
	slow, sums := 0, 0
	for range 1000 {
		r := tailReps()
		sums += r
		if r > 1 {
			slow++
		}
	}
	if slow != 2 || sums != 998+2*100 {
		t.Errorf("%d slow calls, %d sums in 1,000 calls; want 2 and 1198", slow, sums)
	}
	tailRareSlowLoop(7)
	if tailCalls != 1007 {
		t.Errorf("the loop of 7 ops made %d calls, want 7", tailCalls-1000)
	}
	for _, name := range []string{"tail/steady", "tail/rare-slow"} {
		if w, _ := Lookup(name); w.Call == nil {
			t.Errorf("%s has no Call: run --latency has nothing to time", name)
		}
	}
}

// tail/stall stalls when its time comes, once, and not again until
// tailStallEvery later: the call after a stall is a usual one.
func TestTailStall(t *testing.T) {
	tailStallNext = time.Time{}
	before := time.Now()
	tailStallCall()
	if d := time.Since(before); d < tailStallFor {
		t.Errorf("a call with its stall due took %v, want at least %v", d, tailStallFor)
	}
	next := tailStallNext
	if next.Sub(before) < tailStallEvery {
		t.Errorf("next stall %v after the first, want %v", next.Sub(before), tailStallEvery)
	}
	tailStallCall()
	if tailStallNext != next {
		t.Errorf("the call after a stall stalled again")
	}
	if w, _ := Lookup("tail/stall"); w.Call == nil {
		t.Errorf("tail/stall has no Call")
	}
}
