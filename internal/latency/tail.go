package latency

import "github.com/benchy-dev/benchy/internal/result"

// TailFactor is how far beyond the median a call is in the tail: 10x,
// an order of magnitude, well past the jitter of the clock and the
// caches (a call 2x its median is common on a quiet machine) and the
// usual line between "slow" and "a different path".
const TailFactor = 10

// TailOf measures the calls of h beyond factor times its median: how many,
// their share of the calls, and their share of the time (their times read
// from the middle of their buckets, so within 0.4%). Nil for no calls.
func TailOf(h *Histogram, factor float64) *result.Tail {
	if h.Count() == 0 {
		return nil
	}
	above := int64(factor * float64(h.Quantile(0.5)))
	t := &result.Tail{Factor: factor, AboveNs: above}
	var ns float64
	for i, c := range h.counts {
		if low, w := bounds(i); c > 0 && low > above {
			t.Calls += c
			ns += float64(c) * float64(min(max(low+w/2, h.min), h.max))
		}
	}
	t.CallShare = float64(t.Calls) / float64(h.Count())
	if h.Sum() > 0 {
		t.TimeShare = min(ns/float64(h.Sum()), 1)
	}
	return t
}
