package compare

import (
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// gotestSide is one side of a gotest --against run on a busy machine:
// 4 processes of 4 samples, each call's on-CPU time known only as its
// wall time less its run delay (the call blocked: no thread CPU time), at
// perOpNs on the CPU and twice that on the wall; with long, one sample
// whose run delay, read around the call, exceeds what testing timed.
func gotestSide(perOpNs float64, long bool) *result.Result {
	e := result.Experiment{Name: "Work"}
	for p := range 4 {
		for i := range 4 {
			on := int64(perOpNs * 1000 * (1 + 0.002*float64(i-p)))
			s := result.Sample{Iters: 1000, Ns: 2 * on, CPU: 1, Process: p,
				Counters: map[string]int64{result.CounterRunDelay: on}}
			if long && p == 2 && i == 1 {
				s.Counters[result.CounterRunDelay] = s.Ns + 600_000
			}
			e.Samples = append(e.Samples, s)
		}
	}
	e.Findings = []finding.Finding{{Code: result.CodeDisturbed, Severity: finding.Error,
		Evidence: map[string]any{"median_off_cpu_share": 0.5}}}
	return &result.Result{CPU: 1, Settings: result.Settings{Samples: 16}, Experiments: []result.Experiment{e}}
}

// One sample whose on-CPU time cannot be known no longer leaves a busy
// comparison without its on-CPU time: it is left out of that basis, and
// the rest are judged, a real slowdown claimed and identical code not;
// with more than a quarter of a side unknown it stays inconclusive.
func TestOnCPUWithoutUnknownSamples(t *testing.T) {
	for _, tt := range []struct {
		name    string
		newOp   float64
		verdict string
	}{
		{"identical", 1000, result.NoDifference},
		{"20% slower", 1200, result.Slower},
	} {
		f, err := Against(gotestSide(1000, true), gotestSide(tt.newOp, false), 0.02)
		if err != nil {
			t.Fatal(err)
		}
		r := f.Rows[0]
		if r.Verdict != tt.verdict || r.Basis != result.BasisOnCPU {
			t.Errorf("%s: %s on %q (%s), want %s on on-CPU time", tt.name, r.Verdict, r.Basis, r.Reason, tt.verdict)
		}
	}
	old := gotestSide(1000, false)
	for i := range 5 { // 5 of 16: more than a quarter
		s := &old.Experiments[0].Samples[i*3]
		s.Counters[result.CounterRunDelay] = s.Ns
	}
	f, err := Against(old, gotestSide(1000, false), 0.02)
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Rows[0]; r.Verdict != result.Inconclusive || !strings.Contains(r.Reason, "no on-CPU time in old") {
		t.Errorf("5 of 16 unknown: %s (%s), want inconclusive for want of on-CPU time", r.Verdict, r.Reason)
	}
	// Too few left to compare (5 of 6): the machine was busy, said as
	// that, not "too few samples".
	few := func(unknown bool) *result.Result {
		r := gotestSide(1000, false)
		e := &r.Experiments[0]
		e.Samples = slices.DeleteFunc(e.Samples, func(s result.Sample) bool { return s.Process > 1 })[:6]
		if unknown {
			e.Samples[4].Counters = map[string]int64{result.CounterRunDelay: e.Samples[4].Ns}
		}
		return r
	}
	f, err = Against(few(true), few(false), 0.02)
	if err != nil {
		t.Fatal(err)
	}
	if r := f.Rows[0]; r.Verdict != result.Inconclusive || !strings.Contains(r.Reason, "no on-CPU time in old") {
		t.Errorf("5 of 6 known: %s (%s), want inconclusive for want of on-CPU time", r.Verdict, r.Reason)
	}
}
