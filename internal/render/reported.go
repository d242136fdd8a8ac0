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
			parts = append(parts, e.Name+" "+strings.Join(figures, ", "))
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
		parts = append(parts, e.Name+" "+units.Duration(at.Median)+"/op")
	}
	if len(parts) == 0 {
		return ""
	}
	return "as go test runs them (GOMAXPROCS " + strconv.Itoa(procs) + ", not pinned): " + strings.Join(parts, ", ") +
		" (the collector ran in most samples, and its cost moves with GOMAXPROCS and the pin: each figure holds for its settings)"
}

// slowedLine says what benchy did about samples a slowed core touched
// (slowed-samples, remeasured): which experiments it measured again, and
// where, and how many samples it left out of which; "" when it did
// nothing.
func slowedLine(r *result.Result) string {
	var parts []string
	for _, e := range r.Experiments {
		var what []string
		if len(e.Attempts) > 0 {
			var earlier []string
			for _, a := range e.Attempts {
				earlier = append(earlier, fmt.Sprintf("cpu%d %d of %d", a.CPU, len(a.Slowed), len(a.Samples)))
			}
			cpu := r.CPU
			if e.CPU != nil {
				cpu = *e.CPU
			}
			what = append(what, fmt.Sprintf("measured %d times, kept cpu%d's (slowed: %s)", len(e.Attempts)+1, cpu, strings.Join(earlier, ", ")))
		}
		if hasFinding(e, result.CodeSlowedSamples) {
			what = append(what, fmt.Sprintf("%d of %d samples left out", len(e.Slowed), len(e.Samples)))
		}
		if len(what) > 0 {
			parts = append(parts, e.Name+" "+strings.Join(what, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "slowed by the host (a speed check beside every sample): " + strings.Join(parts, "; ")
}
