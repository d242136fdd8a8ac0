package analyze

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// latencyLevel is the level of the percentiles' intervals, that of the
// median's elsewhere.
const latencyLevel = 0.95

// summarizeLatency derives the percentiles and the tail of l's calls, from
// its histogram alone.
func summarizeLatency(l result.Latency) ([]result.Percentile, *result.Tail) {
	h := latency.Load(l)
	tail := latency.TailOf(h, latency.TailFactor)
	if tail != nil {
		for _, w := range l.Windows {
			if w.MaxNs > tail.AboveNs {
				tail.Windows++
				if w.GCCycles > 0 {
					tail.WindowsGC++
				}
			}
		}
	}
	return latency.Percentiles(h, latency.Reported, latencyLevel), tail
}

// runLatency is the latency report of a program's runs (exec): a run is
// one call of the program, so its wall time goes into the histogram the
// in-process calls use, and the percentiles, their intervals and the runs
// each needs are read from it the same way (latency.Percentiles): one
// implementation for both. Of steady, the runs the table's statistics are
// of (a warm-up and those a slowed core touched left out), so p50 is the
// median beside it. Nil for no runs.
func runLatency(steady []result.Sample) *result.Latency {
	h := latency.New()
	for _, s := range steady {
		if s.Iters > 0 {
			h.Record(int64(math.Round(s.NsPerOp())))
		}
	}
	if h.Count() == 0 {
		return nil
	}
	l := &result.Latency{Runs: true}
	h.Store(l)
	return l
}

// checkLatency judges the calls --latency timed: a tail far from the
// median (heavy-tail), and percentiles too few calls cannot report
// (few-calls). Both inform: they describe the code, not a doubt about the
// measurement.
func checkLatency(e result.Experiment) []finding.Finding {
	if e.Latency == nil || e.Latency.Calls == 0 {
		return nil
	}
	ps, tail := summarizeLatency(*e.Latency)
	var fs []finding.Finding
	noun, hide, more := "call", "the mean and a loop's time per op hide them", "more --samples or a longer --sample-time"
	if e.Latency.Runs {
		noun, hide, more = "run", "the mean hides them", "more --runs"
	}
	if tail != nil && tail.TimeShare >= result.HeavyTailShare {
		msg := fmt.Sprintf("%s of the %s took over %gx the median (%s) and hold %s of the time: %s",
			units.Pct(tail.CallShare), units.Plural(noun), tail.Factor, units.Duration(float64(tail.AboveNs)/tail.Factor), units.Pct(tail.TimeShare), hide)
		if tail.Windows > 0 {
			msg += fmt.Sprintf("; a collection completed in %d of the %s holding one", tail.WindowsGC, units.Count(tail.Windows, "window"))
		}
		fs = append(fs, finding.Finding{Code: result.CodeHeavyTail, Severity: finding.Info, Message: msg,
			Evidence: map[string]any{"factor": tail.Factor, "above_ns": tail.AboveNs, "calls": tail.Calls,
				"call_share": tail.CallShare, "time_share": tail.TimeShare, "windows": tail.Windows, "windows_gc": tail.WindowsGC}})
	}
	var missing, needs []string
	var need uint64
	for _, p := range ps {
		if !p.Reported {
			missing = append(missing, p.Name)
			needs = append(needs, fmt.Sprintf("%s (needs %d)", p.Name, p.Need))
			need = max(need, p.Need)
		}
	}
	if len(missing) > 0 {
		fs = append(fs, finding.Finding{Code: result.CodeFewCalls, Severity: finding.Info,
			Message: fmt.Sprintf("too few %s for %s: %d timed, and a percentile needs %d beyond it; %s",
				units.Plural(noun), strings.Join(needs, ", "), e.Latency.Calls, latency.Beyond, more),
			Evidence: map[string]any{"calls": e.Latency.Calls, "need": need, "missing": missing}})
	}
	return fs
}
