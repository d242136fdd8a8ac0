package result

import (
	"math"
	"slices"
)

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

// fit is the least-squares line count = slope × iters + intercept over the
// samples with iters > 0 that counted event. With two or more different
// iters the slope is the cost of one op and the intercept what a run costs
// once, which cancels. With one iters only, the slope is the median count
// per op (and the intercept 0): nothing can cancel the constant.
func (c *Count) fit(event string) (slope, intercept float64, ok bool) {
	var xs, ys []float64
	for _, s := range c.Samples {
		v, counted := s.Events[event]
		if s.Iters <= 0 || !counted {
			continue
		}
		xs = append(xs, float64(s.Iters))
		ys = append(ys, float64(v))
	}
	if len(xs) == 0 {
		return 0, 0, false
	}
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= float64(len(xs))
	my /= float64(len(xs))
	var sxx, sxy float64
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	if sxx == 0 {
		per := make([]float64, len(xs))
		for i := range xs {
			per[i] = ys[i] / xs[i]
		}
		return median(per), 0, true
	}
	slope = sxy / sxx
	return slope, my - slope*mx, true
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

// PerOp is the count of event per op (see fit); false when no sample
// counted it. EventEstCycles is derived from the cache events.
func (c *Count) PerOp(event string) (float64, bool) {
	if c == nil {
		return 0, false
	}
	if event == EventEstCycles {
		ev := map[string]float64{}
		for _, e := range CacheEvents {
			if v, ok := c.PerOp(e); ok {
				ev[e] = v
			}
		}
		return EstimatedCycles(ev)
	}
	s, _, ok := c.fit(event)
	return s, ok
}

// SamplePerOp is each sample's count of event per op with the fitted
// constant taken out, (count - intercept) / iters, in sample order: their
// spread is the count's noise within the run. Samples without the event
// are left out.
func (c *Count) SamplePerOp(event string) []float64 {
	if c == nil {
		return nil
	}
	if event == EventEstCycles {
		return c.sampleEstCycles()
	}
	_, a, ok := c.fit(event)
	if !ok {
		return nil
	}
	var out []float64
	for _, s := range c.Samples {
		if v, counted := s.Events[event]; counted && s.Iters > 0 {
			out = append(out, (float64(v)-a)/float64(s.Iters))
		}
	}
	return out
}

func (c *Count) sampleEstCycles() []float64 {
	per := map[string][]float64{}
	for _, e := range CacheEvents {
		per[e] = c.SamplePerOp(e)
	}
	n := len(per[EventIr])
	var out []float64
	for i := range n {
		ev := map[string]float64{}
		for _, e := range CacheEvents {
			if i < len(per[e]) && len(per[e]) == n {
				ev[e] = per[e][i]
			}
		}
		v, ok := EstimatedCycles(ev)
		if !ok {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// Spread is the relative spread of the per-sample figures of event around
// the per-op figure: the largest |x - perOp| / perOp; 0 with fewer than two
// samples, or a per-op figure of 0.
func (c *Count) Spread(event string) float64 {
	per, ok := c.PerOp(event)
	xs := c.SamplePerOp(event)
	if !ok || per == 0 || len(xs) < 2 {
		return 0
	}
	var worst float64
	for _, x := range xs {
		worst = max(worst, math.Abs(x-per)/math.Abs(per))
	}
	return worst
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// RelError is the relative standard error of the per-op figure of event:
// of the slope, from the scatter of the counted runs about the line
// (with three runs or more); of the median of runs of one N, their
// standard deviation over √n. 0 when it cannot be told (two runs on a
// line, one run), and then only the floor of the run-to-run variation
// stands for the noise.
func (c *Count) RelError(event string) float64 {
	per, ok := c.PerOp(event)
	if !ok || per == 0 {
		return 0
	}
	var xs, ys []float64
	for _, s := range c.Samples {
		if v, counted := s.Events[event]; counted && s.Iters > 0 {
			xs = append(xs, float64(s.Iters))
			ys = append(ys, float64(v))
		}
	}
	n := float64(len(xs))
	if len(xs) < 3 {
		return 0
	}
	slope, a, _ := c.fit(event)
	if !c.Sloped() {
		var ss float64
		for i := range xs {
			d := ys[i]/xs[i] - slope
			ss += d * d
		}
		return math.Sqrt(ss/(n-1)) / math.Sqrt(n) / math.Abs(per)
	}
	var mx float64
	for _, x := range xs {
		mx += x
	}
	mx /= n
	var ssr, sxx float64
	for i := range xs {
		r := ys[i] - (slope*xs[i] + a)
		ssr += r * r
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return math.Sqrt(ssr/(n-2)/sxx) / math.Abs(per)
}
