package latency

import (
	"slices"
	"testing"
)

const ms = 1_000_000

// simClock is a simulated clock: waiting moves it to the time waited
// for, and a call moves it by the call's time.
type simClock struct{ now int64 }

func (c *simClock) Now() int64 { return c.now }

func (c *simClock) WaitUntil(t int64) int64 {
	c.now = max(c.now, t)
	return c.now
}

// stalling is a call of service ns that, the first time it starts at or
// after each multiple of every, first stalls for stall ns (the collector,
// a lock, a page fault storm): the 50 ms every second.
type stalling struct {
	c                     *simClock
	service, every, stall int64
	next                  int64
}

func (s *stalling) call() {
	if s.c.now >= s.next {
		s.c.now += s.stall
		s.next += s.every
	}
	s.c.now += s.service
}

func newLoop(perSecond float64) *OpenLoop {
	return &OpenLoop{Interval: IntervalOf(perSecond), Closed: New(), Open: New()}
}

// The example of coordinated omission, on a simulated clock:
// 1,000 calls a second of 20 µs for 10 s, and a 50 ms stall every
// second. A closed loop records the stall once a second, in one call of
// 1,000, and its p99 is a usual call; the callers due during the stall
// waited up to 50 ms, and the open loop's p99 says so.
func TestOpenLoopCoordinatedOmission(t *testing.T) {
	const (
		rate    = 1000
		seconds = 10
		service = 20_000
		stall   = 50 * ms
	)
	c := &simClock{}
	s := &stalling{c: c, service: service, every: 1000 * ms, stall: stall}
	o := newLoop(rate)
	span, lag := o.Run(c, rate*seconds, s.call)

	// The truth, worked out by hand: in each second, the call due at its
	// start takes the stall (50 ms + its own time); the j-th due after it,
	// j ms later, starts when the j before it have ended and waits
	// 50 ms + (j+1) calls - j ms; once that is less than a call, none waits.
	var truth []int64
	for range seconds {
		for j := range int64(rate) {
			truth = append(truth, max(stall+(j+1)*service-j*ms, service))
		}
	}
	slices.Sort(truth)
	want := truth[Rank(0.99, uint64(len(truth)))-1] // nearest rank: 40 ms and 11 calls
	if want < 40*ms || want > 41*ms {
		t.Fatalf("the worked truth of p99 is %d ns, want about 40 ms", want)
	}

	open, closed := o.Open.Quantile(0.99), o.Closed.Quantile(0.99)
	t.Logf("p99: closed loop %d ns, open loop %d ns, truth %d ns", closed, open, want)
	if d := float64(open-want) / float64(want); d < -0.1 || d > 0.1 {
		t.Errorf("open-loop p99 = %d ns, want within 10%% of %d", open, want)
	}
	if closed*10 >= want {
		t.Errorf("closed-loop p99 = %d ns, want understated over 10x (truth %d)", closed, want)
	}
	if !withinBucket(closed, service) {
		t.Errorf("closed-loop p99 = %d ns, want a usual call, %d", closed, service)
	}
	if o.Closed.Max() != stall+service || o.Open.Max() != stall+service {
		t.Errorf("max closed %d, open %d: want the stalled call, %d, in both", o.Closed.Max(), o.Open.Max(), stall+service)
	}
	if o.Open.Count() != rate*seconds || o.Closed.Count() != rate*seconds {
		t.Errorf("%d open and %d closed calls, want %d each", o.Open.Count(), o.Closed.Count(), rate*seconds)
	}
	// The calls kept up: the run lasted its timetable, with no lag.
	if span != seconds*1000*ms || lag != 0 {
		t.Errorf("span %d ns, lag %d: want %d and 0", span, lag, seconds*1000*ms)
	}
}

// Between runs the timetable stops: the harness's own time between
// samples is nobody's latency, and a backlog at the end of a run is
// carried into the next. Runs of 10 calls with 3 ms of other work between
// them record what one run of all the calls records.
func TestOpenLoopPausedBetweenRuns(t *testing.T) {
	whole := func(window int64, gap int64) *OpenLoop {
		c := &simClock{}
		s := &stalling{c: c, service: 20_000, every: 250 * ms, stall: 30 * ms}
		o := newLoop(1000)
		var span int64
		for range 2000 / window {
			d, _ := o.Run(c, window, s.call)
			span += d
			c.now += gap
			s.next += gap // the stalls keep their place in the calls' time
		}
		if span != 2000*ms {
			t.Errorf("windows of %d: spans add to %d ns, want %d", window, span, 2000*ms)
		}
		return o
	}
	one, runs := whole(2000, 0), whole(10, 3*ms)
	for _, p := range []float64{0.5, 0.9, 0.99, 0.999, 1} {
		if a, b := one.Open.Quantile(p), runs.Open.Quantile(p); a != b {
			t.Errorf("open %s: %d in one run, %d in runs of 10", Name(p), a, b)
		}
		if a, b := one.Closed.Quantile(p), runs.Closed.Quantile(p); a != b {
			t.Errorf("closed %s: %d in one run, %d in runs of 10", Name(p), a, b)
		}
	}
	if one.Open.Quantile(0.99) < 20*ms {
		t.Errorf("open p99 %d: the stalls' waits are lost", one.Open.Quantile(0.99))
	}
}

// A call slower than the rate's interval makes the lag grow window after
// window: FellBehind says so. A stall the calls drain after it does not.
func TestFellBehind(t *testing.T) {
	lags := func(service int64, stallEvery int64) []int64 {
		c := &simClock{}
		s := &stalling{c: c, service: service, every: stallEvery, stall: 40 * ms, next: 5 * ms}
		o := newLoop(1000)
		var out []int64
		for range 20 {
			_, lag := o.Run(c, 10, s.call)
			out = append(out, lag)
		}
		return out
	}
	slow := lags(1200_000, 1<<62)   // 1.2 ms a call at 1,000/s
	stall := lags(100_000, 1000*ms) // one 40 ms stall, 0.1 ms calls
	if !FellBehind(slow, ms) {
		t.Errorf("1.2 ms calls at 1,000/s: lags %v, want fell behind", slow)
	}
	if !slices.IsSorted(slow) || slow[len(slow)-1] < 20*ms {
		t.Errorf("1.2 ms calls at 1,000/s: lags %v, want growing past 20 ms", slow)
	}
	if FellBehind(stall, ms) {
		t.Errorf("one stall, then calls with time to spare: lags %v, judged fell behind", stall)
	}
	if slices.Max(stall) < 20*ms {
		t.Errorf("one stall: lags %v, want the stall's backlog seen at a window's end", stall)
	}
	for _, c := range []struct {
		lags []int64
		want bool
	}{
		{[]int64{0, 11, 12, 13, 14, 15}, true},
		{[]int64{11, 12, 13, 14, 15}, false},     // too few windows
		{[]int64{0, 11, 12, 13, 13, 15}, false},  // stopped growing once
		{[]int64{0, 1, 2, 3, 4, 10}, false},      // not past 10 intervals
		{[]int64{50, 40, 30, 20, 30, 40}, false}, // drained first
	} {
		if got := FellBehind(c.lags, 1); got != c.want {
			t.Errorf("FellBehind(%v) = %v, want %v", c.lags, got, c.want)
		}
	}
}
