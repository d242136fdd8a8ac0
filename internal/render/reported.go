package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// reportedLine is what the benchmarks reported of themselves, as go test
// prints it beside each time (MB/s, b.ReportMetric's units), one clause
// an experiment, the units in go test's order; "" when none reported
// anything. A benchmark's own ns/op, which go test prints in place of the
// loop's time, is named as its own: the table and the verdicts are of the
// time benchy measured.
func reportedLine(r *result.Result) string {
	var parts []string
	own := false
	for _, e := range r.Experiments {
		rep := e.Reported
		if len(rep) == 0 {
			continue
		}
		var figures []string
		for _, unit := range reportedUnits(rep) {
			v := rep[unit]
			if unit == result.UnitOwnNs {
				if v == 0 {
					continue // go test's way of printing no time at all
				}
				figures = append(figures, units.Duration(v)+"/op of its own")
				own = true
				continue
			}
			figures = append(figures, units.Sig(v, 3)+" "+unit)
		}
		if len(figures) > 0 {
			parts = append(parts, e.Label()+" "+strings.Join(figures, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	line := "reported by the benchmark (median per op): " + strings.Join(parts, "; ")
	if own {
		line += " (a time of its own is what go test prints; the table and the verdicts are of the time the loop took)"
	}
	return line
}

// reportedUnits are the units of rep in go test's order: its own ns/op,
// MB/s, then the others by name.
func reportedUnits(rep map[string]float64) []string {
	rank := func(unit string) int {
		switch unit {
		case result.UnitOwnNs:
			return 0
		case "MB/s":
			return 1
		}
		return 2
	}
	us := make([]string, 0, len(rep))
	for unit := range rep {
		us = append(us, unit)
	}
	slices.SortFunc(us, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return us
}

// goTestLine gives, for the benchmarks whose figure moved when measured
// again as go test runs them (the gomaxprocs-moves finding), that figure
// beside the table's; "" when none moved.
func goTestLine(r *result.Result) string {
	var parts []string
	procs := 0
	for _, e := range r.Experiments {
		at := e.AtGoTestSettings
		if at == nil || !hasFinding(e, result.CodeGOMAXPROCSMoves) {
			continue
		}
		procs = at.GOMAXPROCS
		parts = append(parts, e.Label()+" "+units.Duration(at.Median)+"/op")
	}
	if len(parts) == 0 {
		return ""
	}
	return "as go test runs them (GOMAXPROCS " + strconv.Itoa(procs) + ", not pinned): " + strings.Join(parts, ", ") +
		" (the collector ran in most samples, and its cost moves with GOMAXPROCS and the pin: each figure holds for its settings)"
}

// slowedLine says what benchy did about samples a slowed core touched
// (remeasured, slowed-samples): which experiments it measured again and
// where, grouped by the CPUs involved (a host that slows a core slows every
// experiment measured there, and one clause a name would not fit 80
// columns), and how many samples it left out of which; "" when it did
// nothing.
func slowedLine(r *result.Result) string {
	type move struct{ from, to string }
	var order []move
	groups := map[move][]string{}
	slowed := map[move][2]int{} // the least and most samples slowed where it was measured first
	samples := map[move]int{}   // the most samples an earlier attempt took
	var left []string
	var movedTo []string // a CPU the run moved to
	moved := map[string][]string{}
	for _, e := range r.Experiments {
		if len(e.Attempts) == 0 && e.CPU != nil && *e.CPU != r.CPU {
			cpu := fmt.Sprintf("cpu%d", *e.CPU)
			if _, ok := moved[cpu]; !ok {
				movedTo = append(movedTo, cpu)
			}
			moved[cpu] = append(moved[cpu], e.Name)
		}
		if len(e.Attempts) > 0 {
			cpu := r.CPU
			if e.CPU != nil {
				cpu = *e.CPU
			}
			var from []string
			lo, hi := len(e.Samples), 0
			for _, a := range e.Attempts {
				from = append(from, fmt.Sprintf("cpu%d", a.CPU))
				lo, hi = min(lo, len(a.Slowed)), max(hi, len(a.Slowed))
			}
			m := move{strings.Join(from, ", "), fmt.Sprintf("cpu%d", cpu)}
			for _, a := range e.Attempts {
				samples[m] = max(samples[m], len(a.Samples))
			}
			if _, ok := groups[m]; !ok {
				order = append(order, m)
				slowed[m] = [2]int{lo, hi}
			}
			groups[m] = append(groups[m], e.Label())
			sl := slowed[m]
			slowed[m] = [2]int{min(sl[0], lo), max(sl[1], hi)}
		}
		if hasFinding(e, result.CodeSlowedSamples) {
			left = append(left, fmt.Sprintf("%s %d of %d", e.Label(), len(e.Slowed), len(e.Samples)))
		}
	}
	var parts []string
	for _, m := range order {
		who := names(groups[m])
		n := fmt.Sprint(slowed[m][0])
		if slowed[m][1] != slowed[m][0] {
			n += "-" + fmt.Sprint(slowed[m][1])
		}
		parts = append(parts, fmt.Sprintf("%s measured again on %s (%s slowed %s of %d samples)", who, m.to, m.from, n, samples[m]))
	}
	for _, cpu := range movedTo {
		parts = append(parts, fmt.Sprintf("the run moved to %s: %s measured there only", cpu, names(moved[cpu])))
	}
	if len(left) > 0 {
		parts = append(parts, "samples left out: "+strings.Join(left, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return "slowed by the host (a speed check beside every sample): " + strings.Join(parts, "; ")
}

// names lists experiments for slowedLine, or counts them when there are
// more than three (-v lists them all).
func names(es []string) string {
	if len(es) > 3 {
		return fmt.Sprintf("%d experiments (-v names them)", len(es))
	}
	return strings.Join(es, ", ")
}
