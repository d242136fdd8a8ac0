package analyze

import (
	"fmt"
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
	if tail != nil && tail.TimeShare >= result.HeavyTailShare {
		msg := fmt.Sprintf("%s of the calls took over %gx the median (%s) and hold %s of the time: the mean and a loop's time per op hide them",
			units.Pct(tail.CallShare), tail.Factor, units.Duration(float64(tail.AboveNs)/tail.Factor), units.Pct(tail.TimeShare))
		if tail.Windows > 0 {
			msg += fmt.Sprintf("; a collection completed in %d of the %s holding one", tail.WindowsGC, units.Count(tail.Windows, "window"))
		}
		fs = append(fs, finding.Finding{Code: result.CodeHeavyTail, Severity: finding.Info, Message: msg,
			Evidence: map[string]any{"factor": tail.Factor, "above_ns": tail.AboveNs, "calls": tail.Calls,
				"call_share": tail.CallShare, "time_share": tail.TimeShare, "windows": tail.Windows, "windows_gc": tail.WindowsGC}})
	}
	var missing []string
	var need uint64
	for _, p := range ps {
		if !p.Reported {
			missing = append(missing, p.Name)
			need = max(need, p.Need)
		}
	}
	if len(missing) > 0 {
		fs = append(fs, finding.Finding{Code: result.CodeFewCalls, Severity: finding.Info,
			Message: fmt.Sprintf("%s not reported: %s timed, %d needed (%d beyond the percentile); more --samples or a longer --sample-time",
				strings.Join(missing, ", "), units.Count(e.Latency.Calls, "call"), need, latency.Beyond),
			Evidence: map[string]any{"calls": e.Latency.Calls, "need": need, "missing": missing}})
	}
	return fs
}
