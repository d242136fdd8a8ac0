package latency

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// withinBucket reports whether got reads back the true value want: both
// in one bucket, or got within that bucket's width of want.
func withinBucket(got, want int64) bool {
	_, w := bounds(index(max(want, 0)))
	return index(max(got, 0)) == index(max(want, 0)) || abs(got-want) <= w
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Every bucket starts where the one before it ends, and is at most
// 1/2^(SubBits-1) of its value wide: the relative error is bounded.
func TestBuckets(t *testing.T) {
	for i := 1; i < nBuckets; i++ {
		low, w := bounds(i)
		plow, pw := bounds(i - 1)
		if plow+pw != low {
			t.Fatalf("bucket %d starts at %d, the one before ends at %d", i, low, plow+pw)
		}
		if low >= sub && float64(w)/float64(low) > 1.0/half {
			t.Fatalf("bucket %d: width %d at %d, over 1/%d", i, w, low, half)
		}
		if index(low) != i || index(low+w-1) != i {
			t.Fatalf("bucket %d [%d, %d): its ends index to %d and %d", i, low, low+w, index(low), index(low+w-1))
		}
	}
	if i := index(math.MaxInt64); i != nBuckets-1 {
		t.Errorf("index(MaxInt64) = %d, want the last bucket, %d", i, nBuckets-1)
	}
}

// Distributions with a known tail: every reported percentile is the true
// nearest-rank one within a bucket, and the interval holds it.
func TestPercentilesKnownTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name string
		n    int
		draw func(i int) int64
	}{
		// 1 call in 1,000 takes 1 ms, the rest 1 µs: p99 is 1 µs, p99.9
		// is still 1 µs (rank 19,980 of 20,000) and the max is 1 ms.
		{"rare 1ms", 20000, func(i int) int64 {
			if i%1000 == 999 {
				return 1_000_000
			}
			return 1000
		}},
		// 1 in 50 takes 1 ms: p99 is in the tail, p90 is not.
		{"2% at 1ms", 5000, func(i int) int64 {
			if i%50 == 7 {
				return 1_000_000
			}
			return 1000
		}},
		{"exponential", 30000, func(int) int64 { return int64(200 + 5000*rng.ExpFloat64()) }},
		{"log-normal", 30000, func(int) int64 { return int64(math.Exp(8 + 1.5*rng.NormFloat64())) }},
		{"tiny", 1000, func(i int) int64 { return int64(i % 7) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := New()
			xs := make([]float64, c.n)
			for i := range xs {
				v := c.draw(i)
				h.Record(v)
				xs[i] = float64(v)
			}
			slices.Sort(xs)
			for _, q := range Percentiles(h, Reported, 0.95) {
				if uint64(c.n) < q.Need {
					if q.Reported {
						t.Errorf("%s reported from %d calls, needs %d", q.Name, c.n, q.Need)
					}
					continue
				}
				want := int64(stats.Quantile(q.P, xs))
				if !q.Reported || !withinBucket(q.Ns, want) {
					t.Errorf("%s = %d (reported %v), truth %d", q.Name, q.Ns, q.Reported, want)
				}
				if q.LoNs > q.Ns || (q.HiNs >= 0 && q.HiNs < q.Ns) {
					t.Errorf("%s = %d outside its interval [%d, %d]", q.Name, q.Ns, q.LoNs, q.HiNs)
				}
			}
			if h.Max() != int64(xs[len(xs)-1]) || h.Min() != int64(xs[0]) || h.Count() != uint64(c.n) {
				t.Errorf("min %d max %d count %d, want %v %v %d", h.Min(), h.Max(), h.Count(), xs[0], xs[len(xs)-1], c.n)
			}
		})
	}
}

// The rare slow call shows where it should: with 1 in 1,000 at 100x, the
// median and p99 are the fast call's, the max the slow one's, and p99.9 is
// not reported from 9,999 calls (it needs 10,000).
func TestRareSlowPath(t *testing.T) {
	h := New()
	for i := range 9999 {
		h.Record(map[bool]int64{true: 100_000, false: 1000}[i%1000 == 0])
	}
	ps := Percentiles(h, Reported, 0.95)
	if !withinBucket(ps[0].Ns, 1000) || !withinBucket(ps[2].Ns, 1000) || h.Max() != 100_000 {
		t.Errorf("p50 %d, p99 %d, max %d: want 1000, 1000, 100000", ps[0].Ns, ps[2].Ns, h.Max())
	}
	if ps[3].Reported || ps[3].Need != 10000 || ps[3].Name != "p99.9" {
		t.Errorf("p99.9 from 9,999 calls: %+v, want not reported, needing 10000", ps[3])
	}
	h.Record(1000)
	if q := Percentiles(h, Reported, 0.95)[3]; !q.Reported {
		t.Errorf("p99.9 from 10,000 calls: not reported")
	}
}

