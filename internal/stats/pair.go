package stats

import (
	"math"
	"strconv"
)

// The pair statistics estimate, from two sets of ns/op samples, the ratio
// candidate/base: a confidence interval of the ratio and the two-sided test
// that interval inverts (the sign test on the per-round ratios of
// interleaved rounds, Welch's t on the run medians when each side has
// several runs, a normal test of the interval widened by run-to-run
// variation for one run a side). The interval and the test are one method,
// so they agree: the interval excludes 1 exactly when p is below 1 minus
// its level. Whether that is a difference worth claiming (a threshold,
// a family of comparisons, a busy machine) is internal/compare's to say.
//
// They do statistics only: they read no files, print nothing and judge
// nothing.

// Defaults.
const (
	// DefaultAlpha is the significance level of the test: a difference is
	// claimed only when the (adjusted) p-value is below it.
	DefaultAlpha = 0.05
	// Confidence is the level of the confidence interval of a single
	// comparison; several at once take FamilyLevel.
	Confidence = 0.95
	// MinSamples is the fewest rounds (PairedWith) or samples per side
	// (UnpairedAt) an estimate is given for. Six is the smallest n for which
	// the order-statistic interval of a median has 95% coverage
	// (2 * 0.5^6 = 3.1% < 5%; with 5 it is 6.3%), and with six per side
	// the Mann-Whitney test can reach p = 0.002. With fewer the estimate
	// is refused and says why.
	MinSamples = 6
)

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
// an estimate (fewer than MinSamples on a side).
func tooFewSamples(nb, nc int) string {
	return "too few samples: " + strconv.Itoa(nb) + "+" + strconv.Itoa(nc) +
		", need at least " + strconv.Itoa(MinSamples) + " on each side to tell"
}
