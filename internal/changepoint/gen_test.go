package changepoint

import (
	"math"
	"math/rand/v2"
)

// series returns n samples of 100·level(i)·(1 + sigma·Z), Z standard
// normal, from a generator seeded with seed: a benchmark's ns/op in run
// order with relative noise sigma.
func series(seed uint64, n int, sigma float64, level func(r *rand.Rand, i int) float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	xs := make([]float64, n)
	for i := range xs {
		l := level(r, i)
		xs[i] = 100 * l * (1 + sigma*r.NormFloat64())
	}
	return xs
}

func flat(*rand.Rand, int) float64 { return 1 }

// step is 1 before sample at and 1+d from it on.
func step(at int, d float64) func(*rand.Rand, int) float64 {
	return func(_ *rand.Rand, i int) float64 {
		if i >= at {
			return 1 + d
		}
		return 1
	}
}

// decay is a warm-up: 1 + a·exp(-i/tau), within 1% of the plateau from
// i = tau·ln(100a) on (sample 8 for a = 0.5, tau = 2).
func decay(a, tau float64) func(*rand.Rand, int) float64 {
	return func(_ *rand.Rand, i int) float64 { return 1 + a*math.Exp(-float64(i)/tau) }
}

// drift rises linearly from 1 at the first sample to 1+d at the last of n.
func drift(n int, d float64) func(*rand.Rand, int) float64 {
	return func(_ *rand.Rand, i int) float64 { return 1 + d*float64(i)/float64(n-1) }
}

// hog is 1+d over samples [from, to), 1 elsewhere.
func hog(from, to int, d float64) func(*rand.Rand, int) float64 {
	return func(_ *rand.Rand, i int) float64 {
		if i >= from && i < to {
			return 1 + d
		}
		return 1
	}
}

// bimodal is 1 or 1+d, each sample independently with probability 1/2.
func bimodal(d float64) func(*rand.Rand, int) float64 {
	return func(r *rand.Rand, _ int) float64 {
		if r.IntN(2) == 1 {
			return 1 + d
		}
		return 1
	}
}
