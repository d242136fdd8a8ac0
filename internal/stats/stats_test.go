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
