package result

// Count is an experiment's second basis: the instructions it executed
// (and, with a cache simulation, its cache events), counted apart from its
// time. A count does not depend on what else the machine does, so it can
// be compared between runs made apart, where time cannot; it says nothing
// of a cache miss or a slow clock, which cost time and no instruction.
type Count struct {
	// Counter says what counted: CounterCallgrind or CounterPerf.
	Counter string `json:"counter"`
	// Tool names the counter as it named itself ("callgrind-3.19.0",
	// "perf_event instructions:u").
	Tool string `json:"tool,omitempty"`
	// Symbol is the function counted in (callgrind --toggle-collect);
	// empty when the whole program was counted.
	Symbol string `json:"symbol,omitempty"`
	// Caches are the caches callgrind simulated (I1, D1, LL), when it did:
	// its model of the CPU it emulates, not the host's.
	Caches map[string]string `json:"caches,omitempty"`
	// Events are the events counted, EventInstructions first.
	Events []string `json:"events"`
	// Samples are the counted runs, each at its own number of ops.
	Samples []CountSample `json:"samples"`
	// Error, when not empty, is why nothing (or not all) was counted.
	Error string `json:"error,omitempty"`
	// WallNs is the wall time all counted runs took, calibration included.
	WallNs int64 `json:"wall_ns,omitempty"`
}

// CountSample is one counted run: the totals of every event over Iters ops
// (plus whatever a run costs once: a program's start, a benchmark's first
// call).
type CountSample struct {
	Iters  int64            `json:"iters"`
	Events map[string]int64 `json:"events"`
	WallNs int64            `json:"wall_ns,omitempty"`
}

// What counted a Count.
const (
	// CounterCallgrind: valgrind's callgrind, which emulates the CPU and
	// counts every instruction the program executes in user space.
	CounterCallgrind = "callgrind"
	// CounterPerf: the CPU's own instruction counter through
	// perf_event_open, at native speed, user space only.
	CounterPerf = "perf_event"
)

// EventInstructions is the count of instructions executed (callgrind's Ir,
// perf's instructions:u).
const EventInstructions = "instructions"

// EventEstCycles is the derived estimate of cycles (EstimatedCycles), the
// unit of no counter.
const EventEstCycles = "est-cycles"

// Points are the runs that counted event, as (ops, count) pairs: the
// totals the per-op figure is estimated from (compare.CountPerOp); none
// for a nil count.
func (c *Count) Points(event string) (iters, counts []float64) {
	if c == nil {
		return nil, nil
	}
	for _, s := range c.Samples {
		if v, counted := s.Events[event]; counted && s.Iters > 0 {
			iters = append(iters, float64(s.Iters))
			counts = append(counts, float64(v))
		}
	}
	return iters, counts
}

// Sloped reports whether c's per-op figures are a slope (its samples have
// at least two different numbers of ops), so that a run's constant costs
// cancel.
func (c *Count) Sloped() bool {
	var first int64
	for _, s := range c.Samples {
		if s.Iters <= 0 {
			continue
		}
		if first == 0 {
			first = s.Iters
		} else if s.Iters != first {
			return true
		}
	}
	return false
}
