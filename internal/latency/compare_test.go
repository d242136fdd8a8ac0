package latency

import (
	"math/rand/v2"
	"testing"
)

// calls draws n call times: most about 1 µs (uniform 1-1.1 µs), and 2% a
// slow path about tail ns (uniform over ±5%).
func calls(rng *rand.Rand, n int, tail float64) *Histogram {
	h := New()
	for range n {
		if rng.Float64() < 0.02 {
			h.Record(int64(tail * (0.95 + 0.1*rng.Float64())))
			continue
		}
		h.Record(int64(1000 + 100*rng.Float64()))
	}
	return h
}

// Constructed samples of 20,000 calls a side: a slow path 20% slower moves
// p99 by 20% and leaves the median alone. p99's ratio reads about 1.2 with
// its whole interval past a 5% change (in at least 8 draws of 10), the
// median's interval reaches inside 5%; two draws of the same distribution
// have every interval reach inside 5% (in 20 of 20), at a family's level.
func TestEstimateQuantile(t *testing.T) {
	const n, threshold = 20000, 0.05
	beyond := func(c QuantileRatio) bool { return c.Lo > 1+threshold || c.Hi < 1-threshold }
	rng := rand.New(rand.NewPCG(3, 4))
	clear := 0
	for range 10 {
		base, cand := calls(rng, n, 100_000), calls(rng, n, 120_000)
		c, ok := EstimateQuantile(base, cand, 0.99, 0.95)
		if beyond(c) {
			clear++
		}
		if !ok || c.Lo > c.Ratio || c.Hi < c.Ratio || c.Ratio < 1.1 || c.Ratio > 1.3 {
			t.Errorf("p99: ratio %.3f in [%.3f, %.3f] (ok %v), want about 1.2 inside its interval", c.Ratio, c.Lo, c.Hi, ok)
		}
		if m, _ := EstimateQuantile(base, cand, 0.5, 0.95); beyond(m) {
			t.Errorf("median: ratio %.3f in [%.3f, %.3f], want the interval within 5%%", m.Ratio, m.Lo, m.Hi)
		}
	}
	if clear < 8 {
		t.Errorf("a 20%% slower p99 past 5%% in %d of 10 draws, want at least 8", clear)
	}
	for range 20 {
		base, cand := calls(rng, n, 100_000), calls(rng, n, 100_000)
		for _, p := range []float64{0.5, 0.99} {
			if c, _ := EstimateQuantile(base, cand, p, 0.975); beyond(c) {
				t.Errorf("the same distribution: %s ratio %.3f in [%.3f, %.3f], past 5%%", Name(p), c.Ratio, c.Lo, c.Hi)
			}
		}
	}
	// Too few calls for p99.9: no estimate, whatever the ratio.
	base, cand := calls(rng, 5000, 100_000), calls(rng, 5000, 200_000)
	if c, ok := EstimateQuantile(base, cand, 0.999, 0.95); ok || c.Ratio != 0 {
		t.Errorf("p99.9 of 5,000 calls: %+v (ok %v), want no estimate", c, ok)
	}
	// A higher level (a family of comparisons) widens the interval.
	one, _ := EstimateQuantile(base, cand, 0.99, 0.95)
	three, _ := EstimateQuantile(base, cand, 0.99, 1-0.05/3)
	if !(three.Lo <= one.Lo && three.Hi >= one.Hi) || three.Level <= one.Level {
		t.Errorf("at %.3f [%.3f, %.3f], at %.3f [%.3f, %.3f]: want the higher level wider", three.Level, three.Lo, three.Hi, one.Level, one.Lo, one.Hi)
	}
}
