package changepoint

import (
	"fmt"
	"strings"
)

// Across is the class of an experiment whose processes (fresh executions of
// the same benchmark) classify as results:
//
//   - every judged result of one class: that class;
//   - a mix of Flat and Warmup only: Warmup. Barrett et al. call this "good
//     inconsistent": every process ends in a steady state as fast as it got,
//     and the flat ones had warmed up before their first sample. Whether the
//     processes' steady levels agree with each other is not asked here: the
//     level of one process against another (memory layout, ASLR) is a
//     between-process question, and this package only judges shape in run
//     order;
//   - any other mix: Inconsistent ("bad inconsistent"): some processes
//     slowed down or never settled while others did not, so no one rule for
//     picking samples fits them all.
//
// Results with Judged false (too short, invalid values) take no part; with
// none judged Across returns Flat, so that callers use every sample.
func Across(results []Result) Class {
	counts := classCounts(results)
	switch {
	case len(counts) == 0:
		return Flat
	case len(counts) == 1:
		for c := range counts {
			return c
		}
	case len(counts) == 2 && counts[Flat] > 0 && counts[Warmup] > 0:
		return Warmup
	}
	return Inconsistent
}

// Processes is the classification of every process of one experiment.
type Processes struct {
	Results []Result // one per process, in the order given
	Class   Class    // Across(Results)
	// Reason is one line a person reads, e.g. "processes disagree: 3
	// warmup, 2 slowdown".
	Reason string
}

// ClassifyProcesses classifies each series of series, one per process, and
// the experiment as a whole (see Across).
func ClassifyProcesses(series [][]float64) Processes {
	p := Processes{Results: make([]Result, len(series))}
	for i, xs := range series {
		p.Results[i] = Classify(xs)
	}
	p.Class = Across(p.Results)
	counts := classCounts(p.Results)
	var parts []string
	for _, c := range []Class{Flat, Warmup, Slowdown, NoSteadyState} {
		if counts[c] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[c], c))
		}
	}
	judged := 0
	for _, n := range counts {
		judged += n
	}
	switch {
	case judged == 0:
		p.Reason = fmt.Sprintf("none of %d processes could be judged", len(series))
	case p.Class == Inconsistent:
		p.Reason = "processes disagree: " + strings.Join(parts, ", ")
	case len(parts) > 1:
		p.Reason = "every process ends fastest: " + strings.Join(parts, ", ")
	default:
		p.Reason = fmt.Sprintf("all %d judged processes: %s", judged, p.Class)
	}
	if skipped := len(series) - judged; judged > 0 && skipped > 0 {
		p.Reason += fmt.Sprintf(" (%d not judged)", skipped)
	}
	return p
}

func classCounts(results []Result) map[Class]int {
	counts := make(map[Class]int)
	for _, r := range results {
		if r.Judged {
			counts[r.Class]++
		}
	}
	return counts
}
