package latency

import (
	"math"

	"github.com/benchy-dev/benchy/internal/stats"
)

// QuantileRatio is the p-quantile of a candidate's calls against a
// baseline's: their ratio with an interval. It holds no verdict:
// internal/compare holds it to a threshold (compare's tail).
type QuantileRatio struct {
	P              float64
	BaseNs, CandNs int64
	// Ratio is CandNs/BaseNs; Lo and Hi bound it at Level (at least: the
	// method is conservative). An end no call reaches is 0 or +Inf.
	Ratio, Lo, Hi, Level float64
}

// EstimateQuantile estimates the ratio of the p-quantile of cand to base's
// with its interval at level (stats.FamilyLevel for one of several
// comparisons held together, as the medians are).
//
// The method: each side's distribution-free interval of its quantile
// (order statistics, stats.QuantileOrders) at 1-(1-level)/2, so that both
// hold together with probability at least level whatever the shapes, and
// the ratio's interval is [lo_cand/hi_base, hi_cand/lo_base]. It assumes
// the calls of a side independent and alike, nothing of their shape; it
// is conservative (two intervals at a higher level where a test of the
// difference would take one), which costs power, not false claims. It
// needs Need(p) calls a side (1,000 for p99): with fewer ok is false and
// the ratio and its interval are 0.
func EstimateQuantile(base, cand *Histogram, p, level float64) (c QuantileRatio, ok bool) {
	c = QuantileRatio{P: p, Level: level}
	if base.Count() < Need(p) || cand.Count() < Need(p) {
		return c, false
	}
	side := 1 - (1-level)/2
	bLo, bHi := quantileInterval(base, p, side)
	cLo, cHi := quantileInterval(cand, p, side)
	c.BaseNs, c.CandNs = base.Quantile(p), cand.Quantile(p)
	c.Ratio = float64(c.CandNs) / float64(max(c.BaseNs, 1))
	c.Lo = cLo / bHi
	c.Hi = cHi / max(bLo, 1)
	return c, true
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
