package stats

import "strconv"

// Several comparisons made at once are one family: with m of them at level
// 0.05 the chance that at least one shows noise as a difference grows to
// about m·5%. benchy holds that chance (the family-wise error rate) at
// alpha with Bonferroni's rule, applied to the p-values and to the
// intervals alike: each p-value is multiplied by m (Bonferroni), and each
// interval is taken at the level 1-alpha/m (FamilyLevel), so that the
// intervals hold together with probability at least 1-alpha and a pair's
// interval excludes 1 exactly when its adjusted p-value is below alpha:
// the verdict and the numbers beside it never disagree. (Holm's step-down
// rule rejects a little more often, but has no intervals that agree with
// it; benchy used it before, and printed a Holm-adjusted p = 0.12 beside a
// 95% interval of +0.16% to +4.3%.) It assumes nothing about how the
// comparisons depend on each other.

// FamilyLevel is the confidence level of each interval of a family of m
// comparisons held to alpha together: 1-alpha/m (0.95 for one at 0.05,
// 0.983 for three). An alpha outside (0, 1) means DefaultAlpha.
func FamilyLevel(m int, alpha float64) float64 {
	if !(alpha > 0 && alpha < 1) {
		alpha = DefaultAlpha
	}
	return 1 - alpha/float64(max(m, 1))
}

// atLevel says the level of an interval when it is not 95%, for a reason.
func atLevel(level float64) string {
	if level == Confidence {
		return ""
	}
	return " at the " + strconv.FormatFloat(100*level, 'f', -1, 64) + "% level of several comparisons at once"
}
