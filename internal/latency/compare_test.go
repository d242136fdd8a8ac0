package latency

import (
	"math/rand/v2"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
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
// p99 by 20% and leaves the median alone; the comparison of p99 claims it
// (in 10 draws of 10), and that of the median does not. Two draws of the
// same distribution are claimed different in none of 20.
func TestCompareQuantile(t *testing.T) {
	const n, threshold = 20000, 0.05
	rng := rand.New(rand.NewPCG(3, 4))
	slower := 0
	for range 10 {
		base, cand := calls(rng, n, 100_000), calls(rng, n, 120_000)
		c := CompareQuantile(base, cand, 0.99, 1, 0.05, threshold)
		if c.Verdict == result.Slower {
			slower++
		}
		if c.Lo > c.Ratio || c.Hi < c.Ratio || c.Ratio < 1.1 || c.Ratio > 1.3 {
			t.Errorf("p99: ratio %.3f in [%.3f, %.3f], want about 1.2 inside its interval", c.Ratio, c.Lo, c.Hi)
		}
		if m := CompareQuantile(base, cand, 0.5, 1, 0.05, threshold); m.Verdict != result.NoDifference {
			t.Errorf("median: %s (ratio %.3f in [%.3f, %.3f]), want no difference", m.Verdict, m.Ratio, m.Lo, m.Hi)
		}
	}
	if slower < 8 {
		t.Errorf("a 20%% slower p99 claimed in %d of 10 draws, want at least 8", slower)
	}
	for range 20 {
		base, cand := calls(rng, n, 100_000), calls(rng, n, 100_000)
		for _, p := range []float64{0.5, 0.99} {
			if c := CompareQuantile(base, cand, p, 2, 0.05, threshold); c.Verdict != result.NoDifference {
				t.Errorf("the same distribution: %s claimed %s (ratio %.3f in [%.3f, %.3f])", Name(p), c.Verdict, c.Ratio, c.Lo, c.Hi)
			}
		}
	}
	// Too few calls for p99.9: no verdict, whatever the ratio.
	base, cand := calls(rng, 5000, 100_000), calls(rng, 5000, 200_000)
	if c := CompareQuantile(base, cand, 0.999, 1, 0.05, threshold); c.Verdict != result.NoDifference || c.Ratio != 0 {
		t.Errorf("p99.9 of 5,000 calls: %+v, want no verdict", c)
	}
	// A family of comparisons widens each interval.
	one := CompareQuantile(base, cand, 0.99, 1, 0.05, threshold)
	three := CompareQuantile(base, cand, 0.99, 3, 0.05, threshold)
	if !(three.Lo <= one.Lo && three.Hi >= one.Hi) || three.Level <= one.Level {
		t.Errorf("three comparisons [%.3f, %.3f] at %.3f, one [%.3f, %.3f] at %.3f: want the three wider", three.Lo, three.Hi, three.Level, one.Lo, one.Hi, one.Level)
	}
}
