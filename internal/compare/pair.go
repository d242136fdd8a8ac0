// Package compare answers "is B faster than A?" from two sets of ns/op
// samples, and claims a difference only when it is bigger than the noise.
//
// A comparison (Pair) has three pieces of evidence: a 95% confidence
// interval of the ratio candidate/base, a two-sided test (Wilcoxon
// signed-rank on the per-round ratios of interleaved rounds, Mann-Whitney U
// for two separate runs, Welch's t on the run medians when each side has
// several runs), and a threshold below which a change is too small to
// matter. The verdict is "faster" or "slower" only
// when all three agree: the interval excludes 1, the change exceeds the
// threshold, and the p-value (Holm-adjusted when several comparisons are
// made at once) is below alpha. Otherwise it is "no difference detected",
// which is not a proof of equality: it says the data do not show one.
//
// The package does statistics only; it reads no files and prints nothing.
package compare

import (
	"math"

	"github.com/benchy-dev/benchy/internal/units"
)

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
	BasisWall         = ""              // wall time, the default
	BasisCycles       = "cycles"        // wall time at the clock measured around each experiment
	BasisOnCPU        = "on-CPU time"   // the time the measured thread was on the CPU
	BasisOnCPUCycles  = "on-CPU cycles" // on-CPU time at the measured clock
	basisCyclesReason = "in cycles at the clock measured around each experiment"
)

// Defaults.
const (
	// DefaultThreshold is the smallest relative change of time per op
	// claimed as a difference (2%): on a quiet machine, runs of the same
	// code on the same CPU differ by about 1%, so smaller changes are
	// more likely the machine than the code.
	DefaultThreshold = 0.02
	// DefaultAlpha is the significance level of the test: a difference is
	// claimed only when the (adjusted) p-value is below it.
	DefaultAlpha = 0.05
	// Confidence is the level of the confidence intervals.
	Confidence = 0.95
	// MinSamples is the fewest rounds (Paired) or samples per side
	// (Unpaired) a verdict is given for. Six is the smallest n for which
	// the order-statistic interval of a median has 95% coverage
	// (2 * 0.5^6 = 3.1% < 5%; with 5 it is 6.3%), and with six per side
	// the Mann-Whitney test can reach p = 0.002. With fewer the verdict is
	// "not comparable" and says why.
	MinSamples = 6
)

// Pair is the comparison of a candidate with a base. Times are ns/op.
type Pair struct {
	Base      string `json:"base"`
	Candidate string `json:"candidate"`
	// Paired is true for interleaved rounds (Paired), false for two
	// separate runs (Unpaired, Runs).
	Paired bool `json:"paired"`
	// Basis is what was compared per op when it is not wall time: cycles,
	// on-CPU time or on-CPU cycles (the Basis* constants).
	Basis string `json:"basis,omitempty"`
	// BaseRuns and CandidateRuns count the independent runs (or processes)
	// of each side when the run was the unit of the comparison.
	BaseRuns      int `json:"base_runs,omitempty"`
	CandidateRuns int `json:"candidate_runs,omitempty"`
	// Busy, when not empty, says what interfered with the measurement of a
	// side that a claimed difference is larger than, and BusyBound how
	// much it could have distorted (see Despite).
	Busy      string  `json:"busy,omitempty"`
	BusyBound float64 `json:"busy_bound,omitempty"`
	// Detectable is, for separate runs with one run on a side, the least
	// relative change run-to-run variation lets one run per side tell
	// (RunNoise); 0 otherwise.
	Detectable float64 `json:"detectable,omitempty"`

	BaseMedian      float64 `json:"base_median_ns"`
	CandidateMedian float64 `json:"candidate_median_ns"`
	// Ratio is candidate/base: below 1 the candidate is faster. For
	// paired rounds it is the median of the per-round ratios (the
	// estimate its interval belongs to), for separate runs the ratio of
	// the medians.
	Ratio float64 `json:"ratio"`
	// CILow and CIHigh bound the 95% confidence interval of Ratio;
	// Confidence is its actual coverage (order-statistic intervals cover
	// at least 95%, usually a little more).
	CILow      float64 `json:"ci_low"`
	CIHigh     float64 `json:"ci_high"`
	Confidence float64 `json:"confidence"`

	// P is the two-sided p-value of the comparison's test (see the
	// package doc); AdjustedP is P after the
	// Holm-Bonferroni correction over Comparisons comparisons (= P when
	// there is one). Alpha is the level AdjustedP is held to.
	P           float64 `json:"p"`
	AdjustedP   float64 `json:"adjusted_p"`
	Comparisons int     `json:"comparisons"`
	Alpha       float64 `json:"alpha"`

	// N is the number of rounds (paired) or the smaller sample (separate
	// runs); BaseN and CandidateN are the sample counts of each side.
	N          int `json:"n"`
	BaseN      int `json:"base_n"`
	CandidateN int `json:"candidate_n"`

	// Threshold is the smallest relative change claimed (0.02 = 2%).
	Threshold float64 `json:"threshold"`
	Verdict   string  `json:"verdict"`
	// Reason says why no difference is claimed, or why the two are not
	// comparable; empty for faster and slower.
	Reason string `json:"reason,omitempty"`
	// Sentence is the verdict in words a person reads at once.
	Sentence string `json:"sentence"`
}

