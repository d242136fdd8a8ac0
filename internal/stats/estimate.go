package stats

import "math"

// An Estimate is what the statistics of a comparison say of two sides:
// the ratio candidate/base, its confidence interval, the p-value of the
// test that interval inverts, and what they were taken from. The interval
// excludes 1 exactly when P is below 1-Level (but for UnpairedAt, whose
// Mann-Whitney test is not the one its interval inverts). It holds no
// verdict: internal/compare holds an estimate to a threshold, and to the
// other comparisons made with it, and says faster, slower or no
// difference.
//
// When the samples cannot give an estimate (too few, or not positive
// times), Refused says why and the ratio, its interval and P are NaN.
type Estimate struct {
	// Paired is true for interleaved rounds (PairedWith), false for
	// separate runs (UnpairedAt, RunsAt, PairedRuns).
	Paired bool
	// PairedRuns is true when run k of one side and run k of the other
	// were taken together and compared as pairs (PairedRuns).
	PairedRuns bool
	// BaseRuns and CandidateRuns count the runs (or processes) of each
	// side when the run was the unit (RunsAt, PairedRuns).
	BaseRuns, CandidateRuns int
	// RunNoise is, for separate runs with one run on a side, the
	// run-to-run variation the interval was widened by, measured on the
	// other side's runs or assumed (RunNoiseAssumed); Detectable the least
	// change it lets one run a side tell (RunsAt).
	RunNoise        float64
	RunNoiseAssumed bool
	Detectable      float64

	BaseMedian, CandidateMedian float64
	Ratio, CILow, CIHigh        float64
	// Level is the level the interval was taken at; Confidence its
	// actual coverage (order-statistic intervals cover at least Level).
	Level, Confidence float64
	// LookShare is, for a look of a run with looks, the share of 1-level
	// it spent (Design.Share); 0 for a run judged once.
	LookShare float64
	P         float64
	// Drift is, for interleaved rounds, how far the ratio moved during the
	// run beyond what its noise explains (see drift).
	Drift float64

	// N is the number of rounds (paired), of paired runs, or the smaller
	// side; BaseN and CandidateN the samples of each side.
	N, BaseN, CandidateN int

	Refused string
}

// newEstimate fills what every comparison has before any statistics.
func newEstimate(paired bool, base, cand []float64) Estimate {
	e := Estimate{
		Paired:     paired,
		BaseN:      len(base),
		CandidateN: len(cand),
		Level:      Confidence,
		Confidence: Confidence,
		P:          math.NaN(),
		Ratio:      math.NaN(),
		CILow:      math.NaN(),
		CIHigh:     math.NaN(),
	}
	if checkTimes("", base) == "" && len(base) > 0 {
		e.BaseMedian = Median(base)
	}
	if checkTimes("", cand) == "" && len(cand) > 0 {
		e.CandidateMedian = Median(cand)
	}
	return e
}

// refuse is e with no estimate, for why.
func refuse(e Estimate, why string) Estimate {
	e.Refused = why
	return e
}
