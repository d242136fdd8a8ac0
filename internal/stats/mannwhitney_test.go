package stats

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/perf/benchmath"
)

// benchmathP is benchstat's p-value of the U test, which MannWhitney
// must give.
func benchmathP(a, b []float64) float64 {
	t := &benchmath.DefaultThresholds
	return benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(a), t), benchmath.NewSample(slices.Clone(b), t)).P
}

// MannWhitney is benchmath's U test over sample sizes 1 to 60 a side,
// with and without ties, each of its three ways: the exact distribution
// without ties (to 50 a side) and with them (to 25), the normal
// approximation beyond. Without ties both compute the same sums in the
// same order: the same float64. With ties benchmath's binomial
// coefficients above 20 come from Lgamma, ours are exact integers: within
// 1e-12. Either way every verdict at the levels benchy uses is the same.
func TestMannWhitneyIsBenchmaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphas := []float64{0.05, 0.01, 0.05 / 3, 0.05 / 25, 0.001}
	sample := func(n int, shift float64, ties bool) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = rng.NormFloat64() + shift
			if ties {
				xs[i] = float64(int(xs[i] * 2)) // a few distinct values
			}
		}
		return xs
	}
	var cases int
	for n1 := 1; n1 <= 60; n1++ {
		for _, n2 := range []int{1, 2, 3, 5, 8, 13, 24, 25, 26, 49, 50, 51, 60, n1} {
			for _, ties := range []bool{false, true} {
				for _, shift := range []float64{0, 0.5, 2} {
					if ties && n1*n2 > 900 && shift != 0.5 {
						continue // the exact count with ties is the slow one
					}
					a, b := sample(n1, 0, ties), sample(n2, shift, ties)
					got, want := MannWhitney(a, b), benchmathP(a, b)
					what := fmt.Sprintf("MannWhitney(%v, %v)", a, b)
					tol := 0.0
					if ties {
						tol = 1e-12
					}
					if relErr(got, want) > tol {
						t.Errorf("%s = %v, benchmath %v", what, got, want)
					}
					for _, alpha := range alphas {
						if (got < alpha) != (want < alpha) {
							t.Errorf("%s = %v, benchmath %v: another verdict at %v", what, got, want, alpha)
						}
					}
					cases++
				}
			}
		}
	}
	t.Logf("%d pairs of samples", cases)
	for _, c := range [][2][]float64{
		{nil, {1, 2}},
		{{3, 3, 3}, {3, 3}},
		{{1, 2, 3}, {1, 2, 3}},
		{{5}, {5}},
	} {
		if got, want := MannWhitney(c[0], c[1]), benchmathP(c[0], c[1]); got != want {
			t.Errorf("MannWhitney(%v, %v) = %v, benchmath %v", c[0], c[1], got, want)
		}
	}
}

// MedianCI is benchmath's AssumeNothing Summary: the same ends and the
// same coverage, for 1 to 3000 values at the levels benchy uses (the
// normal approximation from 31 values on uses our normal quantile where
// benchmath uses Acklam's: the orders must still agree).
func TestMedianCIIsBenchmaths(t *testing.T) {
	for n := 1; n <= 3000; n++ {
		if n > 200 && n%17 != 0 {
			continue
		}
		sorted := make([]float64, n)
		for i := range sorted {
			sorted[i] = float64(i + 1)
		}
		for _, level := range []float64{0.95, 0.99, 0.9, 1 - 0.05/3, 1 - 0.05/25, 0.5, 1} {
			lo, hi, cov := MedianCI(sorted, level)
			s := benchmath.AssumeNothing.Summary(benchmath.NewSample(slices.Clone(sorted), &benchmath.DefaultThresholds), level)
			if lo != s.Lo || hi != s.Hi || cov != s.Confidence {
				t.Errorf("MedianCI(1..%d, %v) = %v, %v (%v), benchmath %v, %v (%v)", n, level, lo, hi, cov, s.Lo, s.Hi, s.Confidence)
			}
		}
	}
}
