package stats

import (
	"math"
	"slices"
)

// The Wilcoxon signed-rank test and the Hodges-Lehmann interval it
// inverts are how paired processes are judged from RobustPairsFrom pairs on
// (PairedRuns). They assume what the sign test does not: each pair's log
// ratio is drawn from a distribution symmetric about the true change.
// Per-round ratios of one process are not (a long right tail of samples an
// interrupt hit: docs/statistics.md), but the log ratio of two processes'
// medians is: each median of many samples is close to normal, and a
// process the machine disturbed lands on either side of a pair as often.
// For that assumption the test gives back most of the power the sign test
// spends: for normal noise it needs about 1.05 times the pairs of a
// t-test, the sign test 1.5 times, so at the same pairs its interval is
// about 0.8 of the sign interval's width. And like the median, it is not
// moved by one process in many: the estimate is the median of the Walsh
// averages (x_i + x_j)/2, i <= j, of which one wild value spoils only n.
//
// Method: with no change, each pair's log ratio is as likely positive as
// negative, whatever its size, so the sum T of the ranks of |x| that
// belong to positive x is distributed as the sum of a random subset of
// 1..n, computed exactly (signedRankCDF). The interval of the centre is
// the pair of Walsh averages w(k), w(M+1-k), M = n(n+1)/2 of them sorted,
// with k the largest order for which 2·P(T <= k-1) <= 1-level; the
// p-value is that of T against 0, so "the interval excludes 0" and "p <
// 1-level" agree (ties in |x|, rare with continuous times, share their
// ranks and may move p by a step). Minimum: 6 values at 95% (2·2^-6).

// signedRankExactUpTo is the n up to which signedRankCDF counts subsets
// exactly (n·n(n+1)/2 steps: about 4 million at 200); beyond, the normal
// approximation with a continuity correction is within 1e-4 of it.
const signedRankExactUpTo = 200

// signedRankCDF returns P(T <= t) for every t in 0..n(n+1)/2, T the sum of
// a uniformly random subset of the ranks 1..n: the distribution of the
// signed-rank statistic when nothing changed.
func signedRankCDF(n int) []float64 {
	m := n * (n + 1) / 2
	if n > signedRankExactUpTo {
		mean := float64(m) / 2
		sd := math.Sqrt(float64(n*(n+1)*(2*n+1)) / 24)
		cdf := make([]float64, m+1)
		for t := range cdf {
			cdf[t] = 1 - normalSurvival((float64(t)+0.5-mean)/sd)
		}
		return cdf
	}
	// p[t] is P(T = t) over the ranks added so far: each rank is in the
	// subset with probability 1/2.
	p := make([]float64, m+1)
	p[0] = 1
	top := 0
	for r := 1; r <= n; r++ {
		top += r
		for t := top; t >= 0; t-- {
			with := 0.0
			if t >= r {
				with = p[t-r]
			}
			p[t] = (p[t] + with) / 2
		}
	}
	cdf := make([]float64, m+1)
	sum := 0.0
	for t, x := range p {
		sum += x
		cdf[t] = min(1, sum)
	}
	return cdf
}

// signedRankOrder is k, the 1-based order of the lower end of the level
// interval among the n(n+1)/2 sorted Walsh averages of n values, and the
// interval's exact coverage 1-2·P(T <= k-1); k is 0 when n values are too
// few for any interval at that level.
func signedRankOrder(cdf []float64, level float64) (k int, coverage float64) {
	tail := (1 - level) / 2
	// P(T <= k-1) grows with k: k = 0 always qualifies.
	k = 0
	for k < len(cdf) && cdf[k] <= tail {
		k++
	}
	if k == 0 {
		return 0, 1
	}
	return k, 1 - 2*cdf[k-1]
}

// walshAverages are the n(n+1)/2 averages (x_i + x_j)/2, i <= j, sorted.
func walshAverages(xs []float64) []float64 {
	w := make([]float64, 0, len(xs)*(len(xs)+1)/2)
	for i, x := range xs {
		for _, y := range xs[i:] {
			w = append(w, (x+y)/2)
		}
	}
	slices.Sort(w)
	return w
}

// signedRankP is the two-sided p-value of the signed-rank test that the
// centre of xs is 0: values at 0 are left out (they tell neither way),
// tied |x| share their mean rank. cdf is signedRankCDF(len(xs)), computed
// once by the caller; it is computed again only when values at 0 leave
// fewer.
func signedRankP(xs, cdf []float64) float64 {
	var abs []float64
	for _, x := range xs {
		if x != 0 && !math.IsNaN(x) {
			abs = append(abs, math.Abs(x))
		}
	}
	n := len(abs)
	if n == 0 {
		return 1
	}
	slices.Sort(abs)
	// rank of |x|: the mean of the ranks its ties span.
	rank := func(a float64) float64 {
		lo, _ := slices.BinarySearch(abs, a)
		hi := lo
		for hi < n && abs[hi] == a {
			hi++
		}
		return float64(lo+1+hi) / 2
	}
	tPlus := 0.0
	for _, x := range xs {
		if x > 0 {
			tPlus += rank(x)
		}
	}
	// T and M-T are alike under no change: the p-value of the smaller,
	// rounded down to a whole rank sum (a tie's half rank counts against
	// the claim).
	m := float64(n * (n + 1) / 2)
	low := math.Floor(min(tPlus, m-tPlus) + 1e-9)
	if n != len(xs) {
		cdf = signedRankCDF(n)
	}
	return min(1, 2*cdf[int(low)])
}

// HodgesLehmann is the Hodges-Lehmann estimate of the centre of xs (the
// median of their Walsh averages), its interval at level that the
// Wilcoxon signed-rank test inverts, the interval's exact coverage, and
// the test's two-sided p-value that the centre is 0. With too few values
// for that level, the ends are -Inf and +Inf and coverage is 1; NaN for
// none.
func HodgesLehmann(xs []float64, level float64) (centre, lo, hi, coverage, p float64) {
	n := len(xs)
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN(), 0, math.NaN()
	}
	w := walshAverages(xs)
	centre = MedianSorted(w)
	cdf := signedRankCDF(n)
	p = signedRankP(xs, cdf)
	k, coverage := signedRankOrder(cdf, level)
	if k == 0 {
		return centre, math.Inf(-1), math.Inf(1), 1, p
	}
	return centre, w[k-1], w[len(w)-k], coverage, p
}
