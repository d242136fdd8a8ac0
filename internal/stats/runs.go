package stats

import "math"

// DefaultRunNoise is the run-to-run variation assumed when a side of a
// comparison of separate runs has a single run, as the standard deviation
// of the log of a run's median: 3%. Two runs of the same binary on a
// quiet pinned CPU differ as wholes (each has its own heap, layout and
// machine state) by a few percent in wall time, more than their samples
// spread within each run; in simulation, treating every sample as
// independent turned a 3% run-to-run variation into 52-59% false claims.
// With several runs per side RunsAt measures the variation instead.
const DefaultRunNoise = 0.03

// z975 is the 97.5th percentile of the standard normal distribution.
const z975 = 1.959963984540054

// zFor is the two-sided normal quantile of level: z975 at 0.95.
func zFor(level float64) float64 {
	if level == Confidence {
		return z975
	}
	return normalQuantile(1 - (1-level)/2)
}

// RunsAt compares two sides of separate runs, base and cand, each given as
// the samples of every run (or every process) in it: the run is the unit,
// since the samples of one run share its heap, its code layout and its
// machine state and so are not independent of each other (counting them
// as independent is pseudo-replication, and reports a real ±5-16%
// run-to-run interval as ±1-3%).
//
// With at least two runs on each side: each run is summarized by its
// median, and Welch's t-test on the logs of those medians gives the ratio
// of their geometric means (cand/base), its 95% interval and p-value
// (Welch). Assumption: the run medians of a side vary as independent
// draws of one log-normal distribution.
//
// With one run on a side, the within-run comparison (UnpairedAt: samples
// pooled, percentile bootstrap of the ratio of medians) is widened by the
// run-to-run variation σ, the standard deviation of a run's log median:
// the interval is the ratio times exp(±q √(s² + σ²(1/k₁ + 1/k₂))), s the
// within-run standard error read off the bootstrap interval, k₁ and k₂ the
// runs per side, and p is the test of that interval. When the other side
// has several runs, σ is measured there (the spread of its run medians)
// and q is Student's t on its runs-1 degrees of freedom; with one run on
// each side nothing measures it, σ is runNoise, assumed, q is normal, and
// the pair says so (RunNoiseAssumed). Detectable is q·σ·√(1/k₁ + 1/k₂):
// no change smaller than that is claimed. A runNoise of 0 is plain
// UnpairedAt (and then only when nothing measures σ).
//
// Minimum: MinSamples samples on each side, as UnpairedAt, or the estimate
// is refused. The interval is
// at level (Confidence, or FamilyLevel for one of several comparisons).
// The test is the one the interval inverts (Welch's t, or the normal test of the widened
// interval): the interval excludes 1 exactly when p < 1-level.
func RunsAt(base, cand [][]float64, runNoise, level float64) Estimate {
	allBase, allCand := flatten(base), flatten(cand)
	if len(base) >= 2 && len(cand) >= 2 {
		return betweenRuns(base, cand, allBase, allCand, level)
	}
	p := UnpairedAt(allBase, allCand, level)
	p.BaseRuns, p.CandidateRuns = len(base), len(cand)
	if p.Refused != "" || (!(runNoise > 0) && len(longer(base, cand)) < 2) {
		return p
	}
	// The run-to-run variation: measured on the side with several runs,
	// where there is one (its run medians' spread, with a t quantile of
	// its runs-1 degrees of freedom), else assumed.
	noise, q := runNoise, zFor(level)
	p.RunNoiseAssumed = true
	if multi := longer(base, cand); len(multi) >= 2 {
		if lm := logMedians(multi); lm != nil {
			_, v := MeanVar(lm)
			noise, p.RunNoiseAssumed = math.Sqrt(v), false
			q = tQuantile(1-(1-level)/2, float64(len(multi)-1))
		}
	}
	p.RunNoise = noise
	within := (math.Log(p.CIHigh) - math.Log(p.CILow)) / (2 * zFor(level))
	runs := noise * math.Sqrt(1/float64(len(base))+1/float64(len(cand)))
	se := math.Sqrt(within*within + runs*runs)
	logRatio := math.Log(p.Ratio)
	p.CILow, p.CIHigh = math.Exp(logRatio-q*se), math.Exp(logRatio+q*se)
	p.Confidence = level
	p.P = 1
	if se > 0 {
		p.P = 2 * survival(math.Abs(logRatio)/se, len(longer(base, cand)))
	}
	p.Detectable = math.Exp(q*runs) - 1
	return p
}

// survival is P(T > x) for the distribution the interval's quantile was
// taken from: the
// standard normal when the noise was assumed (a side of one run each),
// Student's t with runs-1 degrees of freedom when it was measured.
func survival(x float64, runs int) float64 {
	if runs < 2 {
		return normalSurvival(x)
	}
	return tSurvival(x, float64(runs-1))
}

// longer is the side with more runs.
func longer(base, cand [][]float64) [][]float64 {
	if len(cand) > len(base) {
		return cand
	}
	return base
}

// betweenRuns is RunsAt with two runs or more on each side.
func betweenRuns(base, cand [][]float64, allBase, allCand []float64, level float64) Estimate {
	e := newEstimate(false, allBase, allCand)
	e.Level, e.Confidence = level, level
	e.BaseRuns, e.CandidateRuns = len(base), len(cand)
	e.N = min(len(base), len(cand))
	if r := checkTimes("base", allBase) + checkTimes("candidate", allCand); r != "" {
		return refuse(e, r)
	}
	if len(allBase) < MinSamples || len(allCand) < MinSamples {
		return refuse(e, tooFewSamples(len(allBase), len(allCand)))
	}
	lb, lc := logMedians(base), logMedians(cand)
	if lb == nil || lc == nil {
		return refuse(e, "a run has no sample")
	}
	diff, lo, hi, pv, _ := Welch(lb, lc, level)
	e.Ratio, e.CILow, e.CIHigh = math.Exp(diff), math.Exp(lo), math.Exp(hi)
	e.BaseMedian, e.CandidateMedian = math.Exp(Mean(lb)), math.Exp(Mean(lc))
	e.P = pv
	return e
}

// logMedians is the log of each run's median; nil when a run is empty.
func logMedians(runs [][]float64) []float64 {
	out := make([]float64, len(runs))
	for i, r := range runs {
		if len(r) == 0 {
			return nil
		}
		out[i] = math.Log(Median(r))
	}
	return out
}

func flatten(runs [][]float64) []float64 {
	var out []float64
	for _, r := range runs {
		out = append(out, r...)
	}
	return out
}
