// Package statstest makes the samples the tests of the statistics
// (internal/stats) and of the verdicts drawn from them (internal/compare)
// share: noisy times, a candidate scaled from its base round by round,
// runs that differ as wholes, and processes taken in pairs. Every maker
// takes a seed, so a test's data are the same on every run.
package statstest

import (
	"math"
	"math/rand/v2"
)

// Noisy returns n times around center with a relative spread sd (normal
// noise, fixed seed), never below half the center.
func Noisy(seed uint64, n int, center, sd float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 7))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = center * max(0.5, 1+sd*rng.NormFloat64())
	}
	return xs
}

// Scaled returns xs times f, each with its own extra noise sd (the
// candidate of a paired round: same machine state, its own jitter).
func Scaled(seed uint64, xs []float64, f, sd float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 11))
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f * (1 + sd*rng.NormFloat64())
	}
	return out
}

// Runs makes k runs of n samples around center, each run shifted by its
// own run effect (relative sd runSD) and each sample by noise sd.
func Runs(rng *rand.Rand, k, n int, center, runSD, sd float64) [][]float64 {
	out := make([][]float64, k)
	for r := range out {
		level := center * math.Exp(runSD*rng.NormFloat64())
		out[r] = make([]float64, n)
		for i := range out[r] {
			out[r][i] = level * (1 + sd*rng.NormFloat64())
		}
	}
	return out
}

// PairedProcesses is k rounds of one process of each side: each round's
// machine state (±4%) is shared by both of its processes, each process
// has its own ±0.3% and 11 samples of 0.5% noise; cand is change slower.
func PairedProcesses(seed uint64, k int, change float64) (base, cand [][]float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	for i := range k {
		round := 100 * (1 + 0.04*rng.NormFloat64())
		b := round * (1 + 0.003*rng.NormFloat64())
		c := round * (1 + 0.003*rng.NormFloat64()) * (1 + change)
		base = append(base, Noisy(seed*100+uint64(i), 11, b, 0.005))
		cand = append(cand, Noisy(seed*100+50+uint64(i), 11, c, 0.005))
	}
	return base, cand
}
