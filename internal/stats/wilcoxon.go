package stats

import (
	"cmp"
	"math"
	"slices"
)

// wilcoxonExactMax is the largest number of non-zero differences for which
// the signed-rank p-value is computed exactly (a table of n(n+1)/2+1 rank
// sums, 1276 entries at 50); above it, or with tied magnitudes, the normal
// approximation is within a few thousandths of it.
const wilcoxonExactMax = 50

// WilcoxonSignedRank is the two-sided p-value of the Wilcoxon signed-rank
// test that the differences d are symmetric around 0: for paired samples,
// d[i] is the difference within pair i (benchy uses the log of the ratio of
// the two times measured in one round), so what the rounds share (a slow
// machine, a drifting clock) cancels, and the test uses the pairing that a
// Mann-Whitney test of the two samples throws away.
//
// Method: zero differences are dropped (Wilcoxon's convention); the
// magnitudes are ranked, ties sharing the mean rank; W+ is the sum of the
// ranks of the positive differences. Without ties and for at most 50
// differences the p-value is exact (the null distribution of W+ counted
// by dynamic programming); otherwise it uses the normal approximation
// with the tie correction of the variance and a continuity correction.
// Assumption: the pairs are independent and the differences symmetric
// about their median. With 6 pairs all of one sign the smallest p is
// 0.031; with 5 it is 0.0625, so 6 is the least that can reach 0.05. No
// difference at all gives p = 1.
func WilcoxonSignedRank(d []float64) float64 {
	type diff struct{ abs, sign float64 }
	var ds []diff
	for _, x := range d {
		if x != 0 && !math.IsNaN(x) {
			ds = append(ds, diff{math.Abs(x), math.Copysign(1, x)})
		}
	}
	n := len(ds)
	if n == 0 {
		return 1
	}
	slices.SortFunc(ds, func(a, b diff) int { return cmp.Compare(a.abs, b.abs) })
	var wPlus, tieTerm float64
	ties := false
	for i := 0; i < n; {
		j := i
		for j < n && ds[j].abs == ds[i].abs {
			j++
		}
		rank := float64(i+j+1) / 2 // mean of ranks i+1 .. j
		for k := i; k < j; k++ {
			if ds[k].sign > 0 {
				wPlus += rank
			}
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		i = j
	}
	if !ties && n <= wilcoxonExactMax {
		return exactSignedRank(n, int(wPlus))
	}
	nf := float64(n)
	mean := nf * (nf + 1) / 4
	sd := math.Sqrt(nf*(nf+1)*(2*nf+1)/24 - tieTerm/48)
	if sd == 0 {
		return 1
	}
	z := (math.Abs(wPlus-mean) - 0.5) / sd
	return min(1, math.Erfc(max(z, 0)/math.Sqrt2))
}

// exactSignedRank is the two-sided exact p-value of W+ = w for n
// differences without ties: under the null each rank is positive with
// probability 1/2 independently, so the count of sign patterns with each
// rank sum is a subset-sum table.
func exactSignedRank(n, w int) float64 {
	maxSum := n * (n + 1) / 2
	counts := make([]float64, maxSum+1)
	counts[0] = 1
	for r := 1; r <= n; r++ {
		for s := maxSum; s >= r; s-- {
			counts[s] += counts[s-r]
		}
	}
	total := math.Pow(2, float64(n))
	var lower, upper float64 // P(W+ <= w), P(W+ >= w)
	for s, c := range counts {
		if s <= w {
			lower += c
		}
		if s >= w {
			upper += c
		}
	}
	return min(1, 2*min(lower, upper)/total)
}
