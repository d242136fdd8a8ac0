package changepoint

import (
	"math"
	"slices"

	"github.com/benchy-dev/benchy/internal/stats"
)

// DetectWeighted is Detect for values of unequal precision: ws[i] is the
// weight of xs[i], the inverse of its variance up to a common factor (a
// value measured twice as precisely weighs four times as much), as asv's
// step detection weighs each commit by its own interval. The model of a
// segment is normal with its own mean and a variance σ²/w_i for value i,
// and its cost m·log(σ̂²) with σ̂² = Σ w_i (y_i - μ̂)² / m and μ̂ the
// weighted mean: twice the negative log-likelihood less terms that are the
// same for every segmentation. The weights are scaled to a mean of 1, so
// that equal weights give Detect's result exactly and the penalty means
// the same. A value of low weight moves a segment's mean and variance
// less: an outlier that was measured badly costs less to leave in a
// segment than to cut off. Weights that are not positive and finite, or
// fewer than len(xs), make it Detect.
func DetectWeighted(xs, ws []float64, penalty float64) []int {
	n := len(xs)
	if len(ws) != n || slices.ContainsFunc(ws, func(w float64) bool { return !(w > 0) || math.IsInf(w, 1) }) {
		return Detect(xs, penalty)
	}
	ys, floor, sigma, ok := prepare(xs, penalty)
	if !ok {
		return nil
	}
	return search(newWeightedCosts(clip(ys, sigma, spikeK), ws, floor), n, penalty, MaxCandidates)
}

// newWeightedCosts is newCosts with weights ws, scaled to a mean of 1.
func newWeightedCosts(ys, ws []float64, floor float64) costs {
	n := len(ys)
	c := costs{s0: make([]float64, n+1), s1: make([]float64, n+1), s2: make([]float64, n+1), floor: floor, logFloor: math.Log(floor)}
	if n == 0 {
		return c
	}
	var total float64
	for _, w := range ws {
		total += w
	}
	scale := float64(n) / total
	centre := stats.Median(ys)
	for i, y := range ys {
		w, d := ws[i]*scale, y-centre
		c.s0[i+1] = c.s0[i] + w
		c.s1[i+1] = c.s1[i] + w*d
		c.s2[i+1] = c.s2[i] + w*d*d
	}
	return c
}
