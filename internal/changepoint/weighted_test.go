package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Equal weights, whatever their scale, are Detect.
func TestDetectWeightedEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range 50 {
		xs := make([]float64, 40+k)
		for i := range xs {
			level := 1.0
			if i > len(xs)/2 {
				level = 1 + 0.02*float64(k%4)
			}
			xs[i] = level * math.Exp(0.01*rng.NormFloat64())
		}
		ws := slices.Repeat([]float64{float64(k + 1)}, len(xs))
		if got, want := DetectWeighted(xs, ws, 4*math.Log(float64(len(xs)))), Detect(xs, 4*math.Log(float64(len(xs)))); !slices.Equal(got, want) {
			t.Errorf("series %d: weighted %v, unweighted %v", k, got, want)
		}
	}
}

// A burst of three values 30% high (which the spike filter keeps) is a
// segment of its own when it weighs as much as the rest, and none when
// its values weigh a hundredth: they were measured badly. A real step
// stays whatever the weights of others.
func TestDetectWeightedOutliers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 60
	xs := make([]float64, n)
	ws := make([]float64, n)
	for i := range xs {
		xs[i] = math.Exp(0.01 * rng.NormFloat64())
		ws[i] = 1
	}
	for i := 20; i < 23; i++ {
		xs[i] *= 1.3
		ws[i] = 0.01
	}
	pen := 4 * math.Log(float64(n))
	if cps := Detect(xs, pen); len(cps) == 0 {
		t.Fatalf("unweighted: no change at the burst")
	}
	if cps := DetectWeighted(xs, ws, pen); len(cps) != 0 {
		t.Errorf("weighted: changes %v at a burst of a hundredth the weight", cps)
	}
	for i := 40; i < n; i++ {
		xs[i] *= 1.05
	}
	if cps := DetectWeighted(xs, ws, pen); !slices.Equal(cps, []int{40}) {
		t.Errorf("weighted: changes %v, want the step at 40", cps)
	}
	// Weights that cannot be used leave Detect.
	ws[5] = math.NaN()
	if got, want := DetectWeighted(xs, ws, pen), Detect(xs, pen); !slices.Equal(got, want) {
		t.Errorf("a NaN weight: %v, Detect %v", got, want)
	}
}
