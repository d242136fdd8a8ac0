package inproc

import (
	"fmt"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// MinCallClocks is how many times the cost of timing it a call must take
// to be timed alone (run --latency): at 20x, the clock's own cost and its
// jitter (a few ns) are a few percent of the call, and subtracting the
// cost cannot turn the call's time into noise.
const MinCallClocks = 20

// Sizes of the probes Open takes before the calls are timed: readings of
// the clock for its cost, and calls (after as many untimed ones) for
// their median.
const (
	clockProbes = 20000
	callProbes  = 1000
)

// calls is what --latency keeps while an experiment's calls are timed.
type calls struct {
	// cost is the clock's cost subtracted from every call, in ns.
	cost int64
	// hist holds the recorded calls; scratch the warm-up's and the
	// calibration's, timed the same way and never read.
	hist, scratch *latency.Histogram
	windows       []result.LatencyWindow
	gcCycles      uint32
	// slowest is the slowest call of the last timed run.
	slowest int64

	// With a rate (an open loop): loop times the recorded calls, its
	// Closed is hist; scratch's loop the others. span is the recorded
	// windows' time on the timetable, lag how far behind it the last
	// ended, lags every window's, fellBehind that the calls could not
	// keep up.
	perSecond     float64
	loop, warming *latency.OpenLoop
	span, lag     int64
	lags          []int64
	fellBehind    bool
}

// monotonic is the open loop's clock: time.Since one base, as the calls
// of a closed loop are timed. It waits by spinning on the pinned thread:
// a sleep would give the CPU away and wake tens of µs late, a delay the
// open loop would count in the call.
type monotonic struct{ base time.Time }

func (c monotonic) Now() int64 { return int64(time.Since(c.base)) }

func (c monotonic) WaitUntil(t int64) int64 {
	for {
		if now := c.Now(); now >= t {
			return now
		}
	}
}

// clockCost is what timing a call costs: the median difference of two
// readings of the clock with nothing between, taken as the calls are
// timed (time.Since of one base time: the monotonic clock only, the
// cheapest reading Go offers). A median, so a reading that an interrupt
// split does not move it.
func clockCost() int64 {
	h := latency.New()
	base := time.Now()
	for range clockProbes {
		a := time.Since(base)
		b := time.Since(base)
		h.Record(int64(b - a))
	}
	return h.Quantile(0.5)
}

// timeCalls calls f n times, timing each alone, and records each call's
// time less cost into h. It returns the time of the whole run (timing
// included) and the slowest call.
func timeCalls(f func(), n int64, cost int64, h *latency.Histogram) (time.Duration, int64) {
	var slowest int64
	base := time.Now()
	for range n {
		a := time.Since(base)
		f()
		d := int64(time.Since(base)-a) - cost
		h.Record(d)
		slowest = max(slowest, d)
	}
	return time.Since(base), slowest
}

// openCalls measures the clock's cost and refuses a call too short to
// time alone (harness.ErrRefused): fewer than MinCallClocks times that
// cost at the median of callProbes calls, taken after as many untimed.
func (t *Target) openCalls() error {
	if t.w.Call == nil {
		return fmt.Errorf("%w: %s has no Call: --latency times single calls", harness.ErrRefused, t.w.Name)
	}
	c := &calls{cost: clockCost(), hist: latency.New(), scratch: latency.New()}
	for range callProbes {
		t.w.Call()
	}
	probe := latency.New()
	timeCalls(t.w.Call, callProbes, 0, probe)
	if m := probe.Quantile(0.5); m < MinCallClocks*c.cost {
		return fmt.Errorf("%w: %s: a call timed alone reads %s, the clock included: under %dx what timing it costs (%s); time them in batches instead (run without --latency)",
			harness.ErrRefused, t.w.Name, units.Duration(float64(m)), MinCallClocks, units.Duration(float64(c.cost)))
	}
	if r := t.opts.Rate; r > 0 {
		c.perSecond = r
		c.loop = &latency.OpenLoop{Interval: latency.IntervalOf(r), Cost: c.cost, Closed: c.hist, Open: latency.New()}
		c.warming = &latency.OpenLoop{Interval: c.loop.Interval, Cost: c.cost, Closed: c.scratch, Open: c.scratch}
	}
	t.calls = c
	return nil
}

// timedCalls runs n timed calls: recorded when record, else into the
// scratch histogram (warm-up, calibration), at the same cost.
func (t *Target) timedCalls(n int64, record bool) time.Duration {
	c := t.calls
	if c.loop != nil {
		return c.pacedCalls(t.w.Call, n, record)
	}
	h := c.scratch
	if record {
		h = c.hist
	}
	d, slowest := timeCalls(t.w.Call, n, c.cost, h)
	c.slowest = slowest
	return d
}

// pacedCalls runs n calls of f on the open loop's timetable and returns
// the run's span on it. The warm-up's and the calibration's runs each
// start on time; the recorded ones carry their backlog from one to the
// next (latency.OpenLoop).
func (c *calls) pacedCalls(f func(), n int64, record bool) time.Duration {
	o := c.loop
	if !record {
		o = &latency.OpenLoop{Interval: c.warming.Interval, Cost: c.cost, Closed: c.scratch, Open: c.scratch}
	}
	span, lag := o.Run(monotonic{time.Now()}, n, f)
	c.slowest = o.Slowest
	if record {
		c.span += span
		c.lag = lag
		c.lags = append(c.lags, lag)
	}
	return time.Duration(span)
}

// keepingUp is nil unless the open loop's calls cannot keep up with its
// rate (latency.FellBehind): then the sampling stops, with an error that
// says so, and Latency marks the rate FellBehind.
func (c *calls) keepingUp() error {
	if c.loop == nil || !latency.FellBehind(c.lags, c.loop.Interval) {
		return nil
	}
	c.fellBehind = true
	return fmt.Errorf("the calls cannot keep up with %s: they ended further behind their timetable in each of the last %d samples, %s behind at the last; achieved %s: measure at a lower --rate",
		units.Rate(c.perSecond), latency.FallingBehind, units.Duration(float64(c.lag)), units.Rate(c.achieved()))
}

// achieved is the recorded calls per second on their timetable.
func (c *calls) achieved() float64 {
	if c.span <= 0 {
		return 0
	}
	return float64(c.loop.Open.Count()) / time.Duration(c.span).Seconds()
}

// Latency is what --latency recorded of the calls: nil without it.
func (t *Target) Latency() *result.Latency {
	if t.calls == nil || t.calls.hist.Count() == 0 {
		return nil
	}
	l := &result.Latency{ClockCostNs: float64(t.calls.cost), GCCycles: t.calls.gcCycles, Windows: t.calls.windows}
	t.calls.hist.Store(l)
	if c := t.calls; c.loop != nil {
		r := &result.LatencyRate{PerSecond: c.perSecond, IntervalNs: c.loop.Interval, Achieved: c.achieved(), FellBehind: c.fellBehind}
		for _, lag := range c.lags {
			r.MaxLagNs = max(r.MaxLagNs, lag)
		}
		c.loop.Open.Store(&r.Open)
		r.Open.ClockCostNs = l.ClockCostNs
		l.Rate = r
	}
	return l
}
