package analyze

import (
	"fmt"
	"math"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/finding"
)

func TestAnalyzeComparesInterleavedRuns(t *testing.T) {
	base := perOpF(100, 101, 99, 100, 102, 100, 101, 99)
	fast := perOpF(50, 51, 49, 50, 51, 50, 50, 49)
	same := perOpF(100, 100, 100, 101, 101, 99, 101, 100)
	r := &result.Result{
		Settings: result.Settings{Compare: []string{"a", "b", "c"}, Threshold: 0.02},
		Experiments: []result.Experiment{
			{Name: "a", Samples: base}, {Name: "b", Samples: fast}, {Name: "c", Samples: same},
		},
	}
	Analyze(r)
	if len(r.Comparison) != 2 {
		t.Fatalf("%d pairs, want 2", len(r.Comparison))
	}
	b, c := r.Comparison[0], r.Comparison[1]
	if b.Candidate != "b" || b.Verdict != "faster" || b.Comparisons != 2 {
		t.Errorf("b: %+v, want faster, Bonferroni over 2", b)
	}
	if c.Candidate != "c" || c.Verdict != "no difference detected" {
		t.Errorf("c: %+v, want no difference", c)
	}
}

func TestAnalyzeWillNotCompareAnImpossibleNumber(t *testing.T) {
	r := &result.Result{
		Settings: result.Settings{Compare: []string{"a", "b"}, Threshold: 0.02},
		Experiments: []result.Experiment{
			{Name: "a", Samples: perOpF(100, 101, 99, 100, 102, 100)},
			{Name: "b", Samples: perOpF(1, 1, 1, 1, 1, 1), Error: "panicked: boom"},
		},
	}
	Analyze(r)
	if len(r.Comparison) != 1 || r.Comparison[0].Verdict != "not comparable" {
		t.Errorf("comparison %+v, want not comparable", r.Comparison)
	}
}

func TestAnalyzeWithoutCompareHasNoComparison(t *testing.T) {
	r := &result.Result{Experiments: []result.Experiment{{Name: "a", Samples: perOpF(1, 2, 3)}}}
	Analyze(r)
	if r.Comparison != nil {
		t.Errorf("comparison %+v for a plain run", r.Comparison)
	}
}

func TestAnalyzeJudgesEachExperimentsClockAgainstTheRun(t *testing.T) {
	r := &result.Result{
		EffectiveClock: result.EffectiveClock{BeforeHz: 3.6e9, AfterHz: 3.6e9, Source: "dependent-add chain"},
		Experiments: []result.Experiment{
			{Name: "fast", Samples: perOpF(100, 101, 99, 100, 102), Clock: &result.EffectiveClock{BeforeHz: 3.69e9, AfterHz: 3.68e9}},
			{Name: "slow", Samples: perOpF(100, 101, 99, 100, 102), Clock: &result.EffectiveClock{BeforeHz: 1.9e9, AfterHz: 3.6e9}},
		},
	}
	Analyze(r)
	if finding.Has(r.Experiments[0].Findings, result.CodeSlowClock) {
		t.Errorf("fast: %v", r.Experiments[0].Findings)
	}
	if !finding.Has(r.Experiments[1].Findings, result.CodeSlowClock) || r.Experiments[1].Verdict != result.VerdictDoubtful {
		t.Errorf("slow: verdict %q, findings %v; want slow-clock, doubtful", r.Experiments[1].Verdict, r.Experiments[1].Findings)
	}
}

