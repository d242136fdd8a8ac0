package pipeline

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/fake"
)

// processTarget is a fake target that says it measures whole programs.
type processTarget struct{ fakeTarget }

func (p processTarget) Info() result.Info {
	i := p.fakeTarget.Info()
	i.Kind = result.KindProcess
	return i
}

// A run whose every check reads slower than the best the machine showed
// measures each loop again, as many times as asked, and keeps every
// attempt, while a CPU runs near that best; a program is never measured
// again, nor anything with 0, nor anything when every CPU is slowed.
func TestRemeasureMeasuresWhatASlowedCoreTouched(t *testing.T) {
	if !harness.CanPin {
		t.Skip("pinning needs Linux")
	}
	onEveryCPU(t)
	defer onEveryCPU(t)
	// A speed no check reaches: every sample is slowed against it.
	r := &result.Result{CPU: 0, Before: &machine.Snapshot{Speed: []machine.CPUSpeed{{CPU: 0, RefNs: machine.Known(1e-6)}}}}
	plan := quickPlan()
	plan.Remeasure = 2
	hopts := harnessOptions(plan, 0)
	ts := []Target{fakeTarget{fake.New("loop", 100*time.Nanosecond)}, processTarget{fakeTarget{fake.New("program", 100*time.Nanosecond)}}}
	defer func(f func(*result.Result, int, bool) (int, float64, func())) { fastest = f }(fastest)
	fastest = func(*result.Result, int, bool) (int, float64, func()) { return 0, 1e-6, func() {} } // cpu0 is free now
	tries := measureEach(context.Background(), r, plan, ts, hopts)
	if got := len(tries[0].earlier); got != 2 {
		t.Fatalf("loop: %d earlier attempts, want 2", got)
	}
	for i, a := range tries[0].earlier {
		if a.CPU != 0 || len(a.Samples) != 5 || len(a.Slowed) != 5 {
			t.Errorf("attempt %d: cpu%d, %d samples, %d slowed; want cpu0, 5 and 5", i, a.CPU, len(a.Samples), len(a.Slowed))
		}
	}
	if len(tries[1].earlier) != 0 {
		t.Errorf("program measured again: %d attempts", len(tries[1].earlier))
	}
	fastest = func(*result.Result, int, bool) (int, float64, func()) { return 0, 1, func() {} } // every CPU slowed now
	if tries := measureEach(context.Background(), r, plan, ts[:1], hopts); len(tries[0].earlier) != 0 {
		t.Errorf("no CPU near its best: %d earlier attempts, want none", len(tries[0].earlier))
	}
	// --cpu named the CPU: it is the only one asked for.
	plan.CPUSet = true
	var named []bool
	fastest = func(_ *result.Result, _ int, only bool) (int, float64, func()) {
		named = append(named, only)
		return 0, 1e-6, func() {}
	}
	measureEach(context.Background(), r, plan, ts[:1], hopts)
	if len(named) != 2 || !named[0] || !named[1] {
		t.Errorf("--cpu: the fastest CPU asked for %v, want the named one only, twice", named)
	}
	plan.CPUSet = false
	plan.Remeasure = 0
	if tries := measureEach(context.Background(), r, plan, ts[:1], hopts); len(tries[0].earlier) != 0 {
		t.Errorf("--remeasure 0: %d earlier attempts", len(tries[0].earlier))
	}
}

