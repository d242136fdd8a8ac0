package render

import (
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

func TestSentences(t *testing.T) {
	base := make([]float64, 31)
	for i := range base {
		base[i] = 4e7 + float64(i%7)*1e5
	}
	builder := make([]float64, 31)
	slower := make([]float64, 31)
	for i, b := range base {
		builder[i] = b / 41.2
		slower[i] = b * 1.123
	}
	p := compare.Judge(stats.PairedWith(base, builder, stats.Design{Level: stats.Confidence}), compare.Rule{Threshold: compare.DefaultThreshold})
	p.Base, p.Candidate = "concat/quadratic", "concat/builder"
	if got, want := Sentence(p), "concat/builder is 41.2x faster than concat/quadratic (95% CI 41.2x-41.2x, p<0.001, 31 rounds)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	p = compare.Judge(stats.UnpairedAt(base, slower, stats.Confidence), compare.Rule{Threshold: compare.DefaultThreshold})
	p.Base, p.Candidate = "old sum/sink", "new sum/sink"
	if got, want := Sentence(p), "new sum/sink is 12.3% slower than old sum/sink (95% CI +11.7% to +12.9%, p<0.001, 31+31 samples)"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Constructed pairs: each verdict as compare would set it.
	for _, tt := range []struct {
		p    result.Pair
		want string
	}{
		{result.Pair{Base: "sum/sink", Candidate: "sum/sink", Verdict: result.NoDifference, Reason: "the 95% confidence interval includes 1",
			Paired: true, N: 31, Ratio: 1.01, CILow: 0.98, CIHigh: 1.03, AdjustedP: 0.41, Comparisons: 1},
			"sum/sink vs sum/sink: no difference detected (ratio 1.01, 95% CI 0.98-1.03, p=0.41, 31 rounds)"},
		{result.Pair{Base: "a", Candidate: "b", Verdict: result.Slower, Paired: true, N: 31, Ratio: 1.8, CILow: 1.7, CIHigh: 1.9, AdjustedP: 0.0004, Comparisons: 1},
			"b is 1.8x slower than a (95% CI 1.7x-1.9x, p<0.001, 31 rounds)"},
		{result.Pair{Base: "a", Candidate: "b", Verdict: result.Faster, Paired: true, N: 31, Ratio: 0.9, CILow: 0.88, CIHigh: 0.92, AdjustedP: 0.012, Comparisons: 3, Level: 1 - 0.05/3},
			"b is 10.0% faster than a (98.3% CI -12.0% to -8.0%, p=0.012 Bonferroni-adjusted for 3 comparisons, 31 rounds)"},
		{result.Pair{Base: "a", Candidate: "b", Verdict: result.NoDifference, Reason: "the change, +0.50%, is within the 2% threshold",
			BaseN: 10, CandidateN: 12, Ratio: 1.005, CILow: 1.003, CIHigh: 1.007, AdjustedP: 0.0001, Comparisons: 1},
			"b vs a: +0.50% measured, not claimed (95% CI +0.30% to +0.70%, p<0.001, 10+12 samples; the change, +0.50%, is within the 2% threshold)"},
		{result.Pair{Base: "a", Candidate: "b", Verdict: result.NotComparable, Reason: "too few rounds: 3, need at least 6 to tell"},
			"b vs a: not comparable (too few rounds: 3, need at least 6 to tell)"},
		{result.Pair{Base: "a", Candidate: "b", Verdict: result.Inconclusive, Reason: "the machine was busy (a: slow-core); rerun on a quieter machine"},
			"b vs a: inconclusive: the machine was busy (a: slow-core); rerun on a quieter machine"},
		{result.Pair{Base: "old x", Candidate: "new x", Verdict: result.NoDifference, Reason: "the 95% confidence interval includes 1",
			BaseN: 31, CandidateN: 31, BaseRuns: 1, CandidateRuns: 1, Ratio: 1.04, CILow: 0.95, CIHigh: 1.13, AdjustedP: 0.3, Comparisons: 1, Detectable: 0.087},
			"new x vs old x: no difference detected (ratio 1.04, 95% CI 0.95-1.13, p=0.30, 31+31 samples; one run per side tells only changes beyond 8.7% from run-to-run variation: give several runs per side)"},
		{result.Pair{Base: "old x", Candidate: "new x", Verdict: result.Slower, BaseRuns: 3, CandidateRuns: 3, Ratio: 1.2, CILow: 1.15, CIHigh: 1.25, AdjustedP: 0.001, Comparisons: 1},
			"new x is 20.0% slower than old x (95% CI +15.0% to +25.0%, p=0.0010, 3+3 runs)"},
		{result.Pair{Base: "a", Candidate: "b", Verdict: result.Slower, Paired: true, N: 31, Ratio: 2, CILow: 1.9, CIHigh: 2.1, AdjustedP: 0.0001, Comparisons: 1,
			Basis: result.BasisOnCPU, Busy: "the machine was busy (a: slow-core)", BusyBound: 0.5},
			"b is 2x slower than a (95% CI 1.9x-2.1x, p<0.001, 31 rounds; judged on on-CPU time: the machine was busy, and the time the thread was off the CPU is left out; beyond what the machine was busy (a: slow-core) could explain, at most 1.5x)"},
	} {
		if got := Sentence(tt.p); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

func TestFormats(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{units.PValue(0.41), "0.41"}, {units.PValue(0.041), "0.041"}, {units.PValue(0.0012), "0.0012"}, {units.PValue(1), "1.00"},
		{FmtP(0.0002), "<0.001"}, {FmtP(0.041), "0.041"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	for _, tt := range []struct {
		lo, r, hi float64
		want      string
	}{
		{0.98, 1.01, 1.03, "0.98 1.01 1.03"},
		{1.003, 1.005, 1.007, "1.003 1.005 1.007"},
		{1, 1, 1, "1.00 1.00 1.00"},
		{1.00001, 1.00002, 1.00003, "1.0000 1.0000 1.0000"},
	} {
		a, b, c := fmtRatios(tt.lo, tt.r, tt.hi)
		if got := a + " " + b + " " + c; got != tt.want {
			t.Errorf("fmtRatios(%v, %v, %v) = %q, want %q", tt.lo, tt.r, tt.hi, got, tt.want)
		}
	}
}

// The -v settings line of a comparison with looks gives the most rounds
// it may take, as the one-screen header does, not that it took them all.
func TestSettingsLineWithLooks(t *testing.T) {
	r := &result.Result{Settings: result.Settings{Samples: 101, Looks: []int{31, 61, 101}, RoundsBudget: 8500 * time.Millisecond,
		SampleTime: 10 * time.Millisecond, Warmup: 100 * time.Millisecond}}
	if got := settingsLine(r); !strings.Contains(got, "up to 101 rounds or 8.5s") || strings.Contains(got, "101 samples") {
		t.Errorf("settings line %q, want up to 101 rounds or 8.5s", got)
	}
}

// The header of run --processes gives the samples of all the processes
// (Settings.Samples, which the processes share), and the warm-up each
// process took; it once said "31 samples in each of 3 processes".
func TestSettingsOfProcesses(t *testing.T) {
	r := &result.Result{Settings: result.Settings{Samples: 31, SampleTime: 10 * time.Millisecond, Warmup: 100 * time.Millisecond},
		Experiments: []result.Experiment{{Name: "sum", Samples: []result.Sample{{Process: 0}, {Process: 1}, {Process: 2}}}}}
	for _, tt := range []struct{ got, want string }{
		{compactSettings(r), "31 samples >= 10ms in 3 processes, 100ms warm-up in each"},
		{settingsLine(r), "31 samples of at least 10ms in 3 processes, 100ms warm-up in each"},
	} {
		if !strings.Contains(tt.got, tt.want) {
			t.Errorf("settings %q, want %q", tt.got, tt.want)
		}
	}
}
