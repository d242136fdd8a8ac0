package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// latencyBarWidth is the longest bar of the latency block: the max. The
// bars are on a log scale from the fastest call, so a tail 100x the
// median reads as far from it, not as a line off the screen.
const latencyBarWidth = 30

// writeLatencyText writes what --latency kept of e's calls: a row per
// percentile with its interval and a bar, the max, and the latency
// findings (the tail, the percentiles too few calls cannot give) when
// findings (the compact text, which lists no info finding). Nothing when
// the calls were not timed.
func writeLatencyText(w *errWriter, e result.Experiment, width int, ascii, findings bool) {
	l := e.Latency
	if l == nil || l.Calls == 0 {
		return
	}
	w.printf("\n%s\n", Wrap(fmt.Sprintf("%s: %s, each less the clock's cost (%s); 95%% intervals",
		e.Name, units.Count(l.Calls, "call"), units.Duration(l.ClockCostNs)), width, "  "))
	rows := [][]string{}
	for _, p := range l.Percentiles {
		if !p.Reported {
			rows = append(rows, []string{"  " + p.Name, "-", fmt.Sprintf("(needs %d calls)", p.Need), ""})
			continue
		}
		rows = append(rows, []string{"  " + p.Name, units.Duration(float64(p.Ns)), interval(p), latencyBar(p.Ns, l, ascii)})
	}
	rows = append(rows, []string{"  max", units.Duration(float64(l.MaxNs)), "", latencyBar(l.MaxNs, l, ascii)})
	if w.err == nil {
		w.err = WriteLeft(w, rows)
	}
	for _, f := range e.Findings {
		if findings && f.Code == result.CodeHeavyTail || f.Code == result.CodeFewCalls {
			w.printf("  %s\n", Wrap(f.Code+": "+f.Message, width-2, "    "))
		}
	}
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
