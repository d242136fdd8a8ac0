package compare

import (
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
)

// calls is an experiment of n single calls spread evenly over 1-2 µs,
// the slowest share of them stretched by tail (1.2: 20% slower).
func calls(name string, n int, share, tail float64) *result.Experiment {
	h := latency.New()
	for i := range n {
		v := 1000 + float64(i%1000)
		if float64(i%1000) >= 1000*(1-share) {
			v *= tail
		}
		h.Record(int64(v))
	}
	e := &result.Experiment{Name: name, Latency: &result.Latency{}}
	h.Store(e.Latency)
	return e
}

// A p99 20% slower with the median unchanged is claimed; the same calls
// are not; a busy machine leaves a claim inconclusive; too few calls
// cannot give a p99.
func TestTail(t *testing.T) {
	base := calls("a", 20000, 0, 1)
	for _, c := range []struct {
		name    string
		cand    *result.Experiment
		run     []string
		verdict string
		reason  string
	}{
		{"p99 20% slower", calls("b", 20000, 0.03, 1.2), nil, result.Slower, ""},
		{"the same calls", calls("b", 20000, 0, 1), nil, result.NoDifference, ""},
		{"a change of 1%", calls("b", 20000, 0.03, 1.01), nil, result.NoDifference, ""},
		{"slower on a busy machine", calls("b", 20000, 0.03, 1.2), []string{"load"}, result.Inconclusive, "the machine interfered (load)"},
		{"too few calls", calls("b", 500, 0.03, 1.2), nil, result.NotComparable, "it needs 1000 a side"},
	} {
		got := tail(base, c.cand, c.run, 0.99, 1, 0.0025)
		if got.Verdict != c.verdict || !strings.Contains(got.Reason, c.reason) || got.Percentile != "p99" {
			t.Errorf("%s: %s %q (ratio %.3f, CI %.3f-%.3f), want %s %q", c.name, got.Verdict, got.Reason, got.Ratio, got.Low, got.High, c.verdict, c.reason)
		}
	}
	if got := tail(calls("b", 20000, 0.03, 1.2), base, nil, 0.99, 1, 0.0025); got.Verdict != result.Faster {
		t.Errorf("p99 20%% faster: %s (ratio %.3f, CI %.3f-%.3f)", got.Verdict, got.Ratio, got.Low, got.High)
	}
	disturbed := calls("b", 20000, 0.03, 1.2)
	disturbed.Findings = []finding.Finding{{Code: result.CodeDisturbed, Severity: finding.Warn}}
	if got := tail(base, disturbed, nil, 0.99, 1, 0.0025); got.Verdict != result.Inconclusive || !strings.Contains(got.Reason, "disturbed") {
		t.Errorf("a disturbed side: %s %q, want inconclusive naming disturbed", got.Verdict, got.Reason)
	}
	if got := tail(base, &result.Experiment{Name: "b"}, nil, 0.99, 1, 0); got.Verdict != result.NotComparable {
		t.Errorf("calls not timed: %s", got.Verdict)
	}
}

// A round in which a slowed core touched either side's sample is left
// out of the interleaved comparison, while enough rounds remain.
func TestWithoutSlowedRounds(t *testing.T) {
	mk := func(n int, slowed ...int) *result.Experiment {
		return &result.Experiment{Samples: make([]result.Sample, n), Slowed: slowed}
	}
	vals := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i)
		}
		return xs
	}
	b, c := withoutSlowedRounds(mk(10, 2), mk(10, 2, 7), vals(10), vals(10))
	if len(b) != 8 || len(c) != 8 || b[2] != 3 || c[6] != 8 {
		t.Errorf("rounds 2 and 7 slowed: kept %v and %v", b, c)
	}
	if b, _ := withoutSlowedRounds(mk(10, 0, 1, 2, 3, 4, 5), mk(10), vals(10), vals(10)); len(b) != 10 {
		t.Errorf("six of ten rounds slowed: kept %d, want all 10", len(b))
	}
	if b, _ := withoutSlowedRounds(mk(7, 0, 1), mk(7), vals(7), vals(7)); len(b) != 7 {
		t.Errorf("five rounds would be left, fewer than a comparison needs: kept %d, want all 7", len(b))
	}
}

// Runs keep the samples a run's statistics are of, except where the
// processes are the runs: leaving a slowed process out would pair run k
// of one side with run k+1 of the other.
func TestRunsLeaveSlowedOutOfOneProcessOnly(t *testing.T) {
	one := &result.Experiment{Samples: make([]result.Sample, 10), Slowed: []int{0}}
	for i := range one.Samples {
		one.Samples[i] = result.Sample{Iters: 1, Ns: int64(100 + i)}
	}
	if got := (&side{es: []*result.Experiment{one}}).runs(result.BasisWall); len(got) != 1 || len(got[0]) != 9 {
		t.Errorf("one process, one sample slowed: runs %v, want one of 9", got)
	}
	procs := &result.Experiment{Samples: make([]result.Sample, 12), Slowed: []int{0, 1, 2}}
	for i := range procs.Samples {
		procs.Samples[i] = result.Sample{Iters: 1, Ns: int64(100 + i), Process: i / 3}
	}
	if got := (&side{es: []*result.Experiment{procs}}).runs(result.BasisWall); len(got) != 4 {
		t.Errorf("four processes, the first slowed: %d runs, want all 4", len(got))
	}
}

// Programs compared on a machine the window found busy are judged on
// their on-CPU time: another task's share of one run and not the next
// would otherwise read as a difference (identical commands under two CPU
// hogs read 11% apart in 10 rounds). On a quiet machine, wall time.
func TestProgramsOnABusyMachineAreJudgedOnCPU(t *testing.T) {
	runs := func(name string, wall ...int64) result.Experiment {
		e := result.Experiment{Name: name, Kind: result.KindProcess}
		for _, w := range wall {
			e.Samples = append(e.Samples, result.Sample{Iters: 1, Ns: w, Counters: map[string]int64{result.CounterTaskClock: 7_000_000}})
		}
		return e
	}
	mk := func(env ...finding.Finding) *result.Result {
		return &result.Result{
			Settings:    result.Settings{Compare: []string{"a", "b"}, Threshold: 0.02},
			Environment: env,
			Experiments: []result.Experiment{
				runs("a", 7e6, 14e6, 7e6, 7.5e6, 14e6, 7e6, 7e6, 13e6, 7e6, 7e6),
				runs("b", 14e6, 14e6, 13e6, 7e6, 14e6, 14e6, 13e6, 14e6, 14e6, 13e6),
			},
		}
	}
	if p := Interleaved(mk())[0]; p.Basis != result.BasisWall {
		t.Errorf("quiet machine: judged on %q, want wall time", p.Basis)
	}
	p := Interleaved(mk(finding.Finding{Code: machine.CodeCPUBusy, Severity: finding.Warn}))[0]
	if p.Basis != result.BasisOnCPU || p.Verdict == result.Slower || p.Verdict == result.Faster {
		t.Errorf("busy machine: judged on %q, %s; want on-CPU time, and no claim (every run 7 ms on the CPU)", p.Basis, p.Verdict)
	}
	loops := mk(finding.Finding{Code: machine.CodeLoad, Severity: finding.Warn})
	for i := range loops.Experiments {
		loops.Experiments[i].Kind = result.KindLoop
	}
	if p := Interleaved(loops)[0]; p.Basis != result.BasisWall {
		t.Errorf("loops on a loaded machine, none disturbed: judged on %q, want wall time (their own findings say when they were)", p.Basis)
	}
}
