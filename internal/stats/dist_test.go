package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The distributions are distuv's formulas over the same special functions:
// every value must be distuv's, to the bit, or a verdict could move.
func TestDistributionsAreDistuvs(t *testing.T) {
	xs := []float64{-40, -3.5, -1.96, -0.3, 0, 1e-9, 0.7, 2.2, 6, 38}
	ps := []float64{0, 1e-12, 0.001, 0.025, 0.3, 0.5, 0.8, 0.975, 0.9995, 1 - 1e-12, 1}
	for _, nu := range []float64{1, 2, 4.37, 9, 29, 300, 1e5} {
		d := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: nu}
		for _, x := range xs {
			if got, want := tSurvival(x, nu), d.Survival(x); !same(got, want) {
				t.Errorf("tSurvival(%v, %v) = %v, distuv %v", x, nu, got, want)
			}
		}
		for _, p := range ps {
			if got, want := tQuantile(p, nu), d.Quantile(p); !same(got, want) {
				t.Errorf("tQuantile(%v, %v) = %v, distuv %v", p, nu, got, want)
			}
		}
	}
	for _, x := range xs {
		if got, want := normalSurvival(x), distuv.UnitNormal.Survival(x); !same(got, want) {
			t.Errorf("normalSurvival(%v) = %v, distuv %v", x, got, want)
		}
	}
	for _, p := range ps {
		if got, want := normalQuantile(p), distuv.UnitNormal.Quantile(p); !same(got, want) {
			t.Errorf("normalQuantile(%v) = %v, distuv %v", p, got, want)
		}
	}
	for _, n := range []int{1, 6, 25, 1000} {
		for _, p := range []float64{0.5, 0.05, 0.9} {
			for k := -1; k <= n+1; k += max(1, n/7) {
				if got, want := binomCDF(n, p, k), (distuv.Binomial{N: float64(n), P: p}).CDF(float64(k)); !same(got, want) {
					t.Errorf("binomCDF(%d, %v, %d) = %v, distuv %v", n, p, k, got, want)
				}
			}
		}
	}
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

// same is float equality that counts two NaNs as equal.
func same(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
