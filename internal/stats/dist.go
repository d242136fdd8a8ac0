package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// The distributions of the tests and intervals: Student's t, the standard
// normal and the binomial, computed from gonum's special functions
// (mathext) by the formulas of gonum's distuv, so the numbers are the
// same. distuv itself imports gonum's stat and, through it, its matrices
// and LAPACK: about 20 packages and a megabyte in every program built on
// benchy, for four functions.

// tSurvival is P(T > x) for Student's t with nu degrees of freedom
// (distuv.StudentsT.Survival): half the regularized incomplete beta
// function at nu/(x²+nu), exact in the far tail where 1-CDF would round
// to 0.
func tSurvival(x, nu float64) float64 {
	if x == 0 {
		return 0.5
	}
	half := 0.5 * mathext.RegIncBeta(nu/2, 0.5, nu/(x*x+nu))
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
		t := mathext.InvRegIncBeta(nu/2, 0.5, 2*(1-p))
		return math.Sqrt(nu * (1 - t) / t)
	}
	t := mathext.InvRegIncBeta(nu/2, 0.5, 2*p)
	return -math.Sqrt(nu * (1 - t) / t)
}

// normalSurvival is P(Z > x) for the standard normal Z
// (distuv.UnitNormal.Survival).
func normalSurvival(x float64) float64 {
	return 0.5 * (1 - math.Erf(x/math.Sqrt2))
}

// normalQuantile is the p-quantile of the standard normal
// (distuv.UnitNormal.Quantile), for p in [0, 1].
func normalQuantile(p float64) float64 { return mathext.NormalQuantile(p) }
