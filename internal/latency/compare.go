package latency

import (
	"math"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// QuantileComparison is the p-quantile of a candidate's calls against a
// baseline's: their ratio with an interval, and the verdict.
type QuantileComparison struct {
	P              float64
	BaseNs, CandNs int64
	// Ratio is CandNs/BaseNs; Lo and Hi bound it at Level (at least: the
	// method is conservative). An end no call reaches is 0 or +Inf.
	Ratio, Lo, Hi, Level float64
	// Verdict is result.Faster, result.Slower or result.NoDifference,
	// under the medians' rule (the whole interval beyond the threshold).
	Verdict string
}

// CompareQuantile judges the p-quantile of cand against base's, one of m
// comparisons held to alpha together (Bonferroni, as the medians are:
// stats.FamilyLevel), claiming a change only when its whole interval lies
// beyond threshold.
//
// The method: each side's distribution-free interval of its quantile
// (order statistics, stats.QuantileOrders) at 1-(1-level)/2, so that both
// hold together with probability at least level whatever the shapes, and
// the ratio's interval is [lo_cand/hi_base, hi_cand/lo_base]. It assumes
// the calls of a side independent and alike, nothing of their shape; it
// is conservative (two intervals at a higher level where a test of the
// difference would take one), which costs power, not false claims. It
// needs Need(p) calls a side (1,000 for p99): with fewer the verdict is no
// difference. A busy machine is the caller's to judge (compare.Despite's
// rule), as for the medians.
func CompareQuantile(base, cand *Histogram, p float64, m int, alpha, threshold float64) QuantileComparison {
	level := stats.FamilyLevel(m, alpha)
	c := QuantileComparison{P: p, Level: level, Verdict: result.NoDifference}
	if base.Count() < Need(p) || cand.Count() < Need(p) {
		return c
	}
	side := 1 - (1-level)/2
	bLo, bHi := quantileInterval(base, p, side)
	cLo, cHi := quantileInterval(cand, p, side)
	c.BaseNs, c.CandNs = base.Quantile(p), cand.Quantile(p)
	c.Ratio = float64(c.CandNs) / float64(max(c.BaseNs, 1))
	c.Lo = cLo / bHi
	c.Hi = cHi / max(bLo, 1)
	switch {
	case c.Lo > 1+threshold && c.Ratio > 1+threshold:
		c.Verdict = result.Slower
	case c.Hi < 1-threshold && c.Ratio < 1-threshold:
		c.Verdict = result.Faster
	}
	return c
}

// quantileInterval is h's order-statistic interval of its p-quantile at
// level, in ns; an end no call reaches is 0 (low) or +Inf (high).
func quantileInterval(h *Histogram, p, level float64) (lo, hi float64) {
	n := h.Count()
	l, u, _ := stats.QuantileOrders(int(n), p, level)
	lo, hi = 0, math.Inf(1)
	if l >= 1 {
		lo = float64(h.AtRank(uint64(l)))
	}
	if u <= int(n) {
		hi = float64(h.AtRank(uint64(u)))
	}
	return lo, hi
}
