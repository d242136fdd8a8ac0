package compare

import (
	"math"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// A count's figures per op: each counted run totals an event over its ops
// plus what a run costs once (a program's start, a benchmark's first call);
// stats.Line takes the cost of one op from runs of several sizes, so that
// the cost paid once cancels, or the median per op of runs of one size.

// CountPerOp is c's count of event per op; false when no run counted it.
// result.EventEstCycles is derived from the cache events' figures
// (result.EstimatedCycles). A nil count has no figures (Count.Points).
func CountPerOp(c *result.Count, event string) (float64, bool) {
	if event == result.EventEstCycles {
		ev := map[string]float64{}
		for _, e := range result.CacheEvents {
			if v, ok := CountPerOp(c, e); ok {
				ev[e] = v
			}
		}
		return result.EstimatedCycles(ev)
	}
	slope, _, ok := stats.Line(c.Points(event))
	return slope, ok
}

// CountSamples is each run's count of event per op with the cost paid
// once taken out, (count - intercept) / ops, in run order: their spread is
// the count's noise within the run. Runs without the event are left out.
func CountSamples(c *result.Count, event string) []float64 {
	if event == result.EventEstCycles {
		return estCyclesSamples(c)
	}
	xs, ys := c.Points(event)
	_, a, ok := stats.Line(xs, ys)
	if !ok {
		return nil
	}
	out := make([]float64, len(xs))
	for i := range xs {
		out[i] = (ys[i] - a) / xs[i]
	}
	return out
}

func estCyclesSamples(c *result.Count) []float64 {
	per := map[string][]float64{}
	for _, e := range result.CacheEvents {
		per[e] = CountSamples(c, e)
	}
	n := len(per[result.EventIr])
	var out []float64
	for i := range n {
		ev := map[string]float64{}
		for _, e := range result.CacheEvents {
			if i < len(per[e]) && len(per[e]) == n {
				ev[e] = per[e][i]
			}
		}
		v, ok := result.EstimatedCycles(ev)
		if !ok {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// CountSpread is the relative spread of the runs' figures of event around
// the per-op figure: the largest |x - perOp| / perOp; 0 with fewer than two
// runs, or a per-op figure of 0.
func CountSpread(c *result.Count, event string) float64 {
	per, ok := CountPerOp(c, event)
	xs := CountSamples(c, event)
	if !ok || per == 0 || len(xs) < 2 {
		return 0
	}
	var worst float64
	for _, x := range xs {
		worst = max(worst, math.Abs(x-per)/math.Abs(per))
	}
	return worst
}

// countRelError is the relative standard error of the per-op figure of
// event (stats.LineRelError); 0 when it cannot be told (two runs on a
// line, one run), and then only the floor of the run-to-run variation
// stands for the noise.
func countRelError(c *result.Count, event string) float64 {
	return stats.LineRelError(c.Points(event))
}
