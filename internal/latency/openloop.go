package latency

import "math"

// Clock is the time an open loop reads, in ns from a base of its own:
// the monotonic clock on the measured thread, a simulated one in tests.
type Clock interface {
	// Now is the time.
	Now() int64
	// WaitUntil returns at t or later (at once when t has passed) and
	// says when it returned.
	WaitUntil(t int64) int64
}

// OpenLoop runs calls at fixed intended start times, one every Interval
// ns (run --rate), and times each twice: from its actual start (Closed,
// what a closed loop records: the call's own time) and from its intended
// start (Open, what a client arriving on time sees). A stall delays the
// calls due behind it; a closed loop would start them late and never
// count the wait (coordinated omission, as wrk2 and HdrHistogram name
// it), the open loop counts it in each of them.
//
// The timetable runs only inside Run: between two runs (the harness's
// work between samples) it is paused, and the backlog or the wait left at
// the end of one run is carried into the next, so the harness's own time
// is nobody's latency and the calls' delays are kept.
type OpenLoop struct {
	// Interval is the time between two intended starts, in ns.
	Interval int64
	// Cost is the clock's cost, subtracted from every time as in a
	// closed loop.
	Cost         int64
	Closed, Open *Histogram
	// Slowest is the slowest call of the last run, from its actual start.
	Slowest int64
	// behind is how far behind the timetable the last run ended: the
	// backlog the next one starts with (0 when it kept up: its span ran
	// to the next intended start, which the next run begins at).
	behind int64
}

// IntervalOf is the time between two calls at perSecond calls a second,
// in ns, at least 1.
func IntervalOf(perSecond float64) int64 { return max(int64(math.Round(1e9/perSecond)), 1) }

// Run makes n calls on the timetable, reading c, and returns how long
// the run took on the timetable (from its start to the end of its last
// call, or to the next intended start when that is later: a run that
// keeps up lasts n intervals) and the lag it ended with (how far behind
// the timetable the next call would start, 0 when it is not).
func (o *OpenLoop) Run(c Clock, n int64, call func()) (span, lag int64) {
	begin := c.Now()
	due := begin - o.behind
	o.Slowest = 0
	for range n {
		start := c.WaitUntil(due)
		call()
		end := c.Now()
		d := end - start - o.Cost
		o.Closed.Record(d)
		o.Slowest = max(o.Slowest, d)
		o.Open.Record(end - due - o.Cost)
		due += o.Interval
	}
	end := c.Now()
	o.behind = max(end-due, 0)
	return max(end, due) - begin, o.behind
}

// FallingBehind is how many windows in a row the lag must grow for an
// open loop to be judged unable to keep up: a stall raises the lag in one
// window and a function with time to spare drains it in the next ones;
// only one slower than the rate makes it grow window after window.
const FallingBehind = 5

// FallingBehindIntervals is the least lag, in intervals, that counts as
// behind: a lag of a few calls is the jitter of one.
const FallingBehindIntervals = 10

// FellBehind reports whether lags, the lag at the end of each window in
// order, say the calls cannot keep up with the rate: it grew at the end
// of each of the last FallingBehind windows and is now over
// FallingBehindIntervals intervals. The queue grows without bound: the
// open-loop times of such a run are those of a queue, not of the calls.
func FellBehind(lags []int64, interval int64) bool {
	n := len(lags)
	if n <= FallingBehind || lags[n-1] <= FallingBehindIntervals*interval {
		return false
	}
	for i := n - FallingBehind; i < n; i++ {
		if lags[i] <= lags[i-1] {
			return false
		}
	}
	return true
}
