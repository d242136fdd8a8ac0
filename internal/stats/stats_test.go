package stats

import (
	"math"
	"slices"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}, {[]float64{5, 5, 5, 5}, 5},
	} {
		in := slices.Clone(tt.xs)
		if got := Median(tt.xs); got != tt.want {
			t.Errorf("Median(%v) = %v, want %v", tt.xs, got, tt.want)
		}
		if !slices.Equal(in, tt.xs) {
			t.Errorf("Median changed its input: %v -> %v", in, tt.xs)
		}
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(MedianSorted(nil)) {
		t.Error("the median of nothing must be NaN, not a number that looks measured")
	}
}

func TestMAD(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 100}
	if got := MAD(xs, Median(xs)); got != 1 {
		t.Errorf("MAD = %v, want 1 (deviations 2 1 0 1 97)", got)
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if got := Quantile(0.9, xs); got != 9 {
		t.Errorf("p90 of 1..10 = %v, want 9 (nearest rank)", got)
	}
	if got := Quantile(0.9, xs[:5]); got != 5 {
		t.Errorf("p90 of 1..5 = %v, want the max", got)
	}
	if !math.IsNaN(Quantile(0.5, nil)) {
		t.Error("quantile of nothing must be NaN")
	}
}

func TestMannWhitney(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5}
	b := []float64{6, 7, 8, 9, 10}
	if p := MannWhitney(a, b); !(p < 0.01) {
		t.Errorf("p = %v for disjoint samples of 5, want < 0.01", p)
	}
	if p := MannWhitney(a, a); p != 1 {
		t.Errorf("p = %v for identical samples, want 1", p)
	}
	if a[0] != 1 || b[0] != 6 {
		t.Error("MannWhitney changed its input")
	}
}

func TestWelch(t *testing.T) {
	// By hand: means 19.88 and 22.8, variances 0.977 and 0.925, se 0.6168,
	// t = 4.734 on 7.99 degrees of freedom (t(0.975, 8) = 2.306):
	// interval 2.92 ± 1.422, p = 0.0015.
	a := []float64{19.1, 20.2, 21.3, 18.8, 20.0}
	b := []float64{22.0, 23.1, 21.8, 24.2, 22.9}
	diff, lo, hi, p, ok := Welch(a, b, 0.95)
	if !ok || math.Abs(diff-2.92) > 1e-9 || math.Abs(lo-1.498) > 0.002 || math.Abs(hi-4.342) > 0.002 || math.Abs(p-0.00148) > 0.0001 {
		t.Errorf("Welch = %v [%v, %v] p %v ok %v", diff, lo, hi, p, ok)
	}
	if _, _, _, _, ok := Welch([]float64{1}, b, 0.95); ok {
		t.Error("one value on a side must not give an interval")
	}
	if d, lo, hi, p, ok := Welch([]float64{1, 1}, []float64{1, 1}, 0.95); !ok || d != 0 || lo != 0 || hi != 0 || p != 1 {
		t.Errorf("identical constants: %v [%v, %v] p %v", d, lo, hi, p)
	}
}

// The median's interval is exact: for 10 samples at 95% the 2nd and 9th
// order statistics (coverage 1 - 2·P(Binomial(10, 1/2) <= 1) = 97.85%); for
// 5 there is none.
func TestMedianCIExact(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	lo, hi, cov := MedianCI(xs, 0.95)
	if lo != 2 || hi != 9 || math.Abs(cov-0.978515625) > 1e-9 {
		t.Errorf("n=10: [%v, %v] at %v, want [2, 9] at 0.9785", lo, hi, cov)
	}
	lo, hi, _ = MedianCI(xs[:5], 0.95)
	if !math.IsInf(lo, -1) && !math.IsInf(hi, 1) {
		t.Errorf("n=5: [%v, %v], want no finite interval", lo, hi)
	}
	if w := MedianCIHalfWidthSorted(xs[:5]); !math.IsInf(w, 1) {
		t.Errorf("half width of 5 samples %v, want +Inf: no precision is reached", w)
	}
}
