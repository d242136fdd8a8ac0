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
	tries := measureEach(context.Background(), r, plan, ts, hopts, 0)
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
	if tries := measureEach(context.Background(), r, plan, ts[:1], hopts, 0); len(tries[0].earlier) != 0 {
		t.Errorf("no CPU near its best: %d earlier attempts, want none", len(tries[0].earlier))
	}
	// --cpu named the CPU: it is the only one asked for.
	plan.CPUSet = true
	var named []bool
	fastest = func(_ *result.Result, _ int, only bool) (int, float64, func()) {
		named = append(named, only)
		return 0, 1e-6, func() {}
	}
	measureEach(context.Background(), r, plan, ts[:1], hopts, 0)
	if len(named) != 2 || !named[0] || !named[1] {
		t.Errorf("--cpu: the fastest CPU asked for %v, want the named one only, twice", named)
	}
	// One process of --processes: the run's CPU only, too.
	plan.CPUSet, plan.StayOnCPU, named = false, true, nil
	measureEach(context.Background(), r, plan, ts[:1], hopts, 0)
	if len(named) != 2 || !named[0] || !named[1] {
		t.Errorf("a process of --processes: the fastest CPU asked for %v, want the run's only, twice", named)
	}
	plan.StayOnCPU = false
	plan.Remeasure = 0
	if tries := measureEach(context.Background(), r, plan, ts[:1], hopts, 0); len(tries[0].earlier) != 0 {
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
	tries := measureEach(context.Background(), r, plan, ts, hopts, 0)
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
	tries = measureEach(context.Background(), r, plan, ts[:2], hopts, 0)
	if want := []int{1, 1, 1, 1, 1, 1}; !slices.Equal(on, want) {
		t.Errorf("--cpu 1: measured on %v, want %v", on, want)
	}
	if tries[1].cpu != 1 {
		t.Errorf("--cpu 1: b kept on cpu%d", tries[1].cpu)
	}
}

// The attempt judged is the one the machine slowed least: one that would
// not be measured again, then the smaller share of slowed samples, then
// the faster checks; a tie, or an attempt that failed, keeps the earlier
// one.
func TestKeepLeastSlowed(t *testing.T) {
	attempt := func(cpu int, refs ...float64) tried {
		var o harness.Outcome
		for _, ns := range refs {
			o.Samples = append(o.Samples, result.Sample{Iters: 1, Ns: 10, CPU: cpu, RefNs: ns})
		}
		return tried{Outcome: o, cpu: cpu}
	}
	slow, fast := attempt(1, 2, 2, 1, 1, 1, 1), attempt(0, 1, 1, 1, 1, 1, 1)
	got := keepLeastSlowed(slow, fast, soFar{refNs: 1})
	if got.cpu != 0 || len(got.earlier) != 1 || got.earlier[0].CPU != 1 || len(got.earlier[0].Slowed) != 3 {
		t.Errorf("slow then fast: kept cpu%d, earlier %+v; want cpu0's, cpu1's earlier with 3 slowed", got.cpu, got.earlier)
	}
	if got := keepLeastSlowed(fast, slow, soFar{refNs: 1}); got.cpu != 0 || len(got.earlier) != 1 || got.earlier[0].CPU != 1 {
		t.Errorf("fast then slow: kept cpu%d; want the first, cpu0's", got.cpu)
	}
	if got := keepLeastSlowed(attempt(1, 1, 1), attempt(0, 1, 1), soFar{refNs: 1}); got.cpu != 1 {
		t.Errorf("a tie: kept cpu%d; want the first, cpu1's", got.cpu)
	}
	// No sample slowed, the clock 7% low at both ends and through the
	// checks: slow-clock.
	clocked := attempt(1, 1.07, 1.07, 1.07, 1.07, 1.07, 1.07)
	clocked.Before.ClockHz, clocked.After.ClockHz = 3.4e9, 3.4e9
	run := soFar{refNs: 1, clockHz: 3.66e9}
	if got := keepLeastSlowed(clocked, fast, run); got.cpu != 0 || len(got.earlier) != 1 || got.earlier[0].Clock == nil || got.earlier[0].Clock.BeforeHz != 3.4e9 {
		t.Errorf("slow clock then fast: kept cpu%d, earlier %+v; want cpu0's, cpu1's earlier with its clock", got.cpu, got.earlier)
	}
	if got := keepLeastSlowed(fast, clocked, run); got.cpu != 0 {
		t.Errorf("fast then slow clock: kept cpu%d; want cpu0's", got.cpu)
	}
	fewSlowed := attempt(0, 2, 1, 1, 1, 1, 1, 1, 1, 1) // 2 of 9 slowed: judged on the others
	if got := keepLeastSlowed(clocked, fewSlowed, run); got.cpu != 0 {
		t.Errorf("slow clock then a few slowed samples: kept cpu%d; want cpu0's, which is not measured again", got.cpu)
	}
	if got := keepLeastSlowed(attempt(1, 1.02, 1.02), attempt(0, 1.01, 1.01), soFar{refNs: 1}); got.cpu != 0 {
		t.Errorf("both clean, the second's checks faster: kept cpu%d; want cpu0's", got.cpu)
	}
	// The clock read low at the ends while the checks ran near their
	// best: not slow-clock, so not measured again; the checks decide.
	lowEnds := attempt(1, 1.01, 1.01)
	lowEnds.Before.ClockHz, lowEnds.After.ClockHz = 3.4e9, 3.4e9
	if got := keepLeastSlowed(lowEnds, attempt(0, 1.03, 1.03), run); got.cpu != 1 {
		t.Errorf("clock low at the ends only, then slower checks: kept cpu%d; want cpu1's", got.cpu)
	}
	failed := fast
	failed.Err = context.Canceled
	if got := keepLeastSlowed(slow, failed, soFar{refNs: 1}); got.cpu != 1 {
		t.Errorf("the new attempt failed: kept cpu%d; want the earlier, cpu1's", got.cpu)
	}
}

