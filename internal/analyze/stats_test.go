package analyze

import (
	"math"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// perOp makes samples of one iteration each taking the given ns.
func perOp(ns ...int64) []result.Sample {
	s := make([]result.Sample, len(ns))
	for i, v := range ns {
		s[i] = result.Sample{Iters: 1, Ns: v}
	}
	return s
}

func TestCompute(t *testing.T) {
	tests := []struct {
		name    string
		samples []result.Sample
		want    result.Stats
	}{
		{"zero samples", nil, result.Stats{}},
		{"one sample", perOp(7), result.Stats{N: 1, Min: 7, Median: 7, P90: 7, Max: 7, Mean: 7}},
		// sorted 1..5: deviations from 3 are 2,1,0,1,2; sum of squares 10.
		{"odd", perOp(5, 1, 3, 2, 4), result.Stats{N: 5, Min: 1, Median: 3, P90: 5, Max: 5, Mean: 3,
			StdDev: math.Sqrt(10.0 / 4), MAD: 1}},
		// sorted 1..4: median (2+3)/2; deviations 1.5,.5,.5,1.5 -> MAD (0.5+1.5)/2.
		{"even", perOp(4, 1, 3, 2), result.Stats{N: 4, Min: 1, Median: 2.5, P90: 4, Max: 4, Mean: 2.5,
			StdDev: math.Sqrt(5.0 / 3), MAD: 1}},
		// five 2s and an 8: mean 3, squares 5*1+25 = 30 over 5.
		{"ties", perOp(2, 2, 2, 8, 2, 2), result.Stats{N: 6, Min: 2, Median: 2, P90: 8, Max: 8, Mean: 3,
			StdDev: math.Sqrt(6), MAD: 0}},
		// nearest rank: the 9th of 10 values.
		{"p90 of ten", perOp(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), result.Stats{N: 10, Min: 1, Median: 5.5, P90: 9, Max: 10,
			Mean: 5.5, StdDev: math.Sqrt(82.5 / 9), MAD: 2.5}},
		{"per op and no iterations", []result.Sample{{Iters: 4, Ns: 10}, {Iters: 0, Ns: 99}, {Iters: 2, Ns: 5}},
			result.Stats{N: 2, Min: 2.5, Median: 2.5, P90: 2.5, Max: 2.5, Mean: 2.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Compute(tt.samples); got != tt.want {
				t.Errorf("Compute =\n %+v, want\n %+v", got, tt.want)
			}
		})
	}
}

// After a warm-up the table's median and the on-CPU median are of the
// same, steady samples: the thread was on the CPU all the time, so they
// agree. (Over all samples the on-CPU median was the warm-up's, 6% above
// the wall median of fold/opaque, and the footnote said the CPU time
// counted untimed work.)
func TestOnCPUMedianOfTheSteadySamples(t *testing.T) {
	var ns []int64
	for i := range 31 {
		v := int64(2_330_000 + 7_000*(i%3)) // 2.33 ns/op at 1e6 iterations
		if i < 20 {
			v = 2_490_000 + 9_000*int64(i%4) - 2_000*int64(i)
		}
		ns = append(ns, v)
	}
	s := timed(1_000_000, ns...)
	for i := range s {
		s[i].Counters = map[string]int64{result.CounterTaskClock: s[i].Ns}
	}
	r := &result.Result{CPU: 2, Experiments: []result.Experiment{{Name: "fold/opaque", Kind: result.KindLoop, Samples: s}}}
	Analyze(r)
	e := r.Experiments[0]
	if e.Series == nil || e.Series.Class != "warmup" {
		t.Fatalf("the series is %+v, not a warm-up: the test needs one", e.Series)
	}
	if e.Stats.N >= len(s) {
		t.Fatalf("the statistics are of %d samples, not of the steady ones", e.Stats.N)
	}
	if got, want := e.Stats.OnCPUMedian, e.Stats.Median; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("on-CPU median %v, wall median %v of the same samples: they differ", got, want)
	}
}
