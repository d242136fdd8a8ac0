package stats

import "math"

// The distributions of the tests and intervals: Student's t, the standard
// normal and the binomial, by the formulas of gonum's distuv over our own
// special functions (beta.go and normalQuantile below). The numbers are
// distuv's to 1e-10 over the parameters benchy uses (the tests hold them
// to 1e-9), the normal quantile's to the bit; in the far tails of the t
// quantile, where distuv's (Cephes' incbi) strays by up to 1e-5, ours
// gives p back through distuv's own CDF. distuv itself imports gonum's
// stat and, through it, its matrices and LAPACK: about 20 packages and a
// megabyte in every program built on benchy, for four functions; its
// special functions, mathext, four more.

// tSurvival is P(T > x) for Student's t with nu degrees of freedom
// (distuv.StudentsT.Survival): half the regularized incomplete beta
// function at nu/(x²+nu), exact in the far tail where 1-CDF would round
// to 0.
func tSurvival(x, nu float64) float64 {
	if x == 0 {
		return 0.5
	}
	half := 0.5 * regIncBeta(nu/2, 0.5, nu/(x*x+nu))
	if x > 0 {
		return half
	}
	return 1 - half
}

// tQuantile is the p-quantile of Student's t with nu degrees of freedom
// (distuv.StudentsT.Quantile), for p in [0, 1].
func tQuantile(p, nu float64) float64 {
	switch {
	case p == 0.5:
		return 0
	case p > 0.5:
		t := invRegIncBeta(nu/2, 0.5, 2*(1-p))
		return math.Sqrt(nu * (1 - t) / t)
	}
	t := invRegIncBeta(nu/2, 0.5, 2*p)
	return -math.Sqrt(nu * (1 - t) / t)
}

// normalSurvival is P(Z > x) for the standard normal Z
// (distuv.UnitNormal.Survival).
func normalSurvival(x float64) float64 {
	return 0.5 * (1 - math.Erf(x/math.Sqrt2))
}

// normalQuantile is the p-quantile of the standard normal
// (distuv.UnitNormal.Quantile), for p in [0, 1]: -Inf at 0, +Inf at 1.
//
// Method: Wichura's algorithm AS 241 (PPND16, Applied Statistics 37,
// 1988), three rational functions of degree 7 — of (p-½)² in the middle
// (|p-½| ≤ 0.425), of r = √-log(min(p, 1-p)) in the tails (r ≤ 5, then
// beyond) — accurate to about 1e-16 relative everywhere.
func normalQuantile(p float64) float64 {
	switch {
	case p <= 0:
		return math.Inf(-1)
	case p >= 1:
		return math.Inf(1)
	}
	q := p - 0.5
	if math.Abs(q) <= 0.425 {
		r := 0.180625 - q*q
		return q * poly(as241Central[0], r) / poly(as241Central[1], r)
	}
	r := math.Sqrt(-math.Log(min(p, 1-p)))
	var z float64
	if r <= 5 {
		z = poly(as241Near[0], r-1.6) / poly(as241Near[1], r-1.6)
	} else {
		z = poly(as241Far[0], r-5) / poly(as241Far[1], r-5)
	}
	if q < 0 {
		return -z
	}
	return z
}

// poly is c[0] + c[1]·x + … + c[n]·xⁿ, by Horner's rule.
func poly(c []float64, x float64) float64 {
	s := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		s = s*x + c[i]
	}
	return s
}

// The coefficients of AS 241 (PPND16), numerator then denominator, from
// the constant term up, as the paper lists them (a, b; c, d; e, f).
var (
	as241Central = [2][]float64{
		{3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125,
			45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727},
		{1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077,
			21213.794301586595867, 39307.89580009271061, 28729.085735721942674, 5226.495278852854561},
	}
	as241Near = [2][]float64{
		{1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504,
			1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833, 7.7454501427834140764e-4},
		{1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455,
			0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4, 1.05075007164441684324e-9},
	}
	as241Far = [2][]float64{
		{6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123,
			0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5, 2.01033439929228813265e-7},
		{1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525,
			7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7, 2.04426310338993978564e-15},
	}
)