// The clock a run is held to is the one it sustained, not a burst: on a
// VM the host held 3.46 GHz through a run and raised the clock for two
// experiments' ends, and the others are not slow for that; when the
// higher clock held for half the run, those at 3.46 GHz are.
func TestAnalyzeHoldsTheRunToTheClockItSustained(t *testing.T) {
	run := func(fast int) *result.Result {
		r := &result.Result{EffectiveClock: result.EffectiveClock{BeforeHz: 3.46e9, AfterHz: 3.46e9, Source: "dependent-add chain"}}
		for i := range 17 {
			hz := 3.46e9
			if i < fast {
				hz = 3.72e9
			}
			r.Experiments = append(r.Experiments, result.Experiment{Name: fmt.Sprint("e", i), Samples: perOpF(100, 101, 99, 100, 102),
				Clock: &result.EffectiveClock{BeforeHz: hz, AfterHz: hz}})
		}
		Analyze(r)
		return r
	}
	for _, e := range run(2).Experiments {
		if finding.Has(e.Findings, result.CodeSlowClock) {
			t.Errorf("two experiments at a higher clock, %s: %v", e.Name, e.Findings)
		}
	}
	r := run(9)
	for i, e := range r.Experiments {
		if got, want := finding.Has(e.Findings, result.CodeSlowClock), i >= 9; got != want {
			t.Errorf("half the run at the higher clock, %s at %.2f GHz: slow-clock %v, want %v", e.Name, e.Clock.BeforeHz/1e9, got, want)
		}
	}
	// The clocks read around attempts that were not kept are the run's
	// too: three experiments at 3.46 GHz, each measured first at 3.72.
	r = run(0)
	r.Experiments = r.Experiments[:3]
	for i := range r.Experiments {
		r.Experiments[i].Attempts = []result.Attempt{{Clock: &result.EffectiveClock{BeforeHz: 3.72e9, AfterHz: 3.72e9}}}
	}
	Analyze(r)
	for _, e := range r.Experiments {
		if !finding.Has(e.Findings, result.CodeSlowClock) {
			t.Errorf("attempts at 3.72 GHz for 6 of 14 readings, %s at 3.46: %v, want slow-clock", e.Name, e.Findings)
		}
	}
	if got := RunClock([]float64{3.46e9, 0, 3.72e9, 3.46e9, 3.46e9}); got != 3.46e9 {
		t.Errorf("RunClock of one burst among four readings and an unknown: %.3g, want 3.46e9", got)
	}
	if got := RunClock([]float64{0}); got != 0 {
		t.Errorf("RunClock of nothing measured: %g, want 0", got)
	}
}

func TestAnalyzeFloorsTheReferenceAtOneCycleOnAMD64(t *testing.T) {
	run := func(goarch string, bestNs float64) *result.Result {
		clk := &result.EffectiveClock{BeforeHz: 3.69e9, AfterHz: 3.69e9}
		return &result.Result{
			GOARCH:         goarch,
			EffectiveClock: result.EffectiveClock{BeforeHz: 3.69e9, AfterHz: 3.69e9, Source: "dependent-add chain"},
			Experiments: []result.Experiment{
				{Name: "best", Samples: perOpF(100, 101, 99, 100, 102), Reference: &result.Reference{BeforeNs: bestNs, AfterNs: bestNs}, Clock: clk},
				// 0.3 ns at 3.69 GHz is 1.107 cycles: 10.7% above one cycle.
				{Name: "a", Samples: perOpF(100, 101, 99, 100, 102), Reference: &result.Reference{BeforeNs: 0.3, AfterNs: 0.3}, Clock: clk},
			},
		}
	}
	// The best probe took 1.03 cycles: near one, so one is the best and
	// "a" is 10.7% above it.
	r := run("amd64", 0.279)
	Analyze(r)
	if !finding.Has(r.Experiments[1].Findings, result.CodeSlowCore) {
		t.Errorf("amd64, best near one cycle: findings %v, want slow-core against one cycle", r.Experiments[1].Findings)
	}
	// Not amd64: judged against the best probe only (1.03 cycles; "a" is 7.5% above).
	r = run("riscv64", 0.279)
	Analyze(r)
	if finding.Has(r.Experiments[1].Findings, result.CodeSlowCore) {
		t.Errorf("riscv64: slow-core without a known floor: %v", r.Experiments[1].Findings)
	}
	// An amd64 core whose best was 2 cycles (one taken branch every other
	// cycle) is not held to one.
	r = run("amd64", 0.542)
	r.Experiments[1].Reference = &result.Reference{BeforeNs: 0.55, AfterNs: 0.55}
	Analyze(r)
	for _, e := range r.Experiments {
		if finding.Has(e.Findings, result.CodeSlowCore) {
			t.Errorf("amd64, best 2 cycles: %s called slow: %v", e.Name, e.Findings)
		}
	}
}

