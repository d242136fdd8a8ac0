package stats

import "math"

// Line estimates the cost of one unit from totals taken at several sizes:
// ys[i] is what xs[i] units cost, plus a cost paid once whatever the size.
// With two sizes or more it is the least-squares line ys = slope·xs +
// intercept, so the cost paid once is the intercept and cancels from the
// slope; with one size only nothing can cancel it, and slope is the median
// of ys[i]/xs[i] with an intercept of 0. ok is false with no point.
func Line(xs, ys []float64) (slope, intercept float64, ok bool) {
	slope, intercept, _, ok = line(xs, ys)
	return slope, intercept, ok
}

// line is Line, with the sum of squares of the sizes about their mean
// (sxx, 0 for one size) that its standard error needs.
func line(xs, ys []float64) (slope, intercept, sxx float64, ok bool) {
	if len(xs) == 0 || len(xs) != len(ys) {
		return 0, 0, 0, false
	}
	mx, my := Mean(xs), Mean(ys)
	var sxy float64
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	if sxx == 0 {
		per := make([]float64, len(xs))
		for i := range xs {
			per[i] = ys[i] / xs[i]
		}
		return Median(per), 0, 0, true
	}
	slope = sxy / sxx
	return slope, my - slope*mx, sxx, true
}

// LineRelError is the relative standard error of Line's slope: from the
// scatter of the points about the line (three points or more), or, with
// one size only, of the median of the ratios, their standard deviation
// over √n. 0 when it cannot be told (two points on a line, one point, a
// slope of 0).
func LineRelError(xs, ys []float64) float64 {
	slope, a, sxx, ok := line(xs, ys)
	n := float64(len(xs))
	if !ok || slope == 0 || len(xs) < 3 {
		return 0
	}
	var ss float64
	if sxx == 0 {
		for i := range xs {
			d := ys[i]/xs[i] - slope
			ss += d * d
		}
		return math.Sqrt(ss/(n-1)) / math.Sqrt(n) / math.Abs(slope)
	}
	for i := range xs {
		r := ys[i] - (slope*xs[i] + a)
		ss += r * r
	}
	return math.Sqrt(ss/(n-2)/sxx) / math.Abs(slope)
}
