package stats

import (
	"math"
	"strconv"
)

// RobustPairsFrom is the number of pairs from which PairedRuns judges
// them by their Hodges-Lehmann centre with the signed-rank test
// (HodgesLehmann) rather than by their mean with the t-test. The t-test
// assumes the pairs' log ratios are normal; a process the machine
// disturbed is not, and one in 56 widened the interval of a bisection's
// BAD (pooled over its steps) to ±3% about +2.5%, leaving a +3% step
// unjudged, where the centre of the pairs was unmoved. (The sign test on
// the median pair, used before, is as robust but needs about 1.4 times
// the pairs for the same interval.) Below 16 pairs the t-interval is
// kept: gotest --against's default of 3 processes and a bisection's first
// reading of a commit (8 pairs) are judged as before.
const RobustPairsFrom = 16

// PairedRuns compares two sides of runs taken in pairs: base[k] and
// cand[k] ran one right after the other (gotest --against runs process k
// of the old binary and process k of the new in the same round, in ABBA
// order), so what the machine did around that round, and the state a
// process starts in, is shared by both and cancels in the ratio of their
// medians. Comparing the sides as separate runs (Welch on the run medians)
// would throw away the pairing the interleaving paid for.
//
// Method: each pair is summarized by d[k] = ln(median(cand[k]) /
// median(base[k])); the ratio is exp(mean d), and the paired t-test on d
// gives its interval at level and the p-value, the test the interval
// inverts; from RobustPairsFrom pairs on, the Hodges-Lehmann centre of d
// with the signed-rank test and its interval instead. Assumption: the
// d[k] are independent draws of one normal distribution (the log of a
// ratio of medians of many samples is close to normal); from
// RobustPairsFrom on, of one symmetric distribution. Minimum: two pairs
// (one degree of freedom: with two or three the interval is wide,
// t(0.975, 2) = 4.3, and says so), and MinSamples
// samples on each side; sides of unequal run counts are not paired
// (RunsAt compares them).
func PairedRuns(base, cand [][]float64, level float64) Estimate {
	allBase, allCand := flatten(base), flatten(cand)
	e := newEstimate(false, allBase, allCand)
	e.Level, e.Confidence = level, level
	e.BaseRuns, e.CandidateRuns = len(base), len(cand)
	e.PairedRuns = true
	e.N = min(len(base), len(cand))
	if r := checkTimes("base", allBase) + checkTimes("candidate", allCand); r != "" {
		return refuse(e, r)
	}
	switch {
	case len(base) != len(cand):
		return refuse(e, "paired runs need as many of each: "+strconv.Itoa(len(base))+" base, "+strconv.Itoa(len(cand))+" candidate")
	case len(base) < 2:
		return refuse(e, "too few paired runs: "+strconv.Itoa(len(base))+", need at least 2 to tell")
	case len(allBase) < MinSamples || len(allCand) < MinSamples:
		return refuse(e, tooFewSamples(len(allBase), len(allCand)))
	}
	lb, lc := logMedians(base), logMedians(cand)
	if lb == nil || lc == nil {
		return refuse(e, "a run has no sample")
	}
	d := make([]float64, len(lb))
	for k := range d {
		d[k] = lc[k] - lb[k]
	}
	e.BaseMedian, e.CandidateMedian = math.Exp(Mean(lb)), math.Exp(Mean(lc))
	e.Ratio, e.CILow, e.CIHigh, e.Confidence, e.P = pairedLogs(d, level)
	return e
}

// pairedLogs estimates the ratio whose logs the pairs d are, with its
// interval at level, that interval's coverage, and the two-sided p-value
// of the test it inverts that the ratio is 1: the mean and the paired
// t-test below RobustPairsFrom pairs, from there the Hodges-Lehmann
// centre and the signed-rank test (one disturbed process among many then
// moves neither the estimate nor the interval).
func pairedLogs(d []float64, level float64) (ratio, lo, hi, coverage, p float64) {
	if len(d) >= RobustPairsFrom {
		centre, l, h, cov, pv := HodgesLehmann(d, level)
		return math.Exp(centre), math.Exp(l), math.Exp(h), cov, pv
	}
	mean, v := MeanVar(d)
	se := math.Sqrt(v / float64(len(d)))
	ratio = math.Exp(mean)
	if se == 0 {
		p = 1
		if mean != 0 {
			p = 0
		}
		return ratio, ratio, ratio, level, p
	}
	nu := float64(len(d) - 1)
	q := tQuantile(1-(1-level)/2, nu)
	return ratio, math.Exp(mean - q*se), math.Exp(mean + q*se), level, min(1, 2*tSurvival(math.Abs(mean)/se, nu))
}

// Position is where runs of a commit (mid) sit between two levels measured
// in the same rounds, runs of GOOD (low) and of BAD (high): run k of each
// side ran in round k. Each round gives ln m - (ln g + ln b)/2, the
// commit's process median over the geometric middle of GOOD's and BAD's,
// and Position estimates the ratio those are the logs of, with its
// interval at level, as PairedRuns does (the t-test, from RobustPairsFrom
// rounds the signed-rank test): above 1 the commit is nearer BAD's level,
// below 1 nearer GOOD's. This asks, in one test, what a bisection asks of
// a commit; comparing the commit with GOOD and then with a midpoint taken
// from BAD's own interval tests twice at the price of two intervals, and
// a round's slowness, shared by the three, cancels here. ok is false when
// the sides are not as many runs, fewer than two, or a run has no sample.
func Position(low, high, mid [][]float64, level float64) (ratio, lo, hi float64, ok bool) {
	n := len(mid)
	if len(low) != n || len(high) != n || n < 2 {
		return 0, 0, 0, false
	}
	lg, lb, lm := logMedians(low), logMedians(high), logMedians(mid)
	if lg == nil || lb == nil || lm == nil {
		return 0, 0, 0, false
	}
	d := make([]float64, n)
	for k := range d {
		d[k] = lm[k] - (lg[k]+lb[k])/2
	}
	ratio, lo, hi, _, _ = pairedLogs(d, level)
	return ratio, lo, hi, true
}
