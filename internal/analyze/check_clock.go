package analyze

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// SlowClockRatio: an experiment whose clock, measured right before and
// after its samples, was more than 5% below the clock the run sustained
// (RunClock) ran on a slowed CPU (a host that gave the virtual CPU less of a
// core, a governor that lowered the frequency); 5% is the least change
// benchy calls a difference elsewhere (FreqChangeRatio, DriftMinChange).
const SlowClockRatio = 0.05

// SustainedShare: the clock a run sustained is the one a quarter of its
// readings reached (their upper quartile), not the highest: on a quiet
// 2-vCPU VM the host held the clock at 3.46 GHz through whole runs and
// raised it to 3.6-3.75 GHz for one or two experiments' ends, and against
// that burst the other experiments of the run read "slow-clock" (4 to 15
// of 17, in 4 of 12 default runs one morning), though they ran at the
// clock of the rest of the run and of the runs before and after it.
const SustainedShare = 0.25

// RunClock is the clock a run sustained, of the clocks measured in it (in
// Hz; readings of 0, unknown, are left out): the upper quartile
// (SustainedShare), so a short burst above the rest is not what every
// experiment is held to, while a clock that held for a quarter of the run
// is. 0 when none was measured.
func RunClock(clocks []float64) float64 {
	var known []float64
	for _, hz := range clocks {
		if hz > 0 {
			known = append(known, hz)
		}
	}
	if len(known) == 0 {
		return 0
	}
	slices.Sort(known)
	return stats.Quantile(1-SustainedShare, known)
}

// checkSlowClock: the CPU ran slower around this experiment than it did
// through the run, so its times are too long by about that much. The
// slower of the two readings is judged: either end being slow means part
// of the samples may have been.
func checkSlowClock(e result.Experiment, f Facts) (finding.Finding, bool) {
	if e.Clock == nil || f.RunClockHz <= 0 {
		return finding.Finding{}, false
	}
	slow := min(e.Clock.BeforeHz, e.Clock.AfterHz)
	if slow <= 0 || slow >= f.RunClockHz*(1-SlowClockRatio) {
		return finding.Finding{}, false
	}
	if over, ok := checksOver(e, f.RunRefNs); ok && over < SlowClockRatio {
		// The checks beside the samples ran the reference loop, whose
		// time follows the clock, within SlowClockRatio of its best:
		// the samples did not run at the lower clock the probes read
		// at their ends.
		return finding.Finding{}, false
	}
	drop := 1 - slow/f.RunClockHz
	return finding.Finding{
		Code:     result.CodeSlowClock,
		Severity: finding.Warn,
		Message: fmt.Sprintf("the CPU ran at %s around this experiment (%s before, %s after), %s below the %s the run sustained: "+
			"the host or the governor slowed it, and its times are too long by about that much",
			units.Hz(slow), units.Hz(e.Clock.BeforeHz), units.Hz(e.Clock.AfterHz), units.PctOver(drop, SlowClockRatio), units.Hz(f.RunClockHz)),
		Evidence: map[string]any{
			"before_hz": e.Clock.BeforeHz, "after_hz": e.Clock.AfterHz,
			"run_sustained_hz": f.RunClockHz, "drop": drop, "source": e.Clock.Source,
		},
	}, true
}

// SlowClock reports whether e would be judged slow-clock in a run that
// sustained clockHz (RunClock) and whose reference loop ran at best ns per
// iteration at its fastest: what benchy run measures again, judged on
// what the run measured so far.
func SlowClock(e result.Experiment, clockHz, best float64) bool {
	_, slow := checkSlowClock(e, Facts{RunClockHz: clockHz, RunRefNs: best})
	return slow
}

// checksOver is how much slower than best ns per iteration the speed
// checks beside e's samples ran the reference loop, in their median (0.07
// for 7%); ok is false when no sample was checked or best is unknown.
func checksOver(e result.Experiment, best float64) (over float64, ok bool) {
	checked, ok := CheckedRefNs(e)
	if !ok || best <= 0 {
		return 0, false
	}
	return checked/best - 1, true
}

// ClocksOf lists the clocks measured right before and after es's samples,
// and those of their earlier attempts (Hz; 0 where unknown): with the
// clock around the whole run, what RunClock reads.
func ClocksOf(es []result.Experiment) []float64 {
	var clocks []float64
	add := func(c *result.EffectiveClock) {
		if c != nil {
			clocks = append(clocks, c.BeforeHz, c.AfterHz)
		}
	}
	for _, e := range es {
		add(e.Clock)
		for _, a := range e.Attempts {
			add(a.Clock)
		}
	}
	return clocks
}

// CheckedRefNs is the median of the speed checks beside e's samples (ns
// per iteration of the reference loop); ok is false when none was
// checked.
func CheckedRefNs(e result.Experiment) (float64, bool) {
	var refs []float64
	for _, s := range e.Samples {
		if s.RefNs > 0 {
			refs = append(refs, s.RefNs)
		}
	}
	if len(refs) == 0 {
		return 0, false
	}
	return stats.Median(refs), true
}

// SlowCoreRatio: the reference loop around an experiment took more than
// 10% more cycles per iteration than its best in the run. The loop's
// median over many pieces moves by a few percent on a quiet core; a core
// shared with a busy sibling hardware thread (on a virtual machine, often
// the host's) runs it up to twice as slow.
const SlowCoreRatio = 0.10

// checkSlowCore: the core delivered fewer iterations per cycle around this
// experiment than it did elsewhere in the run: another hardware thread of
// the same core, or the host, took a share of it. Counted in cycles (each
// probe's time at the clock measured with it), so a lower clock alone is
// left to slow-clock. The slower of the two probes is judged.
func checkSlowCore(e result.Experiment, f Facts) (finding.Finding, bool) {
	cycles := refCycles(e)
	if len(cycles) == 0 || f.RunRefCycles <= 0 {
		return finding.Finding{}, false
	}
	worst := max(cycles[0], cycles[1])
	if worst <= f.RunRefCycles*(1+SlowCoreRatio) {
		return finding.Finding{}, false
	}
	excess := worst/f.RunRefCycles - 1
	return finding.Finding{
		Code:     result.CodeSlowCore,
		Severity: finding.Warn,
		Message: fmt.Sprintf("a reference loop took %s cycles per iteration around this experiment (%s before, %s after), %s more than its best, %s (%s): "+
			"the core was shared (a busy sibling hardware thread, or the host) and the times may be too long by as much",
			units.Sig(worst, 3), units.Sig(cycles[0], 3), units.Sig(cycles[1], 3), units.PctOver(excess, SlowCoreRatio), units.Sig(f.RunRefCycles, 3), cmp.Or(f.RunRefFrom, "in the run")),
		Evidence: map[string]any{
			"before_cycles": cycles[0], "after_cycles": cycles[1],
			"before_ns": e.Reference.BeforeNs, "after_ns": e.Reference.AfterNs,
			"run_best_cycles": f.RunRefCycles, "run_best_from": f.RunRefFrom, "excess": excess,
		},
	}, true
}
