// Package latency keeps the times of single calls and reads percentiles
// from them: a log-bucketed histogram with a bounded relative error
// (HdrHistogram's idea), and the percentiles with their order-statistic
// intervals.
//
// The histogram is our own, not a library: it is a few dozen lines, no Go
// module of HdrHistogram's design is among the ones this project may use,
// and recording must be one increment with no allocation on the measured
// thread, which a small fixed array gives.
package latency

import (
	"math"
	"math/bits"

	"github.com/benchy-dev/benchy/internal/result"
)

// SubBits sets the resolution: values below 2^SubBits ns (256 ns) have a
// bucket of their own, and every power of two above is cut into
// 2^(SubBits-1) = 128 buckets, so a bucket is at most 1/128 (0.8%) of its
// lowest value wide, and a value read back from its middle is within 0.4%.
const SubBits = 8

const (
	sub  = 1 << SubBits
	half = sub / 2
	// nBuckets covers every int64: the top value has bits.Len64 63, so a
	// shift of at most 63-SubBits.
	nBuckets = sub + (63-SubBits)*half
)

// Histogram counts call times in ns. The zero value is not usable: New.
type Histogram struct {
	counts   []uint64
	n        uint64
	sum      uint64
	min, max int64
}

// New returns an empty histogram. Its one allocation (about 58 KB) is
// here: Record never allocates.
func New() *Histogram {
	return &Histogram{counts: make([]uint64, nBuckets), min: math.MaxInt64}
}

// index is the bucket of v >= 0.
func index(v int64) int {
	if v < sub {
		return int(v)
	}
	s := bits.Len64(uint64(v)) - SubBits // >= 1: the bits below the top SubBits
	top := int(v >> s)                   // in [half, sub)
	return sub + (s-1)*half + top - half
}

// bounds are the lowest value of bucket i and its width.
func bounds(i int) (low, width int64) {
	if i < sub {
		return int64(i), 1
	}
	s := (i-sub)/half + 1
	top := int64((i-sub)%half + half)
	return top << s, 1 << s
}

// Record counts one call of ns nanoseconds; a negative time counts as 0
// (a call faster than the clock's cost subtracted from it).
func (h *Histogram) Record(ns int64) {
	ns = max(ns, 0)
	h.counts[index(ns)]++
	h.n++
	h.sum += uint64(ns)
	h.min = min(h.min, ns)
	h.max = max(h.max, ns)
}

// Merge adds o's counts to h.
func (h *Histogram) Merge(o *Histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
	h.min = min(h.min, o.min)
	h.max = max(h.max, o.max)
}

// Count is how many calls were recorded.
func (h *Histogram) Count() uint64 { return h.n }

// Sum is the total of the recorded times (exact).
func (h *Histogram) Sum() uint64 { return h.sum }

// Min and Max are the exact extremes; 0 when nothing was recorded.
func (h *Histogram) Min() int64 {
	if h.n == 0 {
		return 0
	}
	return h.min
}

func (h *Histogram) Max() int64 { return h.max }

// AtRank is the time of the call of 1-based rank k in ascending order:
// the middle of its bucket, kept within the exact min and max; rank 1 and
// rank Count are the exact min and max. Ranks outside 1..Count are
// clamped; 0 when nothing was recorded.
func (h *Histogram) AtRank(k uint64) int64 {
	switch {
	case h.n == 0:
		return 0
	case k <= 1:
		return h.min
	case k >= h.n:
		return h.max
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= k {
			low, w := bounds(i)
			return min(max(low+w/2, h.min), h.max)
		}
	}
	return h.max
}

// Rank is the nearest rank of the p-quantile of n values: the smallest k
// with k >= p·n, at least 1 (stats.Quantile's definition, so p90 means
// the same here as for samples).
func Rank(p float64, n uint64) uint64 {
	return max(uint64(math.Ceil(p*float64(n)-1e-9)), 1)
}

// Quantile is the nearest-rank p-quantile of the recorded times.
func (h *Histogram) Quantile(p float64) int64 { return h.AtRank(Rank(p, h.n)) }

// Store writes the histogram into l (the calls, extremes and the
// non-empty buckets), leaving l's other fields alone.
func (h *Histogram) Store(l *result.Latency) {
	l.Calls, l.SumNs, l.MinNs, l.MaxNs, l.SubBits = h.n, h.sum, h.Min(), h.max, SubBits
	l.Buckets = nil
	for i, c := range h.counts {
		if c > 0 {
			low, _ := bounds(i)
			l.Buckets = append(l.Buckets, result.LatencyBucket{LowNs: low, Count: c})
		}
	}
}

// Load reads back a histogram Store wrote. A bucket with a negative low
// value is counted at 0; a file of another resolution (SubBits) is read
// bucket by bucket into this one's, which keeps its counts and moves each
// to the bucket of its low value.
func Load(l result.Latency) *Histogram {
	h := New()
	for _, b := range l.Buckets {
		h.counts[index(max(b.LowNs, 0))] += b.Count
		h.n += b.Count
	}
	if h.n > 0 {
		h.sum, h.min, h.max = l.SumNs, max(l.MinNs, 0), max(l.MaxNs, 0)
	}
	return h
}
