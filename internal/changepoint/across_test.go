package changepoint

import (
	"strings"
	"testing"
)

func TestAcross(t *testing.T) {
	r := func(c Class) Result { return Result{Class: c, Judged: true} }
	unjudged := Result{Class: Flat}
	for _, tt := range []struct {
		name    string
		results []Result
		want    Class
	}{
		{"none", nil, Flat},
		{"none judged", []Result{unjudged, unjudged}, Flat},
		{"all flat", []Result{r(Flat), r(Flat), r(Flat)}, Flat},
		{"all warmup", []Result{r(Warmup), r(Warmup)}, Warmup},
		{"all slowdown", []Result{r(Slowdown), r(Slowdown)}, Slowdown},
		{"all no steady state", []Result{r(NoSteadyState), r(NoSteadyState)}, NoSteadyState},
		{"flat and warmup", []Result{r(Flat), r(Warmup), r(Flat)}, Warmup},
		{"warmup and slowdown", []Result{r(Warmup), r(Slowdown)}, Inconsistent},
		{"flat and slowdown", []Result{r(Flat), r(Slowdown)}, Inconsistent},
		{"flat and no steady state", []Result{r(Flat), r(NoSteadyState)}, Inconsistent},
		{"flat, warmup and slowdown", []Result{r(Flat), r(Warmup), r(Slowdown)}, Inconsistent},
		{"unjudged takes no part", []Result{r(Slowdown), unjudged, r(Slowdown)}, Slowdown},
	} {
		if got := Across(tt.results); got != tt.want {
			t.Errorf("%s: Across = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestClassifyProcesses(t *testing.T) {
	warm := func(seed uint64) []float64 { return series(seed, 31, 0.01, step(8, -0.2)) }
	slow := func(seed uint64) []float64 { return series(seed, 31, 0.01, step(18, 0.2)) }
	flatS := func(seed uint64) []float64 { return series(seed, 31, 0.01, flat) }
	for _, tt := range []struct {
		name   string
		series [][]float64
		want   Class
		reason string
	}{
		{"agree", [][]float64{warm(1), warm(2), warm(3)}, Warmup, "all 3 judged processes: warmup"},
		{"flat and warmup", [][]float64{flatS(1), warm(2), flatS(3)}, Warmup, "every process ends fastest: 2 flat, 1 warmup"},
		{"disagree", [][]float64{warm(1), slow(2), slow(3)}, Inconsistent, "processes disagree: 1 warmup, 2 slowdown"},
		{"one too short", [][]float64{slow(1), slow(2), slow(3)[:5]}, Slowdown, "all 2 judged processes: slowdown (1 not judged)"},
		{"none judged", [][]float64{{1, 2}, nil}, Flat, "none of 2 processes could be judged"},
	} {
		p := ClassifyProcesses(tt.series)
		if p.Class != tt.want || p.Reason != tt.reason || len(p.Results) != len(tt.series) {
			var rs []string
			for _, r := range p.Results {
				rs = append(rs, string(r.Class)+": "+r.Reason)
			}
			t.Errorf("%s: %q, %q, want %q, %q\n%s", tt.name, p.Class, p.Reason, tt.want, tt.reason, strings.Join(rs, "\n"))
		}
		for i, r := range p.Results {
			checkResult(t, tt.series[i], r)
		}
	}
}
