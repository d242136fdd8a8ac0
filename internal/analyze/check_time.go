package analyze

import (
	"fmt"
	"strconv"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// checkImpossible: the median, converted to cycles at the highest clock the
// CPU could have run at, leaves less per declared unit of work than the
// fastest core needs (the workload's floor). Using the highest clock makes
// the most cycles out of the time, so the check errs on the side of belief:
// when it fires, the work cannot have run.
func checkImpossible(e result.Experiment, st result.Stats, f Facts) (finding.Finding, bool) {
	if st.N == 0 || e.Units <= 0 {
		return finding.Finding{}, false
	}
	floor := result.Floor(e.FloorCycles)
	hz, source := highestClock(e.Samples, f)
	cycles := st.Median * hz / 1e9
	perUnit := cycles / e.Units
	if perUnit >= floor {
		return finding.Finding{}, false
	}
	unit := e.Unit
	if unit == "" {
		unit = "unit"
	}
	amount := strconv.FormatFloat(e.Units, 'f', -1, 64)
	many := units.Plural(unit)
	if e.Units == 1 {
		many = unit
	}
	return finding.Finding{
		Code:     result.CodeImpossible,
		Severity: finding.Error,
		Message: fmt.Sprintf("%s %s in %s at %s (%s) = %s cycle each; no core does one %s in less than %s cycle: the work did not run",
			amount, many, cyclesText(cycles), units.Hz(hz), source, units.Sig(perUnit, 2), unit, units.Sig(floor, 2)),
		Evidence: map[string]any{
			"median_ns":       st.Median,
			"clock_hz":        hz,
			"clock_source":    source,
			"cycles_per_op":   cycles,
			"units":           e.Units,
			"cycles_per_unit": perUnit,
			"floor_cycles":    floor,
		},
	}, true
}

// BelowClockSteps is how many steps of the clock a sample must last: each
// reading of time.Now is off by up to one step, so 1000 steps keep that
// error under 0.1% of the sample.
const BelowClockSteps = 1000

// checkBelowClock: samples shorter than BelowClockSteps clock steps.
func checkBelowClock(e result.Experiment, f Facts) (finding.Finding, bool) {
	if f.GranularityNs <= 0 {
		return finding.Finding{}, false // unknown clock step: nothing to judge
	}
	limit := BelowClockSteps * f.GranularityNs
	short, shortest := 0, int64(0)
	for _, s := range e.Samples {
		if float64(s.Ns) < limit {
			if short == 0 || s.Ns < shortest {
				shortest = s.Ns
			}
			short++
		}
	}
	if short == 0 {
		return finding.Finding{}, false
	}
	return finding.Finding{
		Code:     result.CodeBelowClock,
		Severity: finding.Error,
		Message: fmt.Sprintf("%d of %s lasted less than %d clock steps (%d x %s = %s), the shortest %s: the clock cannot time them to 0.1%%",
			short, units.Count(len(e.Samples), "sample"), BelowClockSteps, BelowClockSteps,
			units.Duration(f.GranularityNs), units.Duration(limit), units.Duration(float64(shortest))),
		Evidence: map[string]any{
			"short_samples":  short,
			"samples":        len(e.Samples),
			"shortest_ns":    shortest,
			"granularity_ns": f.GranularityNs,
			"limit_ns":       limit,
		},
	}, true
}

// cyclesText is "1 cycle", "1.9 cycles": the count at two significant
// digits, with the noun agreeing.
func cyclesText(c float64) string {
	if n := units.Sig(c, 2); n != "1" {
		return n + " cycles"
	}
	return "1 cycle"
}
