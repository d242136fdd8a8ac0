package stats

import (
	"math"
)

// Welch compares the means of two independent samples a and b with
// unequal variances (Welch's t-test): it returns the difference
// mean(b) - mean(a), its two-sided confidence interval at level conf, and
// the two-sided p-value. benchy applies it to the logarithms of the
// medians of whole runs (or processes), so the difference is the log of
// the ratio of their geometric means and the unit of the test is the run:
// samples of one run share its heap, its layout and its machine state, and
// are not independent of each other.
//
// Degrees of freedom: Welch-Satterthwaite. Assumption: the run medians of
// each side are independent draws of a normal distribution (on the log
// scale), which is how run-to-run variation behaves when no single cause
// dominates. Minimum: two values on each side (a variance needs two); with
// fewer, ok is false. When both variances are 0 the difference is exact
// and the interval is that single point (p 0 if it is not 0, 1 if it is).
func Welch(a, b []float64, conf float64) (diff, lo, hi, p float64, ok bool) {
	na, nb := float64(len(a)), float64(len(b))
	if len(a) < 2 || len(b) < 2 {
		return 0, 0, 0, 0, false
	}
	ma, va := MeanVar(a)
	mb, vb := MeanVar(b)
	diff = mb - ma
	se2 := va/na + vb/nb
	if se2 == 0 {
		if diff == 0 {
			return 0, 0, 0, 1, true
		}
		return diff, diff, diff, 0, true
	}
	se := math.Sqrt(se2)
	df := se2 * se2 / ((va/na)*(va/na)/(na-1) + (vb/nb)*(vb/nb)/(nb-1))
	q := tQuantile(1-(1-conf)/2, df)
	p = 2 * tSurvival(math.Abs(diff)/se, df)
	return diff, diff - q*se, diff + q*se, min(1, p), true
}

// Mean is the arithmetic mean of xs; NaN when xs is empty.
func Mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// MeanVar is the mean and the sample variance (divided by n-1) of xs; the
// variance is NaN for fewer than two values.
func MeanVar(xs []float64) (mean, variance float64) {
	mean = Mean(xs)
	for _, x := range xs {
		variance += (x - mean) * (x - mean)
	}
	return mean, variance / float64(len(xs)-1)
}
