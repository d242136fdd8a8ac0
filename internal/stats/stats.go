// Package stats holds the one implementation of each statistic benchy uses
// in more than one place: the median, the median absolute deviation, the
// nearest-rank quantile and the Mann-Whitney U test. Every function leaves
// its input unchanged.
package stats

import (
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
	"gonum.org/v1/gonum/stat"
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
// stat.Empirical), the usual definition of p90. NaN for none.
func Quantile(p float64, sorted []float64) float64 {
	if len(sorted) == 0 {
		return math.NaN()
	}
	return stat.Quantile(p, stat.Empirical, sorted, nil)
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

// MedianCI is the distribution-free 95% confidence interval of the median
// of sorted: the order statistics j and k around the middle such that the
// binomial(n, 1/2) count of samples below the true median lies between
// them with probability 0.95 (normal approximation, j = ⌊(n − 1.96√n)/2⌋,
// k = ⌈1 + (n + 1.96√n)/2⌉, 1-based). It assumes independent samples;
// below 6 samples it is the whole range.
func MedianCI(sorted []float64) (lo, hi float64) {
	n := len(sorted)
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	if n < 6 {
		return sorted[0], sorted[n-1]
	}
	h := 1.96 * math.Sqrt(float64(n))
	j := max(1, int(math.Floor((float64(n)-h)/2)))
	k := min(n, int(math.Ceil(1+(float64(n)+h)/2)))
	return sorted[j-1], sorted[k-1]
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
	lo, hi := MedianCI(sorted)
	return max(m-lo, hi-m) / m
}
