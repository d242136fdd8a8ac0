package stats

import (
	"math"
	"slices"
	"strconv"
)

// A Design says at what level interleaved rounds are estimated.
type Design struct {
	// Level is the confidence level of the interval: Confidence, or
	// FamilyLevel for one of several comparisons made at once.
	Level float64
	// Share is the share of 1-Level this look of a run with looks may
	// spend (LookShare): the interval is taken at 1-(1-Level)·Share, and
	// the p-value is held to that share of 1-Level (compare divides it by
	// Share). 0 means 1: a run judged once.
	Share float64
}

// PairedWith estimates interleaved rounds at the level the design d says:
// base[i] and cand[i] were measured in the same round, one right after the
// other on the same CPU, so a slow drift of the machine (clock,
// neighbours, heat) changes both alike and cancels in their ratio
// cand[i]/base[i].
//
// Method: one estimate, one test, one interval. The ratio is the median of
// the per-round ratios; the p-value is the exact sign test that this
// median is 1 (SignTest), and the interval is the one the sign test
// inverts (SignInterval), so the interval excludes 1 exactly when p is
// below 1 - its level. Assumption: the per-round ratios are independent
// and identically distributed, no more (not normal, not symmetric).
// The rounds take their order at random (harness.RoundOrders): a cost of
// going first or second, and a drift of the machine within a round, then
// move a round's ratio one way or the other at random, which adds noise
// the interval sees rather than a difference, and nothing periodic on the
// machine can line up with the order (a fixed ABBA order repeats every
// four samples). Using the pairing matters: a Mann-Whitney test of the two
// samples throws it away (in simulation a true +3% with a drifting machine
// was found 78% of the time that way, against 100% paired).
//
// Averaging each AB+BA pair of rounds into one unit would cancel the
// order exactly, but it spreads every outlier over two rounds: with a 15%
// chance of a slow sample it found a real +1% in 29% of runs against 50%
// per round.
//
// Minimum: MinSamples (6) rounds at 95% (more at a family level:
// SignRoundsFor), and base and cand of the same length; otherwise the
// estimate is refused with the reason. A level outside (0, 1) counts as
// Confidence.
func PairedWith(base, cand []float64, d Design) Estimate {
	level := d.Level
	if !(level > 0 && level < 1) {
		level = Confidence
	}
	e := newEstimate(true, base, cand)
	if d.Share > 0 && d.Share < 1 {
		e.LookShare = d.Share
		level = 1 - (1-level)*d.Share
	}
	e.Level = level
	e.N = min(len(base), len(cand))
	if r := checkTimes("base", base) + checkTimes("candidate", cand); r != "" {
		return refuse(e, r)
	}
	if len(base) != len(cand) {
		return refuse(e, "interleaved rounds need one sample of each per round: "+
			strconv.Itoa(len(base))+" base, "+strconv.Itoa(len(cand))+" candidate")
	}
	if need := max(MinSamples, SignRoundsFor(level)); e.N < need {
		return refuse(e, "too few rounds: "+strconv.Itoa(e.N)+", need at least "+strconv.Itoa(need)+" to tell"+atLevel(level))
	}
	ratios := make([]float64, e.N)
	for i := range ratios {
		ratios[i] = cand[i] / base[i]
	}
	signEstimate(&e, ratios, level)
	e.Drift = drift(ratios)
	return e
}

// signEstimate sets e's ratio, interval at level and p-value from the
// ratios of its pairs: their median, the sign test's interval, and the
// sign test that the median is 1.
func signEstimate(e *Estimate, ratios []float64, level float64) {
	sorted := slices.Sorted(slices.Values(ratios))
	e.Ratio = MedianSorted(sorted)
	e.CILow, e.CIHigh, e.Confidence = SignInterval(sorted, level)
	e.P = SignTest(ratios, 1)
}

// drift is how far the ratio moved during the run beyond what its noise
// explains, as a relative change: the gap between the 95% intervals of the
// median ratio of the first half of the rounds and of the second half, in
// logs, halved (exp(gap/2) - 1), and 0 when the two intervals overlap or
// a half has too few rounds for one. The interval of the whole assumes the
// rounds are independent draws of one distribution; a ratio that wanders
// (one side's code warming, its memory moving, a neighbour that slows one
// more than the other) breaks that, and the interval cannot see it. Only
// the part of the halves' difference their own noise cannot explain
// counts: the difference itself is, over identical code, about 0.7 of the
// whole median's standard error, and with few rounds it is mostly noise.
func drift(ratios []float64) float64 {
	h := len(ratios) / 2
	if h < 1 {
		return 0
	}
	lo1, hi1, _ := SignInterval(slices.Sorted(slices.Values(ratios[:h])), Confidence)
	lo2, hi2, _ := SignInterval(slices.Sorted(slices.Values(ratios[len(ratios)-h:])), Confidence)
	gap := max(math.Log(lo2)-math.Log(hi1), math.Log(lo1)-math.Log(hi2))
	if !(gap > 0) || math.IsInf(gap, 0) {
		return 0
	}
	return math.Exp(gap/2) - 1
}
