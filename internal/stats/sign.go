package stats

import "math"

// The sign test and its interval are one method: the interval is the set
// of medians the test does not reject, so "the interval excludes 1" and
// "p < 1-level" are the same statement, to the last sample. benchy judges
// interleaved rounds with them (PairedWith).
//
// Method: under the hypothesis that the median of the per-round ratios is
// m, each ratio lies below m with probability 1/2, independently, so the
// count below is Binomial(n, 1/2). The test counts the ratios on each side
// of 1; the interval is the pair of order statistics x(k), x(n+1-k) with k
// the largest order for which 2·P(Binomial(n, 1/2) <= k-1) <= 1-level.
// Both are exact at every n (no normal approximation). Assumption: the
// ratios are independent and identically distributed; nothing of their
// shape (not normal, not symmetric: the Wilcoxon signed-rank test and the
// Hodges-Lehmann interval assume symmetry, which per-round ratios with a
// long right tail do not have). The price is power: for normal noise the
// sign test needs about 1.5x the rounds of a t-test for the same
// interval. Minimum: 6 ratios at 95% (2·0.5^6 = 0.031); at a
// family level 1-0.05/m, log2(2m/0.05) ratios (7 for m = 3, 10 for m = 25).

// binomHalfCDF is P(Binomial(n, 1/2) <= k).
func binomHalfCDF(n, k int) float64 { return binomCDF(n, 0.5, k) }

// binomCDF is P(Binomial(n, p) <= k).
func binomCDF(n int, p float64, k int) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	}
	// distuv.Binomial's CDF: I_{1-p}(n-k, k+1).
	return regIncBeta(float64(n-k), float64(k+1), 1-p)
}

// lowerOrder is the largest k in 0..n with P(Binomial(n, p) <= k-1) <=
// tail: the 1-based order of the lower end of an interval of the
// p-quantile of n values that misses below with probability at most tail;
// 0 when no order statistic is low enough that rarely.
func lowerOrder(n int, p, tail float64) int {
	// P(B <= k-1) grows with k: binary search; k = 0 always qualifies
	// (P(B <= -1) = 0).
	lo, hi := 0, n
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if binomCDF(n, p, mid-1) <= tail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// signOrder is k, the 1-based order of the lower end of the level interval
// of the median of n values, and the interval's coverage 1-2·P(B <= k-1);
// k is 0 when n values are too few for any interval at that level.
func signOrder(n int, level float64) (k int, coverage float64) {
	// 2·P(B <= k-1) <= alpha, halved exactly (a power of two).
	k = lowerOrder(n, 0.5, (1-level)/2)
	if k == 0 {
		return 0, 1
	}
	return k, 1 - 2*binomHalfCDF(n, k-1)
}

// QuantileOrders are the 1-based orders lo and hi of the order statistics
// x(lo), x(hi) of n independent values that bound their p-quantile with
// probability coverage, at least level: the distribution-free interval of
// a quantile (the sign test's interval of the median, generalised). The
// count of values below the true p-quantile is Binomial(n, p) whatever the
// distribution, so x(lo) lies above it with probability P(B <= lo-1) and
// x(hi) below it with P(B >= hi); each tail is held to (1-level)/2, the
// two computed alike (hi from the mirror image, Binomial(n, 1-p)), so at
// p = 1/2 the interval is SignInterval's to the last value. Assumption:
// independent, identically distributed values; nothing of their shape.
// An end that no order statistic reaches (too few values beyond the
// quantile: an upper end of p99.9 needs about 3,700 values at 95%) is lo
// = 0 or hi = n+1, and coverage counts it as infinite.
func QuantileOrders(n int, p, level float64) (lo, hi int, coverage float64) {
	tail := (1 - level) / 2
	lo = lowerOrder(n, p, tail)
	hi = n + 1 - lowerOrder(n, 1-p, tail)
	return lo, hi, binomCDF(n, p, hi-1) - binomCDF(n, p, lo-1)
}

// SignInterval is the level confidence interval of the median of sorted
// (ascending) that the sign test inverts: its ends are order statistics,
// and coverage is its exact level, at least level. With too few values for
// that level, the ends are -Inf and +Inf and coverage is 1. NaN for none.
func SignInterval(sorted []float64, level float64) (lo, hi, coverage float64) {
	n := len(sorted)
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	k, cov := signOrder(n, level)
	if k == 0 {
		return math.Inf(-1), math.Inf(1), 1
	}
	return sorted[k-1], sorted[n-k], cov
}

// SignTest is the exact two-sided p-value of the sign test that the median
// of xs is m: 2·P(Binomial(n, 1/2) <= the smaller count on one side of m),
// at most 1. A value equal to m counts on both sides (it is at m, so it
// tells neither way): this keeps the test the exact inverse of
// SignInterval, ties included. NaN values are left out.
func SignTest(xs []float64, m float64) float64 {
	var below, above, at int
	for _, x := range xs {
		switch {
		case x < m:
			below++
		case x > m:
			above++
		case x == m:
			at++
		}
	}
	n := below + above + at
	if n == 0 {
		return 1
	}
	return min(1, 2*binomHalfCDF(n, min(below, above)+at))
}

// SignRoundsFor is the fewest values for which SignInterval at level has
// finite ends: 6 at 95%.
func SignRoundsFor(level float64) int {
	n := 1
	for ; n < 1<<20; n++ {
		if k, _ := signOrder(n, level); k > 0 {
			break
		}
	}
	return n
}
