package stats

import (
	"cmp"
	"slices"

	"github.com/benchy-dev/benchy/internal/result"
)

// Holm corrects the p-values of several comparisons made at once with the
// Holm-Bonferroni method, and decides every verdict again with the
// adjusted values.
//
// Why: with m comparisons at level 0.05, the chance that at least one of
// them shows a difference that is only noise grows to about m * 5%. Holm
// keeps that chance (the family-wise error rate) at alpha, assumes nothing
// about how the tests depend on each other, and is uniformly more powerful
// than plain Bonferroni. Method: sort the m p-values ascending; the k-th
// smallest (k = 1..m) becomes min(1, (m-k+1) p), made non-decreasing
// (each adjusted value is at least the one before it).
//
// Pairs that are not comparable have no test and are left out of m;
// inconclusive ones were tested and count. With one comparison AdjustedP
// = P. An alpha outside (0, 1) means
// DefaultAlpha.
func Holm(pairs []result.Pair, alpha float64) {
	if !(alpha > 0 && alpha < 1) {
		alpha = DefaultAlpha
	}
	var idx []int
	for i := range pairs {
		if pairs[i].Verdict != result.NotComparable {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(pairs[a].P, pairs[b].P) })
	m := len(idx)
	running := 0.0
	for k, i := range idx {
		adj := min(1, float64(m-k)*pairs[i].P)
		running = max(running, adj)
		pairs[i].AdjustedP = running
		pairs[i].Comparisons = m
		pairs[i].Alpha = alpha
		decide(&pairs[i])
	}
}