// When the attempt kept was taken on another CPU, the run moves there:
// what comes after is measured there once, not first on the slowed core
// again; the CPU moved to is given back at the end. With --cpu nothing
// moves.
func TestRemeasureMovesTheRun(t *testing.T) {
	// cpu1 runs every check at twice the best, cpu0 at the best.
	defer func(f func(context.Context, Target, int, int, harness.Options) harness.Outcome) { runTarget = f }(runTarget)
	var on []int
	runTarget = func(_ context.Context, t Target, i, n int, opts harness.Options) harness.Outcome {
		on = append(on, opts.CPU)
		o := harness.Outcome{Name: t.Name()}
		for range 6 {
			o.Samples = append(o.Samples, result.Sample{Iters: 1, Ns: 10, CPU: opts.CPU, RefNs: float64(1 + opts.CPU)})
		}
		return o
	}
	released := 0
	defer func(f func(*result.Result, int, bool) (int, float64, func())) { fastest = f }(fastest)
	fastest = func(r *result.Result, current int, named bool) (int, float64, func()) {
		if named {
			return r.CPU, 1, func() {} // the probe reads it free again
		}
		return 0, 1, func() { released++ }
	}
	r := &result.Result{CPU: 1, Before: &machine.Snapshot{Speed: []machine.CPUSpeed{{CPU: 0, RefNs: machine.Known(1.0)}}}}
	plan := quickPlan()
	plan.Remeasure = 2
	hopts := harnessOptions(plan, 1)
	hopts.CheckSamples = true
	ts := []Target{fakeTarget{fake.New("a", 0)}, fakeTarget{fake.New("b", 0)}, fakeTarget{fake.New("c", 0)}}
	tries := measureEach(context.Background(), r, plan, ts, hopts)
	if want := []int{1, 0, 0, 0}; !slices.Equal(on, want) {
		t.Errorf("measured on %v, want %v: a on cpu1 then cpu0, b and c on cpu0 only", on, want)
	}
	if len(tries) != 3 || tries[0].cpu != 0 || len(tries[0].earlier) != 1 || tries[0].earlier[0].CPU != 1 {
		t.Fatalf("a: %+v; want kept on cpu0 with cpu1's attempt earlier", tries)
	}
	for _, tr := range tries[1:] {
		if tr.cpu != 0 || len(tr.earlier) != 0 {
			t.Errorf("%s: cpu%d, %d earlier attempts; want cpu0, none", tr.Name, tr.cpu, len(tr.earlier))
		}
	}
	if released != 1 {
		t.Errorf("cpu0's lock released %d times, want once, at the end", released)
	}
	// --cpu 1: every attempt stays on cpu1, which stays slowed: measured
	// three times, then kept as it is.
	on = nil
	plan.CPUSet = true
	tries = measureEach(context.Background(), r, plan, ts[:2], hopts)
	if want := []int{1, 1, 1, 1, 1, 1}; !slices.Equal(on, want) {
		t.Errorf("--cpu 1: measured on %v, want %v", on, want)
	}
	if tries[1].cpu != 1 {
		t.Errorf("--cpu 1: b kept on cpu%d", tries[1].cpu)
	}
}

// The attempt judged is the one the core slowed least; a tie, or an
// attempt that failed, keeps the earlier one.
func TestKeepLeastSlowed(t *testing.T) {
	attempt := func(cpu int, refs ...float64) tried {
		var o harness.Outcome
		for _, ns := range refs {
			o.Samples = append(o.Samples, result.Sample{Iters: 1, Ns: 10, CPU: cpu, RefNs: ns})
		}
		return tried{Outcome: o, cpu: cpu}
	}
	slow, fast := attempt(1, 2, 2, 1, 1, 1, 1), attempt(0, 1, 1, 1, 1, 1, 1)
	got := keepLeastSlowed(slow, fast, 1)
	if got.cpu != 0 || len(got.earlier) != 1 || got.earlier[0].CPU != 1 || len(got.earlier[0].Slowed) != 3 {
		t.Errorf("slow then fast: kept cpu%d, earlier %+v; want cpu0's, cpu1's earlier with 3 slowed", got.cpu, got.earlier)
	}
	if got := keepLeastSlowed(fast, slow, 1); got.cpu != 0 || len(got.earlier) != 1 || got.earlier[0].CPU != 1 {
		t.Errorf("fast then slow: kept cpu%d; want the first, cpu0's", got.cpu)
	}
	if got := keepLeastSlowed(attempt(1, 1, 1), attempt(0, 1, 1), 1); got.cpu != 1 {
		t.Errorf("a tie: kept cpu%d; want the first, cpu1's", got.cpu)
	}
	failed := fast
	failed.Err = context.Canceled
	if got := keepLeastSlowed(slow, failed, 1); got.cpu != 1 {
		t.Errorf("the new attempt failed: kept cpu%d; want the earlier, cpu1's", got.cpu)
	}
}
