package stats

import (
	"math"
	"strconv"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// The pair statistics answer "is B faster than A?" from two sets of ns/op
// samples, and claim a difference only when it is bigger than the noise.
//
// A comparison (Pair) has three pieces of evidence: a confidence interval
// of the ratio candidate/base, the two-sided test that interval inverts
// (the sign test on the per-round ratios of interleaved rounds, Welch's t
// on the run medians when each side has several runs, a normal test of
// the interval widened by run-to-run variation for one run a side), and a
// threshold below which a change is too small to matter. The interval and
// the test are one method, so they agree: the interval excludes 1 exactly
// when p is below alpha. When several comparisons are made at once both
// are held to the family (Bonferroni: the p-value times m, the interval at
// 1-alpha/m; see FamilyLevel). The verdict is "faster" or "slower" only
// when the interval excludes 1 and the change, and the whole interval,
// lie beyond the threshold. Otherwise it is "no difference detected",
// which is not a proof of equality: it says the data do not show one.
//
// They do statistics only: they read no files and print nothing; the
// sentences a person reads are the writers' (internal/render).

// Defaults.
const (
	// DefaultThreshold is the smallest relative change of time per op
	// claimed as a difference (2%): on a quiet machine, runs of the same
	// code on the same CPU differ by about 1%, so smaller changes are
	// more likely the machine than the code.
	DefaultThreshold = 0.02
	// DefaultAlpha is the significance level of the test: a difference is
	// claimed only when the (adjusted) p-value is below it.
	DefaultAlpha = 0.05
	// Confidence is the level of the confidence interval of a single
	// comparison; several at once take FamilyLevel.
	Confidence = 0.95
	// MinSamples is the fewest rounds (PairedWith) or samples per side
	// (UnpairedAt) a verdict is given for. Six is the smallest n for which
	// the order-statistic interval of a median has 95% coverage
	// (2 * 0.5^6 = 3.1% < 5%; with 5 it is 6.3%), and with six per side
	// the Mann-Whitney test can reach p = 0.002. With fewer the verdict is
	// "not comparable" and says why.
	MinSamples = 6
)

// MarkNotComparable sets the verdict to "not comparable" for reason (for
// example an error finding on one side); Bonferroni then leaves the pair out.
func MarkNotComparable(p *result.Pair, reason string) {
	p.Verdict, p.Reason = result.NotComparable, reason
}

// MarkInconclusive sets the verdict to "inconclusive" for reason (the
// machine was busy while one side was measured): the statistics stay, as
// evidence, but no difference is claimed from them. Bonferroni still counts the
// pair: it was tested.
func MarkInconclusive(p *result.Pair, reason string) {
	p.Verdict, p.Reason = result.Inconclusive, reason
}

// Despite judges p again knowing that the machine interfered (busy says
// how) and could have distorted a side by up to bound (0.7 = 1.7x): a
// difference whose whole interval lies beyond that distortion is still
// claimed, and the sentence says despite what; anything else is
// inconclusive. Bonferroni still counts the pair either way.
func Despite(p *result.Pair, busy string, bound float64) {
	if p.Verdict == result.NotComparable {
		return
	}
	if (p.Verdict == result.Faster || p.Verdict == result.Slower) && (p.CILow > 1+bound || p.CIHigh < 1/(1+bound)) {
		p.Busy, p.BusyBound = busy, bound
		return
	}
	MarkInconclusive(p, busy+": rerun on a quieter machine")
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

// CleanThreshold makes a threshold usable: negative or NaN is 0.
func CleanThreshold(t float64) float64 {
	if !(t >= 0) {
		return 0
	}
	return t
}

// checkTimes returns why xs cannot be compared, or "": every time must be
// a positive finite number.
func checkTimes(side string, xs []float64) string {
	for i, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			return side + " sample " + strconv.Itoa(i+1) + " is not a positive time per op"
		}
	}
	return ""
}

// tooFewSamples is why nb and nc samples on the two sides are too few for
// a verdict (fewer than MinSamples on a side).
func tooFewSamples(nb, nc int) string {
	return "too few samples: " + strconv.Itoa(nb) + "+" + strconv.Itoa(nc) +
		", need at least " + strconv.Itoa(MinSamples) + " on each side to tell"
}
