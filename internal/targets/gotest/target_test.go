package gotest

import (
	"go/parser"
	"go/token"
	"math"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// The thread's CPU time stands for the timed work only when the call was
// all timed and did not block; else the time other tasks cost is read
// from the run delay.
func TestOnCPU(t *testing.T) {
	c := func(cpu, vcs int64) map[string]int64 {
		return map[string]int64{result.CounterThreadCPU: cpu, result.CounterVoluntaryCS: vcs, result.CounterRunDelay: 10}
	}
	tests := []struct {
		name    string
		x       Record
		keepCPU bool
	}{
		{"all timed", Record{Ns: 10_000_000, Wall: 10_040_000, Counters: c(9_990_000, 0)}, true},
		{"setup before ResetTimer", Record{Ns: 10_000_000, Wall: 15_000_000, Counters: c(14_990_000, 0)}, false},
		{"short call, small slack", Record{Ns: 1_000_000, Wall: 1_040_000, Counters: c(1_030_000, 0)}, true},
		{"blocked", Record{Ns: 10_000_000, Wall: 10_000_000, Counters: c(5_000_000, 3)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := onCPU(tt.x)
			_, has := got[result.CounterThreadCPU]
			if has != tt.keepCPU {
				t.Errorf("thread-cpu-ns kept %v, want %v: %v", has, tt.keepCPU, got)
			}
			if !tt.keepCPU && got[CounterCallCPU] != tt.x.Counters[result.CounterThreadCPU] {
				t.Errorf("call-cpu-ns %d, want %d", got[CounterCallCPU], tt.x.Counters[result.CounterThreadCPU])
			}
			if _, ok := tt.x.Counters[CounterCallCPU]; ok {
				t.Error("the record's own counters were changed")
			}
			if tt.name == "setup before ResetTimer" && got[result.CounterRunDelay] != 6 {
				// 10 ns of run delay over the call, 10 of its 15 ms timed.
				t.Errorf("run delay of the timed part %d, want 10·10/15 = 6", got[result.CounterRunDelay])
			}
		})
	}
}

// The benchmark regexp runs exactly one benchmark, level by level.
func TestBenchRegexp(t *testing.T) {
	if got := BenchRegexp("BenchmarkX/a.b(c)"); got != `^BenchmarkX$/^a\.b\(c\)$` {
		t.Errorf("BenchRegexp = %q", got)
	}
}

func TestBenchCond(t *testing.T) {
	// forLines reads a file; benchCond is the rule it applies.
	for src, want := range map[string]bool{"i < b.N": true, "b.Loop()": true, "i < n": false, "pb.Next()": false} {
		e, err := parser.ParseExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := benchCond(e); got != want {
			t.Errorf("benchCond(%s) = %v, want %v", src, got, want)
		}
	}
}

// The helper is added to the package under test, so it may import only
// what package testing already depends on: anything else may import that
// package in turn (encoding/json's own benchmarks would not build with a
// helper that imports encoding/json), a cycle Go refuses.
func TestHelperImportsOnlyTestingsDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "testing").Output()
	if err != nil {
		t.Skip("go list:", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	f, err := parser.ParseFile(token.NewFileSet(), "helper.go", helper(Package{Name: "x"}, "x"), parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		if p := strings.Trim(imp.Path.Value, `"`); !deps[p] {
			t.Errorf("the helper imports %s, which testing does not depend on", p)
		}
	}
}

// setup-in-timer: a fixed cost every call of testing's ramp paid is a
// setup in the timer; one call slowed by something else is not.
func TestSetupInTimer(t *testing.T) {
	ramp := func(perOp, fixed float64, slow map[int64]float64) []Record {
		var calls []Record
		for _, n := range []int64{1, 100, 10_000, 1_000_000, 5_000_000} {
			calls = append(calls, Record{N: n, Ns: int64(fixed + perOp*float64(n) + slow[n])})
		}
		return calls
	}
	if f, ok := perCallCost(ramp(2, 5e6, nil), 5_000_000); !ok || f.Code != result.CodeSetupInTimer {
		t.Errorf("a 5 ms setup in every call: %v %v", f, ok)
	}
	if f, ok := perCallCost(ramp(2, 0, map[int64]float64{1_000_000: 2e6}), 5_000_000); ok {
		t.Errorf("one call 2 ms slow is not a setup: %v", f.Message)
	}
	if _, ok := perCallCost(ramp(2, 0, nil), 5_000_000); ok {
		t.Error("no fixed cost, a finding")
	}
	// Two calls past N=1, close in N and 3% apart per op (strings'
	// SplitSingleByteSeparator, recorded on a quiet machine): their line
	// has a fixed cost of 11.7 ms, which the N=1 call, 1.4 ms, did not
	// pay. Without that call the same ramp is accused.
	split := []Record{{N: 1, Ns: 1_404_076}, {N: 85, Ns: 90_663_982}, {N: 111, Ns: 114_808_402}}
	if f, ok := perCallCost(split, 111); ok {
		t.Errorf("a first call 3%% slower per op is not a setup: %v", f.Message)
	}
	if f, ok := perCallCost(split[1:], 111); !ok || f.Code != result.CodeSetupInTimer {
		t.Errorf("without the N=1 call, the two calls' line is not read as a setup: %v %v", f, ok)
	}
	// A ramp stopped at N=100 is too short to judge, and says so.
	short := ramp(2, 5e6, nil)[:2]
	if f, ok := perCallCost(short, 100); !ok || f.Code != result.CodeSetupUnknown {
		t.Errorf("a ramp of N=1 and 100 only: %v %v, want setup-unknown", f, ok)
	}
}

// Who pays a fixed cost per call decides the finding: a loop whose
// collections grow with N, or b.RunParallel's goroutines, make the time per
// op depend on N (cost-depends-on-n, with the arithmetic), never a setup
// the benchmark does not have; a setup that allocates, collecting about as
// often in every call, is still one.
func TestPerCallCostWho(t *testing.T) {
	ramp := func(perOp, fixed float64, ns []int64, gcPerOp, gcPerCall float64, parallel bool) []Record {
		var calls []Record
		for _, n := range ns {
			calls = append(calls, Record{N: n, Ns: int64(fixed + perOp*float64(n)), Parallel: parallel,
				Counters: map[string]int64{result.CounterGCCycles: int64(gcPerCall + gcPerOp*float64(n))}})
		}
		return calls
	}
	cases := []struct {
		name     string
		calls    []Record
		n        int64
		code     string
		severity finding.Severity
		says     string
	}{
		// 160 MB allocated per op, 17.4 ms/op, 7 ms a call more: 2 of 11
		// default runs were accused of a setup.
		{"allocating loop", ramp(17.4e6, 7e6, []int64{1, 2, 6}, 40, 0, false), 6, result.CodeDependsOnN, finding.Info,
			"so the loop allocates; testing collects before each call"},
		// sync's PoolExpensiveNew: a pool refilled at 1 ms an item after
		// every collection, in b.RunParallel.
		{"parallel", ramp(2e6, 110e6, []int64{1, 2, 4}, 0.05, 1, true), 4, result.CodeDependsOnN, finding.Warn,
			"it runs b.RunParallel, whose goroutines"},
		{"setup that allocates", ramp(2, 5e6, []int64{1, 100, 10_000, 1_000_000, 5_000_000}, 0, 1, false), 5_000_000,
			result.CodeSetupInTimer, finding.Warn, "a setup before the loop without b.ResetTimer"},
	}
	for _, c := range cases {
		f, ok := perCallCost(c.calls, c.n)
		if !ok || f.Code != c.code || f.Severity != c.severity || !strings.Contains(f.Message, c.says) {
			t.Errorf("%s: %v %+v, want %s (%v) saying %q", c.name, ok, f, c.code, c.severity, c.says)
		}
		if ok && !strings.Contains(f.Message, "per op at N=1 against ") {
			t.Errorf("%s: no arithmetic at two N: %s", c.name, f.Message)
		}
	}
}

// The whole message and evidence of a fixed cost per call, worked by hand:
// 5 ms a call and 2 ns per op is a third of a sample at N=5,000,000; a
// parallel benchmark's 110 ms a call and 2 ms per op is 110/118 of one at
// N=4, and its time per op is given from N=1, or from the smallest N when
// the ramp's N=1 call is missing.
func TestPerCallCostMessage(t *testing.T) {
	ramp := func(perOp, fixed float64, ns []int64, parallel bool) []Record {
		var calls []Record
		for _, n := range ns {
			calls = append(calls, Record{N: n, Ns: int64(fixed + perOp*float64(n)), Parallel: parallel})
		}
		return calls
	}
	parallel := ramp(2e6, 110e6, []int64{1, 2, 4}, true)
	for _, c := range []struct {
		calls []Record
		n     int64
		msg   string
		ev    map[string]float64
	}{
		{ramp(2, 5e6, []int64{1, 100, 10_000, 1_000_000, 5_000_000}, false), 5_000_000,
			"every call of the benchmark costs 5 ms besides 2 ns per op: work outside the b.N loop is timed (a setup before the loop without b.ResetTimer), " +
				"and the time per op depends on N: 5 ms per op at N=1 against 3 ns at N=5000000; at the samples' N=5000000 it is 33% of their time",
			map[string]float64{"fixed_ns": 5e6, "per_op_ns": 2, "share": 1.0 / 3, "calls": 4, "samples_n": 5e6}},
		{parallel, 4,
			"the time per op depends on N: every call costs 110 ms besides 2 ms per op (paid once per call: it runs b.RunParallel, whose goroutines each run what comes before their pb.Next loop, " +
				"after the collection testing runs before each call), so: 112 ms per op at N=1 against 29.5 ms at N=4; at the samples' N=4 it is 93% of their time; a larger --sample-time gives a larger N",
			map[string]float64{"fixed_ns": 110e6, "per_op_ns": 2e6, "share": 110.0 / 118, "calls": 2, "samples_n": 4}},
		{parallel[1:], 4, "so: 57 ms per op at N=2 against 29.5 ms at N=4;",
			map[string]float64{"fixed_ns": 110e6, "per_op_ns": 2e6, "share": 110.0 / 118, "calls": 2, "samples_n": 4}},
	} {
		f, ok := perCallCost(c.calls, c.n)
		if !ok || !strings.Contains(f.Message, c.msg) {
			t.Errorf("N=%d: %v %q, want %q", c.n, ok, f.Message, c.msg)
		}
		if len(f.Evidence) != len(c.ev) {
			t.Errorf("N=%d: evidence %v, want %v", c.n, f.Evidence, c.ev)
		}
		for k, want := range c.ev {
			var got float64
			switch v := f.Evidence[k].(type) {
			case float64:
				got = v
			case int:
				got = float64(v)
			case int64:
				got = float64(v)
			}
			if math.Abs(got-want) > 1e-6*want {
				t.Errorf("N=%d: %s = %v, want %v", c.n, k, f.Evidence[k], want)
			}
		}
	}
}

// A benchmark written with b.Loop ramps inside one call, which begins at
// N=1 and ends at the ramp's N: parseLog marks it, and no fixed cost per
// call is read from such calls (b.Loop resets the timer at its first
// iteration), however far apart two of its ramps are per op. A longer
// ramp that read 4% faster per op had it accused of a setup.
func TestLoopCallsTimeNoSetup(t *testing.T) {
	log := `{"event":"start","name":"BenchmarkL","n":1}
{"event":"end","name":"BenchmarkL","n":1000000,"returned":true,"ns":100000000}
{"event":"start","name":"BenchmarkL","n":1}
{"event":"end","name":"BenchmarkL","n":4000000,"returned":true,"ns":384000000}
{"event":"start","name":"BenchmarkF","n":100}
{"event":"end","name":"BenchmarkF","n":100,"returned":true,"ns":1000}
`
	l := parseLog([]byte(log))
	if len(l.Calls) != 3 || !l.Calls[0].Loop || !l.Calls[1].Loop || l.Calls[2].Loop {
		t.Fatalf("calls %+v: want the first two marked b.Loop, the third not", l.Calls)
	}
	if f, ok := perCallCost(l.Calls[:2], 1_000_000); ok {
		t.Errorf("b.Loop calls read as a fixed cost per call: %s", f.Message)
	}
	// Without the mark the same two calls are accused.
	unmarked := slices.Clone(l.Calls[:2])
	unmarked[0].Loop, unmarked[1].Loop = false, false
	if f, ok := perCallCost(unmarked, 1_000_000); !ok || f.Code != result.CodeSetupInTimer {
		t.Errorf("the control: %v %v", f, ok)
	}
}

// A call of b.RunParallel is its own time, whatever the run delay of the
// calling thread, whose work ran on other threads.
func TestOwnNsOfAParallelCall(t *testing.T) {
	c := Record{Ns: 30_000_000, Counters: map[string]int64{result.CounterRunDelay: 25_000_000}}
	if got := ownNs(c); got != 5_000_000 {
		t.Errorf("a serial call: %d, want 5000000", got)
	}
	c.Parallel = true
	if got := ownNs(c); got != 30_000_000 {
		t.Errorf("a parallel call: %d, want 30000000", got)
	}
}

// The samples' N: the ramp's last call scaled to 5% past the sample time,
// never above it, less the time the machine took.
func TestSampleN(t *testing.T) {
	const d = 100 * time.Millisecond
	for _, c := range []struct {
		name string
		last Record
		want int64
	}{
		// strings' SplitSingleByteSeparator: the ramp ended at 128 ms.
		{"overshot", Record{N: 121, Ns: 128_000_000}, 100},
		{"just past", Record{N: 100, Ns: 103_000_000}, 100},
		{"exactly", Record{N: 100, Ns: 100_000_000}, 100},
		{"twice", Record{N: 1_000_000, Ns: 200_000_000}, 525_000},
		{"20 ms of it another task's", Record{N: 1000, Ns: 125_000_000, Counters: map[string]int64{result.CounterRunDelay: 20_000_000}}, 1000},
		{"60 ms of 170 another task's", Record{N: 1000, Ns: 170_000_000, Counters: map[string]int64{result.CounterRunDelay: 60_000_000}}, 955},
		{"stopped short (N at testing's cap)", Record{N: 1_000_000_000, Ns: 50_000_000}, 1_000_000_000},
		{"one call lasts longer", Record{N: 1, Ns: 900_000_000}, 1},
		{"no time", Record{N: 7}, 7},
	} {
		if got := sampleN(c.last, d); got != c.want {
			t.Errorf("%s: sampleN(N=%d, %d ns) = %d, want %d", c.name, c.last.N, c.last.Ns, got, c.want)
		}
	}
}
