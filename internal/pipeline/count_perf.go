package pipeline

import (
	"slices"

	"github.com/benchy-dev/benchy/internal/result"
)

// CountFromSamples makes every experiment's count from the CPU's own
// instruction counter, read around each of its samples (perf_event_open
// instructions, user space), when the run could open it: the same basis
// as callgrind's at native speed, with every sample its own count. It
// reports whether it could; where the PMU is missing (most virtual
// machines) the counts come from callgrind instead.
func CountFromSamples(r *result.Result) bool {
	if !slices.Contains(r.Counters.Opened, result.CounterInstructions) {
		return false
	}
	tool := "perf_event " + result.CounterInstructions
	if note := r.Counters.Notes[result.CounterInstructions]; note != "" {
		tool += " (" + note + ")"
	}
	for i := range r.Experiments {
		e := &r.Experiments[i]
		if e.Error != "" {
			continue
		}
		c := &result.Count{Counter: result.CounterPerf, Tool: tool, Events: []string{result.EventInstructions}, Samples: []result.CountSample{}}
		for _, s := range e.Samples {
			if v, ok := s.Counters[result.CounterInstructions]; ok && s.Iters > 0 {
				c.Samples = append(c.Samples, result.CountSample{Iters: s.Iters, Events: map[string]int64{result.EventInstructions: v}, WallNs: s.Ns})
			}
		}
		if len(c.Samples) == 0 {
			c.Error = "no sample read the instructions counter"
		}
		e.Count = c
	}
	return true
}