// Change is the relative change of time per op, candidate/base - 1:
// -0.25 is 25% less time, +0.10 is 10% more.
func (p Pair) Change() float64 { return p.Ratio - 1 }

// SetNames names the two sides and rewrites the sentence with the names.
func (p *Pair) SetNames(base, candidate string) {
	p.Base, p.Candidate = base, candidate
	p.Sentence = sentence(*p)
}

// MarkNotComparable sets the verdict to "not comparable" for reason (for
// example an error finding on one side); Holm then leaves the pair out.
func (p *Pair) MarkNotComparable(reason string) {
	p.Verdict, p.Reason = NotComparable, reason
	p.Sentence = sentence(*p)
}

// MarkInconclusive sets the verdict to "inconclusive" for reason (the
// machine was busy while one side was measured): the statistics stay, as
// evidence, but no difference is claimed from them. Holm still counts the
// pair: it was tested.
func (p *Pair) MarkInconclusive(reason string) {
	p.Verdict, p.Reason = Inconclusive, reason
	p.Sentence = sentence(*p)
}

// Despite judges p again knowing that the machine interfered (busy says
// how) and could have distorted a side by up to bound (0.7 = 1.7x): a
// difference whose whole interval lies beyond that distortion is still
// claimed, and the sentence says despite what; anything else is
// inconclusive. Holm still counts the pair either way.
func (p *Pair) Despite(busy string, bound float64) {
	if p.Verdict == NotComparable {
		return
	}
	if (p.Verdict == Faster || p.Verdict == Slower) && (p.CILow > 1+bound || p.CIHigh < 1/(1+bound)) {
		p.Busy, p.BusyBound = busy, bound
		p.Sentence = sentence(*p)
		return
	}
	p.MarkInconclusive(busy + ": rerun on a quieter machine")
}

// Judged reports whether the pair has a verdict a gate can rely on:
// faster, slower or no difference detected.
func (p Pair) Judged() bool {
	return p.Verdict == Faster || p.Verdict == Slower || p.Verdict == NoDifference
}

// decide sets the verdict, reason and sentence from the evidence. The
// rule, in order: the interval must exclude 1, the adjusted p-value must
// be below alpha, the change must exceed the threshold, and so must the
// whole interval (a change whose interval reaches inside the threshold may
// be no bigger than the noise); the first that fails is the reason. A pair
// marked not comparable or inconclusive stays so.
func (p *Pair) decide() {
	if p.Verdict != NotComparable && p.Verdict != Inconclusive {
		p.Verdict, p.Reason = verdict(*p)
		if p.Busy != "" && !(p.CILow > 1+p.BusyBound || p.CIHigh < 1/(1+p.BusyBound)) {
			// Holm moved the interval's verdict back within what the
			// machine could have made.
			p.Verdict, p.Reason = Inconclusive, p.Busy+": rerun on a quieter machine"
		}
	}
	p.Sentence = sentence(*p)
}

func verdict(p Pair) (string, string) {
	change := p.Change()
	switch {
	case p.CILow <= 1 && p.CIHigh >= 1:
		return NoDifference, "the 95% confidence interval includes 1"
	case !(p.AdjustedP < p.Alpha):
		return NoDifference, "p=" + fmtP(p.AdjustedP) + " is not below " + fmtP(p.Alpha)
	case !(math.Abs(change) > p.Threshold):
		return NoDifference, "the change, " + units.Change(change) + ", is within the " + units.Percent(p.Threshold) + " threshold"
	case !(p.CIHigh-1 < -p.Threshold || p.CILow-1 > p.Threshold):
		// The estimate is past the threshold, but the interval reaches
		// back inside it: the change may be no bigger than the noise.
		return NoDifference, "the 95% confidence interval reaches within the " + units.Percent(p.Threshold) + " threshold"
	case change < 0:
		return Faster, ""
	default:
		return Slower, ""
	}
}

// CleanThreshold makes a threshold usable: negative or NaN is 0.
func CleanThreshold(t float64) float64 {
	if !(t >= 0) {
		return 0
	}
	return t
}

// checkTimes returns why xs cannot be compared, or "": every time must be
// a positive finite number.
func checkTimes(side string, xs []float64) string {
	for i, x := range xs {
		if !(x > 0) || math.IsInf(x, 0) {
			return side + " sample " + itoa(i+1) + " is not a positive time per op"
		}
	}
	return ""
}
