package compare

import (
	"math"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// DefaultPercentile is the percentile of the single calls a comparison
// with --latency judges unless told otherwise: p99, the tail most service
// objectives name, which 1,000 calls a side can give.
const DefaultPercentile = 0.99

// TailFloor is the least change of a percentile of single calls claimed:
// a histogram bucket is up to 1.6% wide, and calls one after another are
// not independent (a slow stretch slows many), which the interval does not
// see; the medians' floor (2%) is too close to both.
const TailFloor = 0.05

// tail compares the percentile p of the single calls of cand with base's,
// one of m comparisons held together (latency.EstimateQuantile at
// stats.FamilyLevel), under the rules of the medians: a change is claimed
// only when its whole interval, and the ratio, lie beyond the threshold
// (at least TailFloor); a side that cannot be used is not comparable, and a machine
// that interfered with either side (its findings, the run's) leaves a
// change inconclusive. A tail is where time taken away from the thread
// shows first and most, so no bound makes a claim safe there: the medians
// are judged despite interference when the change exceeds what it could
// explain, the tails never.
func tail(base, cand *result.Experiment, run []string, p float64, m int, threshold float64) *result.TailPair {
	t := &result.TailPair{Percentile: latency.Name(p), P: p, Verdict: result.NoDifference}
	if base.Latency == nil || cand.Latency == nil {
		t.Verdict, t.Reason = result.NotComparable, "the calls were not timed one by one"
		return t
	}
	c, ok := latency.EstimateQuantile(latency.Load(*base.Latency), latency.Load(*cand.Latency), p, stats.FamilyLevel(m, stats.DefaultAlpha))
	t.BaseNs, t.CandidateNs, t.Ratio, t.Level = c.BaseNs, c.CandNs, c.Ratio, c.Level
	t.Low = c.Lo
	if !math.IsInf(c.Hi, 0) {
		t.High = c.Hi
	}
	if ok {
		t.Verdict = tailVerdict(c, max(threshold, TailFloor))
	}
	need := latency.Need(p)
	switch {
	case base.Latency.Calls < need || cand.Latency.Calls < need:
		t.Verdict, t.Reason = result.NotComparable, "too few calls for "+t.Percentile+": it needs "+strconv.FormatUint(need, 10)+" a side"
	case Unusable(base) != "" || Unusable(cand) != "":
		t.Verdict, t.Reason = result.NotComparable, "a side cannot be used: "+Unusable(base)+Unusable(cand)
	case t.Verdict == result.Slower || t.Verdict == result.Faster:
		var codes []string
		for _, e := range []*result.Experiment{base, cand} {
			for _, c := range interference(Side{E: e, Run: run}) {
				codes = result.AppendOnce(codes, c)
			}
		}
		if len(codes) > 0 {
			t.Verdict, t.Reason = result.Inconclusive, "the machine interfered ("+strings.Join(codes, ", ")+"), and a tail is where time taken from the thread shows first"
		}
	}
	return t
}

// tailVerdict is slower or faster when the ratio and its whole interval lie
// beyond threshold, no difference otherwise.
func tailVerdict(c latency.QuantileRatio, threshold float64) string {
	switch {
	case c.Lo > 1+threshold && c.Ratio > 1+threshold:
		return result.Slower
	case c.Hi < 1-threshold && c.Ratio < 1-threshold:
		return result.Faster
	}
	return result.NoDifference
}
