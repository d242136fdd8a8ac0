package compare

import (
	"math"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// A verdict answers "is B faster than A?" from an estimate of the ratio
// B/A (internal/stats) and claims a difference only when it is bigger than
// the noise.
//
// A comparison has three pieces of evidence: a confidence interval of the
// ratio candidate/base, the two-sided test that interval inverts, and a
// threshold below which a change is too small to matter. When several
// comparisons are made at once both the p-value and the interval are held
// to the family (Bonferroni: the p-value times m, the interval at
// 1-alpha/m; see stats.FamilyLevel). The verdict is "faster" or "slower"
// only when the interval excludes 1 and the change, and the whole interval,
// lie beyond the threshold. Otherwise it is "no difference detected",
// which is not a proof of equality: it says the data do not show one.

// DefaultThreshold is the smallest relative change of time per op claimed
// as a difference (2%): on a quiet machine, runs of the same code on the
// same CPU differ by about 1%, so smaller changes are more likely the
// machine than the code.
const DefaultThreshold = 0.02

// A Rule is what an estimate is held to.
type Rule struct {
	// Threshold is the smallest change claimed: the floor asked for
	// (--threshold), 0 for none; below 0 (or NaN) counts as 0.
	Threshold float64
	// Measured makes the threshold the larger of Threshold and the drift
	// the run measured (stats.Estimate.Drift): what the interval does not
	// see.
	Measured bool
}

// Judge holds the estimate e to the rule r as a comparison made alone (a
// family is held together by Bonferroni afterwards) and gives the pair
// with its verdict: "not comparable" with the reason when e has no
// estimate.
func Judge(e stats.Estimate, r Rule) result.Pair {
	p := result.Pair{
		Paired: e.Paired, PairedRuns: e.PairedRuns, BaseRuns: e.BaseRuns, CandidateRuns: e.CandidateRuns,
		RunNoise: e.RunNoise, RunNoiseAssumed: e.RunNoiseAssumed, Detectable: e.Detectable,
		BaseMedian: e.BaseMedian, CandidateMedian: e.CandidateMedian,
		Ratio: e.Ratio, CILow: e.CILow, CIHigh: e.CIHigh, Level: e.Level, Confidence: e.Confidence,
		LookShare: e.LookShare, P: e.P, Drift: e.Drift,
		N: e.N, BaseN: e.BaseN, CandidateN: e.CandidateN,
		Threshold: cleanThreshold(r.Threshold), Alpha: stats.DefaultAlpha, Comparisons: 1,
	}
	if e.Refused != "" {
		p.AdjustedP = math.NaN()
		markNotComparable(&p, e.Refused)
		return p
	}
	p.AdjustedP = min(1, p.P/p.Share())
	if r.Measured {
		p.Threshold = max(p.Threshold, p.Drift)
		p.ThresholdMeasured = true
	}
	decide(&p)
	return p
}

// cleanThreshold makes a threshold usable: negative or NaN is 0.
func cleanThreshold(t float64) float64 {
	if !(t >= 0) {
		return 0
	}
	return t
}

// markNotComparable sets the verdict to "not comparable" for reason (for
// example an error finding on one side); Bonferroni then leaves the pair out.
func markNotComparable(p *result.Pair, reason string) {
	p.Verdict, p.Reason = result.NotComparable, reason
}

// markInconclusive sets the verdict to "inconclusive" for reason (the
// machine was busy while one side was measured): the statistics stay, as
// evidence, but no difference is claimed from them. Bonferroni still counts the
// pair: it was tested.
func markInconclusive(p *result.Pair, reason string) {
	p.Verdict, p.Reason = result.Inconclusive, reason
}

// despite judges p again knowing that the machine interfered (busy says
// how) and could have distorted a side by up to bound (0.7 = 1.7x): a
// difference whose whole interval lies beyond that distortion is still
// claimed, and the sentence says despite what; anything else is
// inconclusive. Bonferroni still counts the pair either way.
func despite(p *result.Pair, busy string, bound float64) {
	if p.Verdict == result.NotComparable {
		return
	}
	if (p.Verdict == result.Faster || p.Verdict == result.Slower) && (p.CILow > 1+bound || p.CIHigh < 1/(1+bound)) {
		p.Busy, p.BusyBound = busy, bound
		return
	}
	markInconclusive(p, busy+": rerun on a quieter machine")
}

// bonferroni adjusts the p-values of a family of comparisons whose
// intervals were taken at stats.FamilyLevel(m, alpha), m the number of
// them that have a test, and decides every verdict again: AdjustedP =
// min(1, m·P), divided by the share of alpha of the look for a run with
// looks (stats.LookShare). Pairs that are not comparable have no test and
// are left out of m; inconclusive ones were tested and count. With one
// comparison AdjustedP = P. An alpha outside (0, 1) means
// stats.DefaultAlpha.
func bonferroni(pairs []result.Pair, alpha float64) {
	if !(alpha > 0 && alpha < 1) {
		alpha = stats.DefaultAlpha
	}
	m := tested(pairs)
	for i := range pairs {
		if pairs[i].Verdict == result.NotComparable {
			continue
		}
		pairs[i].AdjustedP = min(1, float64(m)*pairs[i].P/pairs[i].Share())
		pairs[i].Comparisons = m
		pairs[i].Alpha = alpha
		decide(&pairs[i])
	}
}

// tested counts the pairs that have a test: all but the not comparable.
func tested(pairs []result.Pair) int {
	m := 0
	for _, p := range pairs {
		if p.Verdict != result.NotComparable {
			m++
		}
	}
	return m
}

// decide sets the verdict and its reason from the evidence. The
// rule, in order: the interval must exclude 1, the adjusted p-value must
// be below alpha, the change must exceed the threshold, and so must the
// whole interval (a change whose interval reaches inside the threshold may
// be no bigger than the noise); the first that fails is the reason. A pair
// marked not comparable or inconclusive stays so.
func decide(p *result.Pair) {
	if p.Verdict != result.NotComparable && p.Verdict != result.Inconclusive {
		p.Verdict, p.Reason = verdict(*p)
		if p.Busy != "" && !(p.CILow > 1+p.BusyBound || p.CIHigh < 1/(1+p.BusyBound)) {
			// The family adjustment moved the interval's verdict back within what the
			// machine could have made.
			p.Verdict, p.Reason = result.Inconclusive, p.Busy+": rerun on a quieter machine"
		}
	}
}

func verdict(p result.Pair) (string, string) {
	change := p.Change()
	ci := "the " + units.Level(p.Level) + " confidence interval"
	switch {
	case p.CILow <= 1 && p.CIHigh >= 1:
		return result.NoDifference, ci + " includes 1"
	case !(p.AdjustedP < p.Alpha):
		return result.NoDifference, "p=" + units.PValue(p.AdjustedP) + " is not below " + units.PValue(p.Alpha)
	case !(math.Abs(change) > p.Threshold):
		return result.NoDifference, "the change, " + units.Change(change) + ", is within the " + thresholdText(p)
	case !(p.CIHigh-1 < -p.Threshold || p.CILow-1 > p.Threshold):
		// The estimate is past the threshold, but the interval reaches
		// back inside it: the change may be no bigger than the noise.
		return result.NoDifference, ci + " reaches within the " + thresholdText(p)
	case change < 0:
		return result.Faster, ""
	default:
		return result.Slower, ""
	}
}

// thresholdText names p's threshold and, when it is the drift the run
// measured, says so: "2% threshold", "0.31% threshold (the ratio's drift
// over the run)".
func thresholdText(p result.Pair) string {
	if p.ThresholdMeasured && p.Drift > 0 && p.Threshold == p.Drift {
		return units.Pct(p.Threshold) + " threshold (how far the ratio drifted during the run)"
	}
	return units.Percent(p.Threshold) + " threshold"
}
