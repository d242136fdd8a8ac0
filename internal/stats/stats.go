// Package stats holds the one implementation of each statistic benchy uses
// in more than one place: the median, the median absolute deviation, the
// nearest-rank quantile, the tests, and the statistics of a pair compared
// (Paired, Unpaired, RunsAt, Bonferroni; see pair.go). Every function leaves its
// input unchanged.
package stats

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Median is the middle of xs, the mean of the two middle values for an
// even count; NaN for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return MedianSorted(s)
}

// MedianSorted is Median of xs already sorted ascending, without a copy.
func MedianSorted(xs []float64) float64 {
	n := len(xs)
	switch {
	case n == 0:
		return math.NaN()
	case n%2 == 1:
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// MAD is the unscaled median absolute deviation of xs around m (multiply
// by MADToSigma to estimate the σ of a normal distribution); NaN for none.
func MAD(xs []float64, m float64) float64 {
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - m)
	}
	return Median(dev)
}

// MADToSigma scales a median absolute deviation to the standard deviation
// of a normal distribution (1 / Φ⁻¹(3/4)).
const MADToSigma = 1.4826

// Quantile is the nearest-rank p-quantile of sorted xs: the smallest value
// that at least a share p of the values do not exceed (gonum's
// stat.Empirical), the usual definition of p90. NaN for none, and when a
// value is NaN.
func Quantile(p float64, sorted []float64) float64 {
	if len(sorted) == 0 || slices.ContainsFunc(sorted, math.IsNaN) {
		return math.NaN()
	}
	rank := p * float64(len(sorted))
	for i, x := range sorted {
		if float64(i+1) >= rank {
			return x
		}
	}
	return sorted[len(sorted)-1]
}

// MannWhitney is the two-sided p-value of the Mann-Whitney U test that a
// and b come from one distribution, as benchstat computes it
// (benchmath.AssumeNothing): no assumption on the shape of the
// distribution, which benchmark times rarely meet; exact without ties for
// small samples, the normal approximation otherwise. With 5 values per
// side the smallest p is 0.008. When every value is equal nothing tells
// the samples apart and p is 1.
func MannWhitney(a, b []float64) float64 {
	t := &benchmath.DefaultThresholds
	// NewSample sorts in place: give it copies.
	return benchmath.AssumeNothing.Compare(benchmath.NewSample(slices.Clone(a), t), benchmath.NewSample(slices.Clone(b), t)).P
}

// MedianCI is the distribution-free confidence interval of the median of
// sorted at the given level (0.95): the two order statistics around the
// middle between which the true median lies with at least that
// probability, from the exact binomial(n, 1/2) distribution of the number
// of samples below it (benchmath's AssumeNothing). coverage is the
// interval's actual level, a little above the one asked. It assumes
// independent, identically distributed samples and nothing of their shape.
// With too few samples for any interval at that level (fewer than 6 at
// 95%) an end is infinite. It is the one median interval of benchy: the
// precision of --target-ci and the ratio of interleaved rounds use it.
func MedianCI(sorted []float64, level float64) (lo, hi, coverage float64) {
	if len(sorted) == 0 {
		return math.NaN(), math.NaN(), 0
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(sorted, &benchmath.DefaultThresholds), level)
	return s.Lo, s.Hi, s.Confidence
}

// MedianCIHalfWidth is the larger distance from the median of xs to an end
// of its MedianCI, relative to the median: 0.02 for ±2%. xs need not be
// sorted; NaN when xs is empty or its median is not positive.
func MedianCIHalfWidth(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return MedianCIHalfWidthSorted(s)
}

// MedianCIHalfWidthSorted is MedianCIHalfWidth of xs already sorted.
func MedianCIHalfWidthSorted(sorted []float64) float64 {
	m := MedianSorted(sorted)
	if len(sorted) == 0 || !(m > 0) {
		return math.NaN()
	}
	lo, hi, _ := MedianCI(sorted, 0.95)
	return max(m-lo, hi-m) / m
}
