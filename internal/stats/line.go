package stats

import "math"

// Line estimates the cost of one unit from totals taken at several sizes:
// ys[i] is what xs[i] units cost, plus a cost paid once whatever the size.
// With two sizes or more it is the least-squares line ys = slope·xs +
// intercept, so the cost paid once is the intercept and cancels from the
// slope; with one size only nothing can cancel it, and slope is the median
// of ys[i]/xs[i] with an intercept of 0. ok is false with no point.
func Line(xs, ys []float64) (slope, intercept float64, ok bool) {
	if len(xs) == 0 || len(xs) != len(ys) {
		return 0, 0, false
	}
	mx, my := Mean(xs), Mean(ys)
	var sxx, sxy float64
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	if sxx == 0 {
		per := make([]float64, len(xs))
		for i := range xs {
			per[i] = ys[i] / xs[i]
		}
		return Median(per), 0, true
	}
	slope = sxy / sxx
	return slope, my - slope*mx, true
}

// LineRelError is the relative standard error of Line's slope: from the
// scatter of the points about the line (three points or more), or, with
// one size only, of the median of the ratios, their standard deviation
// over √n. 0 when it cannot be told (two points on a line, one point, a
// slope of 0).
func LineRelError(xs, ys []float64) float64 {
	slope, a, ok := Line(xs, ys)
	n := float64(len(xs))
	if !ok || slope == 0 || len(xs) < 3 {
		return 0
	}
	mx := Mean(xs)
	var sxx float64
	for _, x := range xs {
		sxx += (x - mx) * (x - mx)
	}
	if sxx == 0 {
		var ss float64
		for i := range xs {
			d := ys[i]/xs[i] - slope
			ss += d * d
		}
		return math.Sqrt(ss/(n-1)) / math.Sqrt(n) / math.Abs(slope)
	}
	var ssr float64
	for i := range xs {
		r := ys[i] - (slope*xs[i] + a)
		ssr += r * r
	}
	return math.Sqrt(ssr/(n-2)/sxx) / math.Abs(slope)
}
