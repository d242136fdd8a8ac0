// Package stats holds the one implementation of each statistic benchy uses
// in more than one place: the median, the median absolute deviation, the
// nearest-rank quantile, the tests, and the estimates of a pair compared
// (PairedWith, UnpairedAt, RunsAt, PairedRuns; see pair.go), which
// internal/compare turns into verdicts. Every function leaves its input
// unchanged.
package stats

import (
	"math"
	"slices"
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

// MedianCI is the distribution-free confidence interval of the median of
// sorted at the given level (0.95): the two order statistics around the
// middle between which the true median lies with at least that
// probability, from the binomial(n, 1/2) distribution of the number of
// samples below it, as benchstat computes it (benchmath's AssumeNothing;
// medianOrders). coverage is the interval's actual level, a little above
// the one asked. It assumes independent, identically distributed samples
// and nothing of their shape. With too few samples for any interval at
// that level (fewer than 6 at 95%) an end is infinite. The precision of
// --target-ci, the series checks and the history's stored intervals use
// it, so they read as benchstat's; the ratio of interleaved rounds uses
// SignInterval, the sign test's interval with equal tails, which this one
// (grown outward from the mode) may differ from by an order statistic.
func MedianCI(sorted []float64, level float64) (lo, hi, coverage float64) {
	n := len(sorted)
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	l, r, coverage := medianOrders(n, level)
	lo, hi = math.Inf(-1), math.Inf(1)
	if l >= 1 {
		lo = sorted[l-1]
	}
	if r <= n {
		hi = sorted[r-1]
	}
	return lo, hi, coverage
}

// medianOrders are the 1-based orders l and r of the order statistics
// x(l), x(r) that bound the median of n values with probability coverage,
// at least level; l = 0 and r = n+1 stand for -Inf and +Inf. The count of
// values below the median is B ~ Binomial(n, 1/2), and the median lies in
// [x(l), x(r)) when l <= B < r.
//
// Method (benchmath's, through go-moremath's QuantileCI, so that benchy's
// intervals are benchstat's): up to 30 values, the exact distribution: from
// the mode out, take the more likely neighbouring count first (the lower
// on a tie), until the counts taken hold level. Above 30, the normal
// approximation N(n/2, n/4) with the continuity correction: the central
// level of it widened to whole counts, then one count narrower at the top
// if that still holds level.
func medianOrders(n int, level float64) (l, r int, coverage float64) {
	if level >= 1 {
		return 0, n + 1, 1
	}
	if n <= 30 {
		pmf := func(k int) float64 {
			switch {
			case k < 0 || k > n:
				return 0
			case n <= 20 || k == 0 || k == n:
				return math.Ldexp(choose(n, k), -n)
			}
			// As go-moremath computes C(n, k) above 20: through
			// log Γ, a few ulps off, so that of two equally likely
			// counts one may come out a hair more likely. Which
			// side the interval grows on follows that hair; taking
			// the same one keeps benchstat's interval.
			ln, _ := math.Lgamma(float64(n + 1))
			lk, _ := math.Lgamma(float64(k + 1))
			lr, _ := math.Lgamma(float64(n - k + 1))
			return math.Exp(ln-lk-lr) * math.Pow(0.5, float64(k)) * math.Pow(0.5, float64(n-k))
		}
		x := n / 2 // the mode; the lower of the two for odd n
		l, r = x, x+1
		coverage = pmf(x)
		lp, rp := pmf(l-1), pmf(r)
		for coverage < level && (lp > 0 || rp > 0) {
			if lp >= rp {
				coverage += lp
				l--
				lp = pmf(l - 1)
			} else {
				coverage += rp
				r++
				rp = pmf(r)
			}
		}
		return max(l, 0), min(r, n+1), coverage
	}
	mu, sigma := float64(n)*0.5, math.Sqrt(float64(n)*0.5*0.5)
	within := func(l, r int) float64 { // P(l <= B < r), continuity-corrected
		cdf := func(x float64) float64 { return math.Erfc(-(x-mu)/(sigma*math.Sqrt2)) / 2 }
		return cdf(float64(r)-0.5) - cdf(float64(l)-0.5)
	}
	lx := normalQuantile((1-level)/2)*sigma + mu
	rx := 2*mu - lx
	l = int(math.Floor(lx-0.5)) + 1
	r = int(math.Ceil(rx-0.5)) + 1
	coverage = within(l, r)
	if c := within(l, r-1); c >= level && c < coverage {
		coverage, r = c, r-1
	}
	if l <= 0 && r >= n+1 {
		coverage = 1 // everything, which the normal's tails miss
	}
	return max(l, 0), min(r, n+1), coverage
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
