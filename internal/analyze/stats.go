package analyze

import (
	"math"
	"slices"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Compute returns the distribution of ns/op over samples. Samples without
// iterations carry no time per op and are left out, so N may be smaller
// than len(samples); with N == 0 every field is 0 and means "nothing
// measured", which the writers print as such.
//
//   - Min, Max: the smallest and largest ns/op. For a microbenchmark the
//     noise only adds time, so Min is the best estimate of the cost.
//   - Median: the middle value, or the mean of the two middle values for an
//     even N. It is the headline number: robust to a few disturbed samples.
//   - P90: nearest rank, the smallest value at least 90% of the samples do
//     not exceed (gonum stat.Quantile with stat.Empirical on sorted values);
//     for N < 10 it is the max.
//   - Mean and StdDev: arithmetic mean and sample standard deviation
//     (divided by N-1; 0 when N == 1).
//   - MAD: median absolute deviation from the median, unscaled (multiply by
//     1.4826 to estimate σ of a normal distribution).
func Compute(samples []result.Sample) result.Stats {
	xs := result.NsPerOp(samples)
	if len(xs) == 0 {
		return result.Stats{}
	}
	slices.Sort(xs)
	n := len(xs)
	st := result.Stats{
		N:      n,
		Min:    xs[0],
		Median: stats.MedianSorted(xs),
		P90:    stats.Quantile(0.9, xs),
		Max:    xs[n-1],
	}
	mean, variance := stats.MeanVar(xs)
	st.Mean = mean
	if n > 1 {
		st.StdDev = math.Sqrt(variance)
	}
	st.MAD = stats.MAD(xs, st.Median)
	return st
}

// reported is the median over samples of each per-op value a benchmark
// reported of itself, by unit (result.Stats.Reported); nil when it
// reported none.
func reported(samples []result.Sample) map[string]float64 {
	by := map[string][]float64{}
	for _, s := range samples {
		for unit, v := range s.Metrics {
			by[unit] = append(by[unit], v)
		}
	}
	if len(by) == 0 {
		return nil
	}
	out := make(map[string]float64, len(by))
	for unit, xs := range by {
		out[unit] = stats.Median(xs)
	}
	return out
}
