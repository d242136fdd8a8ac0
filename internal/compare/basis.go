package compare

import (
	"math"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// Run-level interference, from how busy the CPUs were during the whole
// measurement (BusyDuring).
const (
	// StealDuringMax: steal on the measured CPU during the run above 1% of
	// the time means the host ran someone else on it while measuring.
	StealDuringMax = 1.0
	// SiblingDuringMax: an SMT sibling of the measured CPU busy above 5%
	// during the run shared the core's execution units with the samples.
	SiblingDuringMax = 5.0
)

// RunInterference returns the codes of what interfered with the whole
// measurement of r: "steal" when the host took the measured CPU,
// "sibling-busy" when its SMT sibling was busy. The measured CPU's own
// busy is benchy itself and says nothing.
func RunInterference(r *result.Result) []string {
	var codes []string
	var siblings []int
	if r.Before != nil {
		for _, c := range r.Before.CPUs {
			if c.CPU == r.CPU {
				siblings, _ = c.Siblings.Get()
			}
		}
	}
	for _, b := range r.BusyDuring {
		if !b.Judged() {
			continue
		}
		if b.CPU == r.CPU && b.Steal.Value > StealDuringMax && !slices.Contains(codes, machine.CodeSteal) {
			codes = append(codes, machine.CodeSteal)
		}
		if slices.Contains(siblings, b.CPU) && b.Busy.Value > SiblingDuringMax && !slices.Contains(codes, machine.CodeSiblingBusy) {
			codes = append(codes, machine.CodeSiblingBusy)
		}
	}
	return codes
}

// A Side is one experiment of a comparison as the basis rule sees it: a
// label for messages ("old", "new", or the name), the experiment, and what
// interfered with its run as a whole (RunInterference).
type Side struct {
	Label string
	E     *result.Experiment
	Run   []string
}

// What each kind of interference leaves a comparison to be judged on. Time
// off the CPU (a preemption, steal) is left out by on-CPU time; a clock
// that moved is left out by counting cycles at the measured clock; a core
// shared with another hardware thread slows the thread while it runs, so
// nothing measured leaves it out. The codes of one kind are one cause seen
// two ways (a busy sibling is both slow-core and sibling-busy), so their
// distortions do not add up; those of different kinds do.
var (
	offCPUCodes = []string{result.CodeDisturbed, machine.CodeSteal, machine.CodeCPUBusy}
	clockCodes  = []string{result.CodeSlowClock, result.CodeFreqChange}
	sharedCodes = []string{result.CodeSlowCore, machine.CodeSiblingBusy}
)

// Basis chooses what a comparison of sides is judged on: wall time, or
// cycles for separate runs whose every side measured its clock; on-CPU
// time (or cycles) when a side was disturbed and every side counted its
// on-CPU time. Each kind of interference is met on its own: the basis
// leaves out every kind it can, whatever else interfered, and busy names
// what it cannot leave out (a shared core, a moved clock that cycles could
// not remove, time off the CPU without the on-CPU time to remove it) with
// how much that could distort. Falling back to wall time for any of those
// would leave the time off the CPU in, and unbounded: two runs of
// identical code on a loaded machine, one on a slow core, read 54% and 78%
// slower in wall time while their on-CPU times differed by 6%.
//
// Interleaved rounds (separate false) share one clock and one core round
// by round, so a clock that moved, or a core that ran slow, did so for
// both sides and the pairing leaves it out; for separate runs a slow core
// is inconclusive unless the difference lies beyond what it could cause.
func Basis(sides []Side, separate bool) (basis string, busy Busy) {
	c := choose(sides, separate)
	return c.basis(), c.weigh(sides)
}

// A choice is what the sides of a comparison let it leave out, the facts
// Basis chooses the basis from and weighs what is left in against.
type choice struct {
	separate bool // separate runs, not rounds paired on one clock and core
	// cycles: separate runs whose every side measured its clock, so the
	// clock's change is left out by counting cycles at it.
	cycles bool
	// onCPU: every side counted its on-CPU time (counted, side by side;
	// noOnCPU are the labels of those that did not), so time off the CPU
	// can be left out.
	onCPU   bool
	counted []bool
	noOnCPU []string
	off     bool // a side was off the CPU (offCPUCodes)
}

// choose reads from every side what a basis can leave out: whether it
// measured its clock, whether it counted its on-CPU time, and whether it
// was off the CPU.
func choose(sides []Side, separate bool) choice {
	c := choice{separate: separate, cycles: separate, onCPU: true, counted: make([]bool, len(sides))}
	for i, s := range sides {
		c.cycles = c.cycles && s.E.ClockHz() > 0
		_, c.counted[i] = s.E.WithOnCPU(stats.MinSamples)
		if !c.counted[i] {
			c.onCPU = false
			c.noOnCPU = result.AppendOnce(c.noOnCPU, labelOr(s.Label, "a side"))
		}
		c.off = c.off || slices.ContainsFunc(interference(s), func(code string) bool { return slices.Contains(offCPUCodes, code) })
	}
	return c
}

// basis is the basis c chooses: on-CPU time (in cycles for separate runs
// that measured their clocks) when a side was off the CPU and every side
// counted its on-CPU time, else cycles or wall time ("").
func (c choice) basis() string {
	switch {
	case c.off && c.onCPU && c.cycles:
		return result.BasisOnCPUCycles
	case c.off && c.onCPU:
		return result.BasisOnCPU
	case c.cycles:
		return result.BasisCycles
	}
	return ""
}

// weigh is what c's basis leaves in of each side's interference, the
// reason naming it, on which sides, and the largest distortion it could
// cause on any one side; nothing when the basis leaves everything out.
func (c choice) weigh(sides []Side) Busy {
	var busy Busy
	var left []string              // what is left in, in the order first seen
	where := map[string][]string{} // and on which sides
	for i, s := range sides {
		what, bound := c.leftIn(s, c.counted[i])
		for _, w := range what {
			left = result.AppendOnce(left, w)
			if s.Label != "" {
				where[w] = result.AppendOnce(where[w], s.Label)
			}
		}
		busy.Bound = max(busy.Bound, bound)
	}
	var why []string
	for _, what := range left {
		why = append(why, explain(where[what], what))
	}
	if c.off && !c.onCPU {
		why = append(why, "no on-CPU time in "+strings.Join(c.noOnCPU, " and ")+" to leave it out")
	}
	if len(why) > 0 {
		busy.Reason = "the machine was busy (" + strings.Join(why, "; ") + ")"
	}
	return busy
}

// leftIn is what c's basis leaves in of side s's interference (counted:
// s counted its on-CPU time), in the order first seen, and the largest
// distortion that could cause on s.
func (c choice) leftIn(s Side, counted bool) (what []string, bound float64) {
	var offBy, clockBy, sharedBy float64 // the distortion of each kind left in
	if c.off && !c.onCPU && !counted {
		// Nothing could tell whether this side was off the CPU too: as
		// long as a finding of no size says (distortion).
		offBy = distortion(s, result.CodeDisturbed)
	}
	for _, code := range interference(s) {
		switch {
		case slices.Contains(offCPUCodes, code):
			if !c.onCPU {
				what = result.AppendOnce(what, offCPU)
				offBy = max(offBy, distortion(s, result.CodeDisturbed))
			}
		case slices.Contains(clockCodes, code) && (c.cycles || !c.separate):
			// counted in cycles, or paired round by round: the clock's
			// change is left out
		case slices.Contains(sharedCodes, code) && !c.separate:
			// paired round by round: a core shared with another hardware
			// thread or the host slows both samples of a round alike, and
			// what it does not share alike varies from round to round,
			// which the interval sees
		case slices.Contains(clockCodes, code):
			what = result.AppendOnce(what, code)
			clockBy = max(clockBy, distortion(s, code))
		default:
			what = result.AppendOnce(what, code)
			sharedBy = max(sharedBy, distortion(s, code))
		}
	}
	// One side's kinds compound: a thread slowed 12% by a shared core and
	// then preempted for half its time took 2.24x as long.
	return what, (1+offBy)*(1+clockBy)*(1+sharedBy) - 1
}

// Busy is what Basis found it cannot leave out of a comparison: the
// reason, and Bound, the largest relative distortion it could cause (a
// shared core that made the reference loop take 73% more cycles can make
// one side up to 1.73x slower than the other). A difference whose whole
// interval lies beyond that is still claimed; anything less is
// inconclusive.
type Busy struct {
	Reason string
	Bound  float64
}

// distortion is the largest relative slowdown code's finding on s could
// have caused, from its evidence: the reference loop's excess cycles, the
// clock's drop, the off-CPU share of the median sample. Where the finding
// says nothing of its size (a busy sibling hardware thread), 1: a sibling
// can take up to half the core.
func distortion(s Side, code string) float64 {
	for _, f := range s.E.Findings {
		if f.Code != code {
			continue
		}
		if v, ok := f.Evidence["excess"].(float64); ok && v > 0 {
			return v
		}
		for _, key := range []string{"median_off_cpu_share", "drop"} {
			if v, ok := f.Evidence[key].(float64); ok && v > 0 && v < 1 {
				return v / (1 - v) // a share s lost: the time is 1/(1-s) of the true one
			}
		}
		if v, ok := f.Evidence["change"].(float64); ok && v != 0 {
			return math.Abs(v)
		}
	}
	return 1
}

// interference lists the codes of what interfered with side s: its own
// findings of interferenceCodes at warn or above that a basis can leave
// out or must give up on, and its run's.
func interference(s Side) []string {
	var codes []string
	for _, f := range s.E.Findings {
		if f.Severity >= finding.Warn && slices.Contains(slices.Concat(offCPUCodes, clockCodes, sharedCodes), f.Code) {
			codes = result.AppendOnce(codes, f.Code)
		}
	}
	for _, c := range s.Run {
		codes = result.AppendOnce(codes, c)
	}
	return codes
}

// offCPU is what Basis names time off the CPU it could not leave out
// (disturbed, steal).
const offCPU = "time off the CPU"

// explain names what was left in on the sides labels, and what it means,
// since a code alone does not say it to a reader: "old and new: slow-core,
// the core was shared with a busy sibling hardware thread or the host".
// The meaning is the code's cause (result.Codes) without its detail in
// parentheses, which would nest in the reason's.
func explain(labels []string, what string) string {
	if c, ok := result.LookupCode(what); ok && c.Cause != "" {
		cause, _, _ := strings.Cut(c.Cause, " (")
		what += ", " + cause
	}
	if len(labels) == 0 {
		return what
	}
	return strings.Join(labels, " and ") + ": " + what
}

func labelOr(label, def string) string {
	if label == "" {
		return def
	}
	return label
}

// Unusable says why e's number cannot be compared at all: it failed, or a
// finding of severity error other than time off the CPU shows it cannot be
// right ("" when it can). Time off the CPU, however much, is left to Basis:
// on-CPU time still compares.
func Unusable(e *result.Experiment) string {
	if e.Error != "" {
		return "failed: " + units.OneLine(e.Error)
	}
	var codes []string
	for _, f := range e.Findings {
		if f.Severity == finding.Error && f.Code != result.CodeDisturbed {
			codes = result.AppendOnce(codes, f.Code)
		}
	}
	if len(codes) == 0 {
		return ""
	}
	return "is not believable: " + strings.Join(codes, ", ")
}
