package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// UnpairedAt compares two separate runs (benchy compare OLD NEW): the
// samples of one were taken at another time, maybe on another machine, so
// nothing pairs them.
//
// Method: the ratio is the ratio of the medians, cand/base, and its
// confidence interval at level is the percentile bootstrap: resample each
// side with replacement, take the ratio of the two medians, repeat
// (Resamples), and keep the percentiles either side of level (2.5th and
// 97.5th at 95%). The generator has a fixed seed, so
// the same files always give the same interval. Assumption: within each run
// the samples are independent draws of one distribution; a drift inside a
// run, or a machine that differs between the runs, is not in the interval
// (benchy compare lists the machine differences for that reason). The
// bootstrap of a median is coarse for small samples (the median of a
// resample takes few distinct values) and tends to be a little narrow
// below about 20 samples; the verdict also needs the Mann-Whitney p-value.
//
// Minimum: MinSamples (6) samples on each side; otherwise the estimate is
// refused with the reason. Its test, Mann-Whitney, is not the one the
// interval inverts: RunsAt, which benchy compares separate runs with,
// replaces both by one that is.
func UnpairedAt(base, cand []float64, level float64) Estimate {
	e := newEstimate(false, base, cand)
	e.Level, e.Confidence = level, level
	e.N = min(len(base), len(cand))
	if r := checkTimes("base", base) + checkTimes("candidate", cand); r != "" {
		return refuse(e, r)
	}
	if e.N < MinSamples {
		return refuse(e, tooFewSamples(len(base), len(cand)))
	}
	e.Ratio = e.CandidateMedian / e.BaseMedian
	e.CILow, e.CIHigh = bootstrapRatio(base, cand, level)
	// The percentile interval of a discrete statistic can, rarely, miss the
	// estimate itself; an interval must contain its estimate.
	e.CILow, e.CIHigh = min(e.CILow, e.Ratio), max(e.CIHigh, e.Ratio)
	e.P = MannWhitney(base, cand)
	return e
}

// Resamples is the number of bootstrap resamples for n values in all:
// 10000 (Monte Carlo error of a 95% bound about 0.2 percentile points),
// fewer for large samples so that one comparison draws at most 2e7 random
// numbers (about 0.1 s), and never fewer than 1000.
func Resamples(n int) int {
	return max(1000, min(10000, 20_000_000/max(n, 1)))
}

// bootstrapSeed fixes the generator: the same data give the same interval.
const bootstrapSeed = 0x62656e636879 // "benchy"

// bootstrapRatio is the level percentile-bootstrap interval of
// median(cand)/median(base).
func bootstrapRatio(base, cand []float64, level float64) (lo, hi float64) {
	rng := rand.New(rand.NewPCG(bootstrapSeed, 1))
	b := newResampler(base)
	c := newResampler(cand)
	ratios := make([]float64, Resamples(len(base)+len(cand)))
	for i := range ratios {
		ratios[i] = c.median(rng) / b.median(rng)
	}
	slices.Sort(ratios)
	tail := (1 - level) / 2
	n := float64(len(ratios))
	return ratios[int(math.Floor(tail*n))], ratios[int(math.Ceil((1-tail)*n))-1]
}

// resampler draws the median of a resample with replacement in O(n), no
// sort: it counts how often each (sorted) value is drawn and walks the
// counts to the middle.
type resampler struct {
	sorted []float64
	counts []int
}

func newResampler(xs []float64) *resampler {
	s := slices.Clone(xs)
	slices.Sort(s)
	return &resampler{sorted: s, counts: make([]int, len(s))}
}

func (r *resampler) median(rng *rand.Rand) float64 {
	n := len(r.sorted)
	clear(r.counts)
	for range n {
		r.counts[rng.IntN(n)]++
	}
	// 0-based ranks of the middle: equal for odd n.
	loRank, hiRank := (n-1)/2, n/2
	var lo float64
	seen := 0
	for i, c := range r.counts {
		if c == 0 {
			continue
		}
		if seen <= loRank && loRank < seen+c {
			lo = r.sorted[i]
		}
		if seen <= hiRank && hiRank < seen+c {
			return (lo + r.sorted[i]) / 2
		}
		seen += c
	}
	return lo // not reached: the counts sum to n
}
