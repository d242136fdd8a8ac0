// Counts (this file) compares two sets of result files on the second
// basis, the instructions counted per op, and says what both bases mean
// together. A count barely moves between runs, so a change far smaller
// than time can show between runs made apart (about 9% with one run a
// side) is claimed: its noise is measured, not assumed.

package compare

import (
	"fmt"
	"math"
	"slices"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// CountFloor is the least relative standard error a run's count is given,
// whatever its own scatter says. Measured here (docs/instructions.md): the
// per-op counts of benchmarks that do not allocate were the same to the
// instruction over ten separate runs, quiet and with a CPU hog on the
// measured CPU; one that allocates moved by 1% (quiet) to 4% (hog), which
// its runs' own scatter shows and the interval takes in. A count that read
// the same ten times is no promise that the runtime never adds to it: 0.1%
// stands for what no run showed.
const CountFloor = 0.001

// countZ is how many standard errors a change must be from zero to be claimed:
// 3, for a count's noise is small and its tails are not known to be
// normal (a collection that slips into one run).
const countZ = 3

// Verdicts of a count comparison.
const (
	MoreInstructions  = "more instructions"
	FewerInstructions = "fewer instructions"
	SameInstructions  = "same instructions"
	CountNotCompared  = "not comparable"
	basisCounted      = result.EventInstructions
)

// CountRow is one experiment compared on its instructions per op.
type CountRow struct {
	Name string `json:"name"`
	// Old and New are the instructions per op of each side (the median of
	// its runs' figures).
	Old float64 `json:"old"`
	New float64 `json:"new"`
	// Change is New/Old - 1; Noise is the half-width of the interval
	// within which a change is not claimed (countZ standard errors, the floor
	// included).
	Change float64 `json:"change"`
	Noise  float64 `json:"noise"`
	// Counter is what counted on each side ("callgrind", "perf_event"),
	// one word when both agree.
	Counter string `json:"counter"`
	Verdict string `json:"verdict"`
	Reason  string `json:"reason,omitempty"`
	// Both is what the two bases say together, when the time was compared
	// too; empty otherwise.
	Both string `json:"both,omitempty"`
}

// Compare compares every experiment counted on both sides, in the old
// side's order; nil when none was.
func Counts(olds, news []*result.Result) []CountRow {
	var rows []CountRow
	var names []string
	for _, r := range olds {
		for _, e := range r.Experiments {
			if e.Count != nil && !slices.Contains(names, e.Name) {
				names = append(names, e.Name)
			}
		}
	}
	for _, name := range names {
		o, n := countsOf(olds, name), countsOf(news, name)
		if len(n) == 0 {
			continue
		}
		rows = append(rows, compareCount(name, o, n))
	}
	return rows
}

// counts are the counts of the experiment name in rs, those that failed
// left out.
func countsOf(rs []*result.Result, name string) []*result.Count {
	var out []*result.Count
	for _, r := range rs {
		if e := r.Find(name); e != nil && e.Count != nil {
			out = append(out, e.Count)
		}
	}
	return out
}

// side is one side's figure and its relative standard error: the larger
// of its runs' own (the scatter of each run's counts, over √runs) and,
// with two runs or more, the spread of their figures (over √runs).
func countSide(cs []*result.Count) (per, relErr float64, counter string, why string) {
	var pers []float64
	var own float64
	for _, c := range cs {
		if c.Error != "" {
			why = c.Error
			continue
		}
		v, ok := CountPerOp(c, basisCounted)
		if !ok {
			continue
		}
		pers = append(pers, v)
		own = max(own, countRelError(c, basisCounted))
		if counter == "" {
			counter = c.Counter
		}
	}
	if len(pers) == 0 {
		if why == "" {
			why = "nothing counted"
		}
		return 0, 0, "", why
	}
	per = stats.Median(pers)
	k := float64(len(pers))
	relErr = own / math.Sqrt(k)
	if len(pers) > 1 && per != 0 {
		var ss float64
		for _, v := range pers {
			ss += (v - per) * (v - per)
		}
		relErr = max(relErr, math.Sqrt(ss/(k-1))/math.Sqrt(k)/math.Abs(per))
	}
	return per, relErr, counter, ""
}

func compareCount(name string, olds, news []*result.Count) CountRow {
	row := CountRow{Name: name, Verdict: CountNotCompared}
	o, oe, oc, owhy := countSide(olds)
	n, ne, nc, nwhy := countSide(news)
	row.Old, row.New = o, n
	row.Counter = oc
	if oc != nc {
		row.Counter = oc + " and " + nc
	}
	switch {
	case owhy != "":
		row.Reason = "old: " + owhy
		return row
	case nwhy != "":
		row.Reason = "new: " + nwhy
		return row
	case oc != nc:
		// callgrind counts user space as it emulates it, perf the CPU's
		// own events: the two do not count the same instructions.
		row.Reason = fmt.Sprintf("counted by %s in old and %s in new, which do not count alike", oc, nc)
		return row
	case o <= 0:
		row.Reason = "old counted no instruction"
		return row
	}
	row.Change = n/o - 1
	row.Noise = countZ * math.Hypot(max(oe, CountFloor), max(ne, CountFloor))
	switch {
	case row.Change > row.Noise:
		row.Verdict = MoreInstructions
	case row.Change < -row.Noise:
		row.Verdict = FewerInstructions
	default:
		row.Verdict = SameInstructions
	}
	return row
}

// Judge says what the two bases mean together, given the time
// comparison's verdict and change (result.Faster, Slower, NoDifference;
// anything else leaves it unsaid).
func (r *CountRow) Judge(timeVerdict string, timeChange float64) {
	if r.Verdict == CountNotCompared {
		return
	}
	t, c := units.Change(timeChange), units.Change(r.Change)
	moved := timeVerdict == result.Faster || timeVerdict == result.Slower
	switch {
	case moved && r.Verdict == SameInstructions:
		r.Both = fmt.Sprintf("%s: time %s, instructions %s (within their noise, ±%s): the machine, the memory or the code's layout moved, not the code",
			r.Name, t, c, countPct(r.Noise))
	case (timeVerdict == result.Inconclusive || timeVerdict == result.NotComparable) && r.Verdict != SameInstructions:
		r.Both = fmt.Sprintf("%s: instructions %s (beyond their noise, ±%s), the time could not be judged (%s): the count alone says the code changed",
			r.Name, c, countPct(r.Noise), timeVerdict)
	case timeVerdict == result.NoDifference && r.Verdict != SameInstructions:
		r.Both = fmt.Sprintf("%s: instructions %s (beyond their noise, ±%s), time %s within its noise: the code changed by less than time can tell between runs",
			r.Name, c, countPct(r.Noise), t)
	case timeVerdict == result.Slower && r.Verdict == MoreInstructions, timeVerdict == result.Faster && r.Verdict == FewerInstructions:
		r.Both = fmt.Sprintf("%s is %s on both bases: time %s, instructions %s", r.Name, timeVerdict, t, c)
	case timeVerdict == result.Slower && r.Verdict == FewerInstructions, timeVerdict == result.Faster && r.Verdict == MoreInstructions:
		r.Both = fmt.Sprintf("%s is %s in time (%s) with %s (%s): the work changed and its cost per instruction moved the other way (memory, branches), or the machine did",
			r.Name, timeVerdict, t, r.Verdict, c)
	}
}

// pct is a small relative figure with two significant digits: "0.30%".
func countPct(x float64) string { return units.Sig(100*x, 2) + "%" }