func TestNameNeed(t *testing.T) {
	for p, want := range map[float64]string{0.5: "p50", 0.9: "p90", 0.99: "p99", 0.999: "p99.9", 0.9999: "p99.99"} {
		if got := Name(p); got != want {
			t.Errorf("Name(%v) = %q, want %q", p, got, want)
		}
	}
	for p, want := range map[float64]uint64{0.5: 20, 0.9: 100, 0.99: 1000, 0.999: 10000} {
		if got := Need(p); got != want {
			t.Errorf("Need(%v) = %d, want %d", p, got, want)
		}
	}
}

// Store then Load gives the same histogram, and Merge adds counts.
func TestStoreLoadMerge(t *testing.T) {
	h := New()
	for _, v := range []int64{-5, 0, 3, 255, 256, 1000, 1001, 77_777_777, math.MaxInt64} {
		h.Record(v)
	}
	var l result.Latency
	h.Store(&l)
	if got := Load(l); !reflect.DeepEqual(got, h) {
		t.Errorf("Load(Store(h)) differs from h")
	}
	m := New()
	m.Merge(h)
	m.Merge(h)
	if m.Count() != 2*h.Count() || m.Sum() != 2*h.Sum() || m.Max() != h.Max() || m.Min() != 0 || m.Quantile(0.5) != h.Quantile(0.5) {
		t.Errorf("merged twice: count %d sum %d max %d min %d p50 %d", m.Count(), m.Sum(), m.Max(), m.Min(), m.Quantile(0.5))
	}
	if e := New(); e.Quantile(0.5) != 0 || e.Min() != 0 || e.Max() != 0 {
		t.Errorf("an empty histogram reads %d %d %d, want zeros", e.Quantile(0.5), e.Min(), e.Max())
	}
}

// Recording never allocates: it runs between timed calls.
func TestRecordAllocates(t *testing.T) {
	h := New()
	if a := testing.AllocsPerRun(100, func() { h.Record(12345) }); a != 0 {
		t.Errorf("Record allocates %v times", a)
	}
}

// Any times, read back at any rank: within a bucket of the sorted value,
// the extremes exact, and a Store/Load round trip unchanged.
func FuzzHistogram(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200, 0, 0, 0, 9}, uint16(3))
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 127}, uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, r uint16) {
		h := New()
		var xs []int64
		for len(data) >= 4 {
			v := int64(int32(uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16 | uint32(data[3])<<24))
			v <<= data[0] % 32 // reach large values too
			data = data[4:]
			h.Record(v)
			xs = append(xs, max(v, 0))
		}
		if len(xs) == 0 {
			return
		}
		slices.Sort(xs)
		k := uint64(r)%uint64(len(xs)) + 1
		if got, want := h.AtRank(k), xs[k-1]; !withinBucket(got, want) {
			t.Fatalf("rank %d of %v: %d, want %d within a bucket", k, xs, got, want)
		}
		if h.AtRank(1) != xs[0] || h.AtRank(uint64(len(xs))) != xs[len(xs)-1] || h.Count() != uint64(len(xs)) {
			t.Fatalf("extremes %d, %d of %d calls; want %d, %d of %d", h.AtRank(1), h.AtRank(uint64(len(xs))), h.Count(), xs[0], xs[len(xs)-1], len(xs))
		}
		var l result.Latency
		h.Store(&l)
		if !reflect.DeepEqual(Load(l), h) {
			t.Fatalf("Load(Store(h)) differs from h")
		}
	})
}

// The tail of tail/rare-slow's shape: 2 calls in 1,000 at 100x hold
// 200/1198 of the time; a steady distribution has no tail.
func TestTailOf(t *testing.T) {
	h := New()
	for i := range 100_000 {
		h.Record(map[bool]int64{true: 100_000, false: 1000}[i%500 == 0])
	}
	tl := TailOf(h, TailFactor)
	if tl.Calls != 200 || tl.CallShare != 0.002 || math.Abs(tl.TimeShare-200.0/1198) > 0.005 || !withinBucket(tl.AboveNs, 10_000) {
		t.Errorf("tail %+v: want 200 calls (0.2%%), 16.7%% of the time, beyond ~10µs", *tl)
	}
	s := New()
	for i := range 1000 {
		s.Record(int64(1000 + i%50))
	}
	if tl := TailOf(s, TailFactor); tl.Calls != 0 || tl.TimeShare != 0 {
		t.Errorf("steady calls: tail %+v, want none", *tl)
	}
	if TailOf(New(), TailFactor) != nil {
		t.Error("no calls: a tail")
	}
}
