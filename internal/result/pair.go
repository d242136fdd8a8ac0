package result

// Verdicts of a comparison.
const (
	Faster        = "faster"
	Slower        = "slower"
	NoDifference  = "no difference detected"
	NotComparable = "not comparable"
	// Inconclusive: the numbers may show a difference, but what happened
	// to the machine while measuring could have made it; nothing is
	// claimed (see MarkInconclusive).
	Inconclusive = "inconclusive"
)

// Bases of a comparison: what was compared per op.
const (
	BasisWall        = ""              // wall time, the default
	BasisCycles      = "cycles"        // wall time at the clock measured around each experiment
	BasisOnCPU       = "on-CPU time"   // the time the measured thread was on the CPU
	BasisOnCPUCycles = "on-CPU cycles" // on-CPU time at the measured clock
)

// TailPair is a percentile of the single calls of two sides compared
// (run --compare --latency), beside their medians per op.
type TailPair struct {
	Percentile  string  `json:"percentile"` // "p99"
	P           float64 `json:"p"`
	BaseNs      int64   `json:"base_ns"`
	CandidateNs int64   `json:"candidate_ns"`
	// Ratio is CandidateNs/BaseNs; Low and High bound it at Level (at
	// least: the method is conservative); High is 0 when no call reaches
	// its end (unbounded).
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"ci_low"`
	High  float64 `json:"ci_high"`
	Level float64 `json:"level"`
	// Verdict is Faster, Slower, NoDifference or Inconclusive; Reason says
	// why a change was not judged.
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
}

// Pair is the comparison of a candidate with a base. Times are ns/op.
type Pair struct {
	// Tail compares a percentile of the two sides' single calls when the
	// comparison timed them (run --compare --latency); nil otherwise.
	Tail      *TailPair `json:"tail,omitempty"`
	Base      string    `json:"base"`
	Candidate string    `json:"candidate"`
	// Paired is true for interleaved rounds (stats.PairedWith), false
	// for two separate runs (stats.UnpairedAt, stats.RunsAt).
	Paired bool `json:"paired"`
	// Basis is what was compared per op when it is not wall time: cycles,
	// on-CPU time or on-CPU cycles (the Basis* constants).
	Basis string `json:"basis,omitempty"`
	// BaseRuns and CandidateRuns count the independent runs (or processes)
	// of each side when the run was the unit of the comparison.
	BaseRuns      int `json:"base_runs,omitempty"`
	CandidateRuns int `json:"candidate_runs,omitempty"`
	// PairedRuns is true when run k of one side and run k of the other
	// were taken together (gotest --against) and compared as pairs
	// (stats.PairedRuns).
	PairedRuns bool `json:"paired_runs,omitempty"`
	// Busy, when not empty, says what interfered with the measurement of a
	// side that a claimed difference is larger than, and BusyBound how
	// much it could have distorted (see Despite).
	Busy      string  `json:"busy,omitempty"`
	BusyBound float64 `json:"busy_bound,omitempty"`
	// Detectable is, for separate runs with one run on a side, the least
	// relative change run-to-run variation lets one run per side tell
	// (RunNoise); 0 otherwise.
	Detectable float64 `json:"detectable,omitempty"`
	// RunNoise is, for separate runs with one run on a side, the
	// run-to-run variation the interval was widened by (the standard
	// deviation of a run's log median): measured on the other side's runs
	// where it has several, assumed (RunNoiseAssumed) where neither has.
	RunNoise        float64 `json:"run_noise,omitempty"`
	RunNoiseAssumed bool    `json:"run_noise_assumed,omitempty"`

	BaseMedian      float64 `json:"base_median_ns"`
	CandidateMedian float64 `json:"candidate_median_ns"`
	// Ratio is candidate/base: below 1 the candidate is faster. For
	// paired rounds it is the median of the per-round ratios (the
	// estimate its interval belongs to), for separate runs the ratio of
	// the medians.
	Ratio float64 `json:"ratio"`
	// CILow and CIHigh bound the confidence interval of Ratio at Level:
	// 0.95, or 1-Alpha/Comparisons when several comparisons are made at
	// once (Bonferroni: the intervals then hold together). Confidence is
	// its actual coverage (order-statistic intervals cover at least the
	// level, usually a little more).
	CILow      float64 `json:"ci_low"`
	CIHigh     float64 `json:"ci_high"`
	Level      float64 `json:"level"`
	Confidence float64 `json:"confidence"`

	// P is the two-sided p-value of the comparison's test, the test its
	// interval inverts (the sign test for interleaved rounds); AdjustedP
	// is P after the Bonferroni correction over Comparisons comparisons,
	// min(1, Comparisons·P) (= P when there is one), so the interval
	// excludes 1 exactly when AdjustedP < Alpha. Alpha is the level
	// AdjustedP is held to.
	// LookShare is, for a run judged at looks (stats.LookShare), the share
	// of Alpha the look it stopped at spends: the interval is at 1 -
	// LookShare·(1 - the level without looks), and AdjustedP is divided by
	// it. 0 for a run judged once (a share of 1).
	LookShare float64 `json:"look_share,omitempty"`
	// PlannedRounds is, for a run with looks, the most rounds it would
	// have taken, and Stop why it took fewer: "decided" (the verdict was
	// clear at a look) or "budget" (its time ran out); empty when it took
	// them all.
	PlannedRounds int     `json:"planned_rounds,omitempty"`
	Stop          string  `json:"stop,omitempty"`
	P             float64 `json:"p"`
	AdjustedP     float64 `json:"adjusted_p"`
	Comparisons   int     `json:"comparisons"`
	Alpha         float64 `json:"alpha"`

	// N is the number of rounds (paired) or the smaller sample (separate
	// runs); BaseN and CandidateN are the sample counts of each side.
	N          int `json:"n"`
	BaseN      int `json:"base_n"`
	CandidateN int `json:"candidate_n"`

	// Drift is, for interleaved rounds, how far the ratio moved during
	// the run beyond what its noise explains: half the gap between the
	// 95% intervals of the median ratio of its first and second halves
	// (0.003 = 0.3%; 0 when they overlap), what the interval does not see.
	Drift float64 `json:"drift,omitempty"`

	// Threshold is the smallest relative change claimed (0.02 = 2%).
	// ThresholdMeasured says it was taken from the run: the larger of the
	// floor asked for (--threshold, 0 when none) and Drift.
	Threshold         float64 `json:"threshold"`
	ThresholdMeasured bool    `json:"threshold_measured,omitempty"`
	Verdict           string  `json:"verdict"`
	// Reason says why no difference is claimed, or why the two are not
	// comparable; empty for faster and slower.
	Reason string `json:"reason,omitempty"`
	// Sentence is the verdict in words a person reads at once.
	Sentence string `json:"sentence"`
}

// Change is the relative change of time per op, candidate/base - 1:
// -0.25 is 25% less time, +0.10 is 10% more.
func (p Pair) Change() float64 { return p.Ratio - 1 }

// Judged reports whether the pair has a verdict a gate can rely on:
// faster, slower or no difference detected.
func (p Pair) Judged() bool {
	return p.Verdict == Faster || p.Verdict == Slower || p.Verdict == NoDifference
}

// Share is the share of alpha of the look p was judged at: LookShare, or
// 1 when it was judged once.
func (p Pair) Share() float64 {
	if p.LookShare > 0 && p.LookShare < 1 {
		return p.LookShare
	}
	return 1
}

// Stop reasons of a run with looks (Result.RoundsStop, Pair.Stop).
const (
	StopDecided = "decided" // every verdict was clear at a look
	StopBudget  = "budget"  // the time for the rounds ran out
)
