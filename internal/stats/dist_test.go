package stats

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The distributions are distuv's formulas over special functions of our
// own (beta.go, normalQuantile): every value must be distuv's to within
// distTolerance, relative, over the degrees of freedom, probabilities and
// trials benchy meets (t with 1 to 1000 degrees of freedom, p near 0 and 1
// and at the levels the code uses, binomials of up to 1000 trials), or,
// for the t quantile in the far tails, give p back through distuv's CDF.
// Where gonum's own functions lose digits (the far tails of very many
// trials, ~1e-10 at a hundred thousand) TestRegIncBeta checks ours against
// closed forms instead.
func TestDistributionsAreDistuvs(t *testing.T) {
	xs := []float64{-40, -3.5, -1.96, -0.3, 0, 1e-9, 0.7, 2.2, 6, 38}
	ps := []float64{0, 1e-300, 1e-12, 1e-6, 0.001, 0.025, 0.05 / 50, 0.3, 0.5, 0.8, 0.95, 0.975, 1 - 0.05/6, 0.9995, 1 - 1e-9, 1 - 1e-12, 1}
	var worst float64
	check := func(what string, got, want float64) {
		t.Helper()
		if e := relErr(got, want); e > distTolerance || math.IsNaN(e) {
			t.Errorf("%s = %v, distuv %v (relative error %.2g)", what, got, want, e)
		} else if e > worst {
			worst = e
			t.Logf("%s = %v, distuv %v (relative error %.2g)", what, got, want, e)
		}
	}
	nus := []float64{4.37, 29.5, 1e5}
	for nu := 1; nu <= 1000; nu++ {
		nus = append(nus, float64(nu))
	}
	for _, nu := range nus {
		d := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}
		for _, x := range xs {
			check(fmt.Sprintf("tSurvival(%v, %v)", x, nu), tSurvival(x, nu), d.Survival(x))
		}
		for _, p := range ps {
			if p == 1e-300 {
				continue // the beta's argument of a Cauchy's quantile, about p², is below float64's range
			}
			q := tQuantile(p, nu)
			if 1e-6 <= p && p <= 1-1e-6 {
				check(fmt.Sprintf("tQuantile(%v, %v)", p, nu), q, d.Quantile(p))
			}
			// In the far tails distuv's quantile (Cephes' incbi) strays
			// by up to 1e-5; its CDF does not: the quantile must give p
			// back through it, the smaller tail compared.
			if p < 0.5 {
				check(fmt.Sprintf("distuv's CDF(tQuantile(%v, %v))", p, nu), d.CDF(q), p)
			} else {
				check(fmt.Sprintf("distuv's Survival(tQuantile(%v, %v))", p, nu), d.Survival(q), 1-p)
			}
		}
	}
	for _, x := range xs {
		check(fmt.Sprintf("normalSurvival(%v)", x), normalSurvival(x), distuv.UnitNormal.Survival(x))
	}
	for _, p := range ps {
		check(fmt.Sprintf("normalQuantile(%v)", p), normalQuantile(p), distuv.UnitNormal.Quantile(p))
	}
	for n := 1; n <= 1000; n++ {
		for _, p := range []float64{0.5, 0.05, 0.9, 0.001, 0.999} {
			for k := -1; k <= n+1; k += max(1, n/37) {
				check(fmt.Sprintf("binomCDF(%d, %v, %d)", n, p, k), binomCDF(n, p, k), (distuv.Binomial{N: float64(n), P: p}).CDF(float64(k)))
			}
		}
	}
	t.Logf("largest relative difference from distuv: %.2g", worst)
}

// distTolerance is how far, relative, a distribution's value may stray
// from distuv's. The special functions agree to about 1e-12 over the grid;
// a verdict compares a p-value or an interval's end with a threshold, and
// moves only for a value within this of it.
const distTolerance = 1e-9

// relErr is |got-want| relative to want, or to 1e-300 for a smaller want
// (subnormal numbers hold too few digits to compare): 0 when they are
// equal (two infinities or two NaNs included), NaN when only one is NaN.
func relErr(got, want float64) float64 {
	switch {
	case got == want || math.IsNaN(got) && math.IsNaN(want):
		return 0
	case math.IsNaN(got) || math.IsNaN(want):
		return math.NaN()
	}
	return math.Abs(got-want) / max(math.Abs(want), 1e-300)
}

// Quantile is gonum's nearest-rank (stat.Empirical) quantile.
func TestQuantileIsEmpirical(t *testing.T) {
	sorted := []float64{1, 2, 2, 3, 5, 8, 13, 21, 34}
	for _, p := range []float64{0, 0.01, 0.1, 1.0 / 9, 0.5, 0.9, 0.99, 1} {
		for n := 1; n <= len(sorted); n++ {
			if got, want := Quantile(p, sorted[:n]), stat.Quantile(p, stat.Empirical, sorted[:n], nil); got != want {
				t.Errorf("Quantile(%v) of %v = %v, stat.Empirical %v", p, sorted[:n], got, want)
			}
		}
	}
	if q := Quantile(0.5, []float64{1, math.NaN()}); !math.IsNaN(q) {
		t.Errorf("Quantile with a NaN = %v, want NaN", q)
	}
}