// An experiment that would be judged slow-clock (its clock read low at
// its ends, against the clock read before the run, and its checks all ran
// slower than the best by less than marks a sample, but by that much) is
// measured again too; only while a CPU runs the reference loop within
// that much of its best now, where an experiment with too many slowed
// samples is measured again within SlowCoreRatio.
func TestRemeasureWhatASlowClockTouched(t *testing.T) {
	defer func(f func(context.Context, Target, int, int, harness.Options) harness.Outcome) { runTarget = f }(runTarget)
	checks := map[int]float64{1: 1.07, 0: 1.0} // cpu1 runs every check 7% slow
	clocks := map[int]float64{1: 3.4e9, 0: 3.66e9}
	var on []int
	runTarget = func(_ context.Context, t Target, i, n int, opts harness.Options) harness.Outcome {
		on = append(on, opts.CPU)
		o := harness.Outcome{Name: t.Name()}
		o.Before.ClockHz, o.After.ClockHz = clocks[opts.CPU], clocks[opts.CPU]
		for range 6 {
			o.Samples = append(o.Samples, result.Sample{Iters: 1, Ns: 10, CPU: opts.CPU, RefNs: checks[opts.CPU]})
		}
		return o
	}
	defer func(f func(*result.Result, int, bool) (int, float64, func())) { fastest = f }(fastest)
	nowNs := 1.0 // what the probe reads on cpu0 when asked
	fastest = func(*result.Result, int, bool) (int, float64, func()) { return 0, nowNs, func() {} }
	r := &result.Result{CPU: 1, Before: &machine.Snapshot{Speed: []machine.CPUSpeed{{CPU: 0, RefNs: machine.Known(1.0)}}}}
	plan := quickPlan()
	plan.Remeasure = 2
	hopts := harnessOptions(plan, 1)
	hopts.CheckSamples = true
	ts := []Target{fakeTarget{fake.New("a", 0)}}

	tries := measureEach(context.Background(), r, plan, ts, hopts, 3.66e9)
	if want := []int{1, 0}; !slices.Equal(on, want) {
		t.Errorf("measured on %v, want %v: once on the slow clock, again on cpu0, and no more", on, want)
	}
	if tries[0].cpu != 0 || len(tries[0].earlier) != 1 || tries[0].earlier[0].CPU != 1 {
		t.Errorf("kept cpu%d with %d earlier; want cpu0's, cpu1's earlier", tries[0].cpu, len(tries[0].earlier))
	}

	// cpu0 reads 7% slow now too: another attempt would be as slow.
	on, nowNs = nil, 1.07
	if tries := measureEach(context.Background(), r, plan, ts, hopts, 3.66e9); len(tries[0].earlier) != 0 || !slices.Equal(on, []int{1}) {
		t.Errorf("no CPU within 5%% of its best: measured on %v, %d earlier; want once on cpu1", on, len(tries[0].earlier))
	}
	// Samples on a slowed core are measured again with a CPU that near.
	checks[1] = 2
	on = nil
	if tries := measureEach(context.Background(), r, plan, ts, hopts, 3.66e9); len(tries[0].earlier) == 0 || on[1] != 0 {
		t.Errorf("slowed samples, cpu0 within 10%%: measured on %v; want again on cpu0", on)
	}
	// Checks within 5% of the best, or a clock as high as the run's
	// start: nothing to measure again.
	checks[1] = 1.04
	on = nil
	if tries := measureEach(context.Background(), r, plan, ts, hopts, 3.66e9); len(tries[0].earlier) != 0 {
		t.Errorf("checks 4%% slow: measured on %v, want once", on)
	}
	checks[1] = 1.07
	on = nil
	if tries := measureEach(context.Background(), r, plan, ts, hopts, 3.4e9); len(tries[0].earlier) != 0 {
		t.Errorf("the clock as high as before the run: measured on %v, want once", on)
	}
}