func TestAnalyzeTakesTheRunClockFromTheChainOnly(t *testing.T) {
	r := &result.Result{
		// cpufreq said more than the core ran at.
		EffectiveClock: result.EffectiveClock{BeforeHz: 3.95e9, AfterHz: 3.95e9, Source: "scaling_cur_freq under load"},
		Experiments: []result.Experiment{
			{Name: "a", Samples: perOpF(100, 101, 99, 100, 102), Clock: &result.EffectiveClock{BeforeHz: 3.69e9, AfterHz: 3.69e9}},
		},
	}
	Analyze(r)
	if finding.Has(r.Experiments[0].Findings, result.CodeSlowClock) {
		t.Errorf("slow-clock against cpufreq's figure: %v", r.Experiments[0].Findings)
	}
}

// onCPU makes samples of 1000 iterations whose wall ns/op are wall and
// whose on-CPU ns/op (task-clock) are on.
// A hog on the measured CPU for part of an interleaved run: the base's
// samples in rounds 8-15 lost half their time off the CPU. On wall time
// the candidate looks 2x faster there; on on-CPU time they are the same
// code, and the comparison says so and says on what it was judged.
func TestInterleavedRunJudgedOnOnCPUTime(t *testing.T) {
	n := 24
	wallA, onA, wallB, onB := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range n {
		x := 100 + float64(i%3)
		onA[i], onB[i] = x, x+0.2*float64(i%2)
		wallA[i], wallB[i] = onA[i], onB[i]
		if i >= 4 {
			wallA[i] = 2 * onA[i] // preempted: off the CPU for half the sample
		}
	}
	r := &result.Result{
		Settings:    result.Settings{Compare: []string{"a", "b"}, Threshold: 0.02},
		Experiments: []result.Experiment{{Name: "a", Samples: resulttest.OnCPU(wallA, onA)}, {Name: "b", Samples: resulttest.OnCPU(wallB, onB)}},
	}
	Analyze(r)
	p := r.Comparison[0]
	if p.Verdict != result.NoDifference || p.Basis != result.BasisOnCPU {
		t.Errorf("pair %q on %q: %s; want no difference, judged on on-CPU time", p.Verdict, p.Basis, p.Reason)
	}
	if v := r.Experiments[0].Verdict; v != result.VerdictNotBelievable {
		t.Errorf("a's own verdict %q: its median sample lost half its time, want not believable", v)
	}
}

