package render

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// latencyBarWidth is the longest bar of the latency block: the max. The
// bars are on a log scale from the fastest call, so a tail 100x the
// median reads as far from it, not as a line off the screen.
const latencyBarWidth = 30

// writeLatencyText writes what --latency kept of e's calls, or of the runs
// of an exec program: a row per percentile with its interval and a bar,
// or the calls it needs; the max; and the tail's finding when findings
// (the compact text, which lists no info finding). few-calls is not
// repeated: the rows say what each percentile needs. When none can be
// reported (a few runs of a slow program), one line says what each needs;
// when a program's runs give only the median (exec's default), one line
// gives it and says what the others need.
// Nothing when the calls were not timed.
func writeLatencyText(w *errWriter, e result.Experiment, width int, ascii, findings bool) {
	l := e.Latency
	if l == nil || l.Calls == 0 {
		return
	}
	reported := 0
	for _, p := range l.Percentiles {
		if p.Reported {
			reported++
		}
	}
	switch {
	case l.Rate != nil:
		writeOpenLoopText(w, e.Label(), l, width)
	case reported == 0 && len(l.Percentiles) > 0:
		w.printf("\n%s\n", Wrap(fmt.Sprintf("%s: %s, too few for a percentile (%s: %d beyond it); max %s",
			e.Label(), units.Count(l.Calls, callNoun(l)), needs(l, l.Percentiles), latency.Beyond, units.Duration(float64(l.MaxNs))), width, "  "))
	case reported == 1 && l.Percentiles[0].Reported && l.Runs:
		// A program's default runs give its median alone: a block of
		// rows saying "(needs N runs)" would tell less than this line.
		p := l.Percentiles[0]
		w.printf("\n%s\n", Wrap(fmt.Sprintf("%s: %s, each timed from start to exit: %s %s (95%% CI %s to %s), max %s; %s: %d beyond it (--runs)",
			e.Label(), units.Count(l.Calls, "run"), p.Name, units.Duration(float64(p.Ns)), units.Duration(float64(p.LoNs)), units.Duration(float64(p.HiNs)),
			units.Duration(float64(l.MaxNs)), needs(l, l.Percentiles[1:]), latency.Beyond), width, "  "))
	default:
		head := fmt.Sprintf("%s: %s, each less the clock's cost (%s); 95%% intervals",
			e.Label(), units.Count(l.Calls, "call"), units.Duration(l.ClockCostNs))
		if l.Runs {
			head = fmt.Sprintf("%s: %s, each timed from start to exit; 95%% intervals", e.Label(), units.Count(l.Calls, "run"))
		}
		w.printf("\n%s\n", Wrap(head, width, "  "))
		rows := [][]string{}
		for _, p := range l.Percentiles {
			if !p.Reported {
				rows = append(rows, []string{"  " + p.Name, "-", fmt.Sprintf("(needs %s)", units.Count(p.Need, callNoun(l))), ""})
				continue
			}
			rows = append(rows, []string{"  " + p.Name, units.Duration(float64(p.Ns)), interval(p), latencyBar(p.Ns, l, ascii)})
		}
		rows = append(rows, []string{"  max", units.Duration(float64(l.MaxNs)), "", latencyBar(l.MaxNs, l, ascii)})
		if w.err == nil {
			w.err = WriteLeft(w, rows)
		}
	}
	for _, f := range e.Findings {
		if findings && f.Code == result.CodeHeavyTail {
			w.printf("  %s\n", Wrap(f.Code+": "+f.Message, width-2, "    "))
		}
	}
}

// needs says what each of ps needs: "p90 needs 100 runs, p99 needs 1000".
func needs(l *result.Latency, ps []result.Percentile) string {
	var out []string
	for i, p := range ps {
		n := strconv.FormatUint(p.Need, 10)
		if i == 0 {
			n = units.Count(p.Need, callNoun(l))
		}
		out = append(out, p.Name+" needs "+n)
	}
	return strings.Join(out, ", ")
}

// writeOpenLoopText writes the calls of an open loop (run --rate): the
// rate asked and achieved, and each percentile twice, side by side: from
// the call's actual start (what a closed loop records) and from its
// intended start (what a caller arriving on time waits), so the waits
// behind a stall that the first hides are read beside it.
func writeOpenLoopText(w *errWriter, name string, l *result.Latency, width int) {
	r := l.Rate
	w.printf("\n%s\n", Wrap(fmt.Sprintf("%s at %s (achieved %s): %s, each less the clock's cost (%s); 95%% intervals",
		name, units.Rate(r.PerSecond), units.Rate(r.Achieved), units.Count(l.Calls, "call"), units.Duration(l.ClockCostNs)), width, "  "))
	cell := func(ps []result.Percentile, i int) []string {
		if i >= len(ps) {
			return []string{"", ""}
		}
		p := ps[i]
		if !p.Reported {
			return []string{"-", fmt.Sprintf("(needs %d calls)", p.Need)}
		}
		return []string{units.Duration(float64(p.Ns)), interval(p)}
	}
	rows := [][]string{{"", "closed loop", "", "open loop"}}
	for i, p := range l.Percentiles {
		rows = append(rows, slices.Concat([]string{"  " + p.Name}, cell(l.Percentiles, i), cell(r.Open.Percentiles, i)))
	}
	rows = append(rows, []string{"  max", units.Duration(float64(l.MaxNs)), "", units.Duration(float64(r.Open.MaxNs))})
	if w.err == nil {
		w.err = WriteLeft(w, rows)
	}
	w.printf("  %s\n", Wrap("closed loop: from each call's start, as a loop that waits for each call records; open loop: from its intended start, the wait behind a slower call included, as a caller arriving on time sees it", width-2, "  "))
	if r.FellBehind {
		w.printf("  %s\n", Wrap(fmt.Sprintf("the calls could not keep up with %s (up to %s behind): the open loop's times are of a queue that grew, and the sampling stopped", units.Rate(r.PerSecond), units.Duration(float64(r.MaxLagNs))), width-2, "  "))
	}
}

// callNoun is what one of l's calls is: a call, or a run of a program
// (exec).
func callNoun(l *result.Latency) string {
	if l.Runs {
		return "run"
	}
	return "call"
}

// interval is a percentile's interval, "[1.14 µs, 1.16 µs]", an end no
// call reaches shown as "?".
func interval(p result.Percentile) string {
	end := func(ns int64) string {
		if ns < 0 {
			return "?"
		}
		return units.Duration(float64(ns))
	}
	return "[" + end(p.LoNs) + ", " + end(p.HiNs) + "]"
}

// latencyBar is a bar for ns on a log scale from the fastest call (one
// block) to the slowest (latencyBarWidth); '#' in ASCII.
func latencyBar(ns int64, l *result.Latency, ascii bool) string {
	lo, hi := math.Max(float64(l.MinNs), 1), math.Max(float64(l.MaxNs), 1)
	n := 1
	if hi > lo {
		n += int(math.Round(float64(latencyBarWidth-1) * math.Log(math.Max(float64(ns), lo)/lo) / math.Log(hi/lo)))
	}
	block := "█"
	if ascii {
		block = "#"
	}
	return strings.Repeat(block, min(n, latencyBarWidth))
}
