package stats

import (
	"math"
	"slices"
	"strconv"

	"github.com/benchy-dev/benchy/internal/result"
)

// Paired compares interleaved rounds: base[i] and cand[i] were measured in
// the same round, one right after the other on the same CPU, so a slow
// drift of the machine (clock, neighbours, heat) changes both alike and
// cancels in their ratio cand[i]/base[i].
//
// Method: the ratio is the median of the per-round ratios, and its 95%
// confidence interval is the distribution-free order-statistic interval of
// that median (MedianCI on the ratios): the number
// of ratios below the true median is Binomial(n, 1/2), which gives the two
// order statistics that bracket it with at least 95% probability.
// Assumption: the per-round ratios are independent and identically
// distributed, no more (not normal, not symmetric). Rounds taken in ABBA
// order make a linear drift hit both sides equally on average. The p-value
// is the two-sided Wilcoxon signed-rank test of the per-round log ratios
// (WilcoxonSignedRank): it uses the pairing, so a drifting machine
// does not hide a real change. (A Mann-Whitney test of the two samples
// throws the pairing away: in simulation a true +3% with a drifting
// machine was found 78% of the time that way, against 100% by the paired
// interval.)
//
// Minimum: MinSamples (6) rounds, and base and cand of the same length;
// otherwise the verdict is "not comparable" with the reason. A threshold
// below 0 (or NaN) counts as 0.
func Paired(base, cand []float64, threshold float64) result.Pair {
	p := newPair(true, base, cand, threshold)
	p.N = min(len(base), len(cand))
	if r := checkTimes("base", base) + checkTimes("candidate", cand); r != "" {
		MarkNotComparable(&p, r)
		return p
	}
	if len(base) != len(cand) {
		MarkNotComparable(&p, "interleaved rounds need one sample of each per round: "+
			strconv.Itoa(len(base))+" base, "+strconv.Itoa(len(cand))+" candidate")
		return p
	}
	if p.N < MinSamples {
		MarkNotComparable(&p, "too few rounds: "+strconv.Itoa(p.N)+", need at least "+strconv.Itoa(MinSamples)+" to tell")
		return p
	}
	ratios := make([]float64, p.N)
	for i := range ratios {
		ratios[i] = cand[i] / base[i]
	}
	p.Ratio = Median(ratios)
	sorted := slices.Sorted(slices.Values(ratios))
	p.CILow, p.CIHigh, p.Confidence = MedianCI(sorted, Confidence)
	logs := make([]float64, p.N)
	for i, r := range ratios {
		logs[i] = math.Log(r)
	}
	p.P = WilcoxonSignedRank(logs)
	p.AdjustedP = p.P
	decide(&p)
	return p
}

// newPair fills what every comparison has before any statistics.
func newPair(paired bool, base, cand []float64, threshold float64) result.Pair {
	p := result.Pair{
		Paired:      paired,
		BaseN:       len(base),
		CandidateN:  len(cand),
		Threshold:   CleanThreshold(threshold),
		Alpha:       DefaultAlpha,
		Comparisons: 1,
		Confidence:  Confidence,
		P:           math.NaN(),
		AdjustedP:   math.NaN(),
		Ratio:       math.NaN(),
		CILow:       math.NaN(),
		CIHigh:      math.NaN(),
	}
	if checkTimes("", base) == "" && len(base) > 0 {
		p.BaseMedian = Median(base)
	}
	if checkTimes("", cand) == "" && len(cand) > 0 {
		p.CandidateMedian = Median(cand)
	}
	return p
}