// A shared core that made the reference loop 50% slower slows both
// samples of an interleaved round alike: it leaves a 1.2x difference
// claimed, not inconclusive. Between separate runs it can explain a 1.2x
// difference but not a 3x one: the first is inconclusive, the second is
// claimed, saying despite what.
func TestBeyondWhatTheMachineCouldExplain(t *testing.T) {
	// The reference loop took 1.02 cycles before and 1.5 after: the core
	// was shared by the end, 50% beyond its best of one cycle.
	clock := &result.EffectiveClock{BeforeHz: 3e9, AfterHz: 3e9}
	ref := &result.Reference{BeforeNs: 0.34, AfterNs: 0.5}
	base := perOpF(100, 101, 99, 100, 102, 100, 101, 99)
	exp := func(name string, samples []result.Sample) result.Experiment {
		return result.Experiment{Name: name, Samples: samples, Clock: clock, Reference: ref}
	}
	for _, tt := range []struct {
		name               string
		cand               []float64
		interleaved, apart string
	}{
		{"1.2x", []float64{120, 121, 119, 120, 122, 120, 121, 119}, result.Slower, result.Inconclusive},
		{"3x", []float64{300, 303, 297, 300, 306, 300, 303, 297}, result.Slower, result.Slower},
	} {
		r := &result.Result{
			GOARCH:      "amd64",
			Settings:    result.Settings{Compare: []string{"a", "b"}, Threshold: 0.02},
			Experiments: []result.Experiment{exp("a", base), exp("b", perOpF(tt.cand...))},
		}
		Analyze(r)
		if !finding.Has(r.Experiments[1].Findings, result.CodeSlowCore) {
			t.Fatalf("%s: no slow-core to judge: %v", tt.name, r.Experiments[1].Findings)
		}
		if p := r.Comparison[0]; p.Verdict != tt.interleaved || p.Busy != "" {
			t.Errorf("%s interleaved: %q (%s) despite %q; want %q, the core shared by both", tt.name, p.Verdict, p.Reason, p.Busy, tt.interleaved)
		}
		// The same samples as two separate runs: old a, new b named a.
		old := &result.Result{GOARCH: "amd64", Experiments: []result.Experiment{exp("x", base)}}
		cur := &result.Result{GOARCH: "amd64", Experiments: []result.Experiment{exp("x", perOpF(tt.cand...))}}
		Analyze(old)
		Analyze(cur)
		f, err := compare.Results([]*result.Result{old}, []*result.Result{cur}, 0.02)
		if err != nil {
			t.Fatal(err)
		}
		p := f.Rows[0].Pair
		if p.Verdict != tt.apart {
			t.Errorf("%s apart: %q: %s", tt.name, p.Verdict, p.Reason)
		}
		if p.Verdict == result.Slower && (p.Busy != "the machine was busy (old and new: slow-core, the core was shared with a busy sibling hardware thread or the host)" || math.Abs(p.BusyBound-0.5) > 1e-9) {
			t.Errorf("%s apart: claimed despite %q up to %v, want despite a shared core up to 1.5x", tt.name, p.Busy, p.BusyBound)
		}
	}
}

// A +1.5% change with a tight interval is claimed on a quiet run at the
// default floor, but not when the run was judged on on-CPU time (the
// machine took the CPU away): there the floor is the fixed 2%, since the
// other work's effect on the thread while it ran is not in the interval.
func TestOnCPUBasisKeepsTheFixedFloor(t *testing.T) {
	n := 101
	for _, busy := range []bool{false, true} {
		wallA, onA, wallB, onB := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			x := 100 + 0.1*float64(i%5)
			onA[i], onB[i] = x, 1.015*x+0.05*float64(i%3)
			wallA[i], wallB[i] = onA[i], onB[i]
			if busy && i%4 == 0 {
				wallA[i], wallB[i] = 1.5*onA[i], 1.5*onB[i] // off the CPU a third of the sample
			}
		}
		r := &result.Result{
			Settings:    result.Settings{Compare: []string{"a", "b"}, Threshold: 0.0025},
			Experiments: []result.Experiment{{Name: "a", Samples: resulttest.OnCPU(wallA, onA)}, {Name: "b", Samples: resulttest.OnCPU(wallB, onB)}},
		}
		Analyze(r)
		p := r.Comparison[0]
		switch {
		case !busy && (p.Verdict != result.Slower || p.Basis != result.BasisWall):
			t.Errorf("quiet: %q on %q (%s), want slower on wall time", p.Verdict, p.Basis, p.Reason)
		case busy && (p.Basis != result.BasisOnCPU || p.Verdict == result.Slower || p.Threshold < 0.02):
			t.Errorf("busy: %q on %q at threshold %v (%s), want on-CPU time, not claimed, threshold 2%%", p.Verdict, p.Basis, p.Threshold, p.Reason)
		}
	}
}
