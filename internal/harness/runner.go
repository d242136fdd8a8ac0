// Package harness measures targets the way a careful person would by hand:
// on one thread pinned to one CPU with Go's own threads kept off it, warmed
// up, calibrated so every sample is long against the clock, and sampled many
// times, with the CPU probed right before and after. It knows nothing of
// what a target is (see Target) nor of output formats.
package harness

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Options say how to measure targets.
type Options struct {
	CPU int // the CPU to pin the measured thread to
	// GOMAXPROCS, when > 0, is what each pinned measurement runs at, the
	// Ps given back after it: 1 (benchy run's default) as taskset -c CPU
	// go test runs a benchmark. With a second P, whose thread Go's others
	// share off the measured CPU, a loop that allocates stops the world
	// and hands the collector's work across CPUs, and the locked measured
	// thread parks each time until a thread on the other CPU hands its
	// goroutine back: concat/quadratic had 225 voluntary switches a 75-78
	// ms sample, unstable, where taskset -c 1 go test read 25-33 ms; at
	// one P, 2 a sample and 33 ms, believable. Not with Unpinned.
	GOMAXPROCS int
	// Unpinned measures on a locked thread without pinning it, where the
	// system cannot pin (not Linux); the samples' CPUs are then not
	// checked.
	Unpinned bool
	Samples  int // samples per target (the least, with MinTime)
	// MinTime, when > 0, keeps sampling past Samples until the samples
	// of a target have lasted that long in all (hyperfine's "at least 3 s
	// of runs"), up to MaxSamples; for targets interleaved in rounds,
	// until those of the slowest have.
	MinTime time.Duration
	// TargetCI, when > 0, keeps sampling past Samples until the 95%
	// interval of the median time per op is within ±TargetCI of it
	// (0.01 for ±1%), or MaxTime has passed since the first sample; for
	// candidates interleaved in rounds, until the interval of each one's
	// ratio to the first is (moreRounds).
	// MaxTime is wall time, so it bounds the sampling whole: the samples
	// and all that comes between them (a command's --prepare, starting
	// it, reading its counters), and, for targets interleaved in rounds,
	// the rounds of all of them together. It bounds MinTime too, but
	// never the first Samples samples, nor anything before the first
	// sample (warm-up, calibration, a setup); a sample begun before it
	// runs out is finished.
	TargetCI float64
	MaxTime  time.Duration
	// Looks, for targets interleaved in rounds, are the round counts at
	// which Decided is asked whether the rounds may end (the last is
	// Samples): it is given every outcome so far. Deadline, when not
	// zero, ends the rounds at the end of the first round that finds it
	// passed, once there are MinRounds. An Outcome's Stop says which ended
	// them early.
	Looks   []int
	Decided func(outs []Outcome) bool
	// RoundSeed, when not 0, has every round of targets interleaved in
	// rounds take a row of the design drawn at random from this seed
	// (RoundOrders); 0 takes the rows in turn.
	RoundSeed  uint64
	Deadline   time.Time
	MinRounds  int
	Warmup     time.Duration // time spent running the target before calibration
	WarmupRuns int           // or a number of runs of one iteration (when > 0)
	SampleTime time.Duration // least duration of one sample
	Iters      int64         // fixed iterations per sample; 0 calibrates
	Isolate    bool          // keep the process's other threads off CPU
	Clock      ClockInfo     // from MeasureClock; its granularity bounds samples

	// Probe, when not nil, measures what the CPU delivers on the pinned
	// thread; it is called right before the first sample and right after
	// the last, so a target measured while the CPU ran slow (a governor,
	// a busy host, a busy sibling hardware thread) can be told from the
	// others.
	Probe func() Probe
	// CheckSamples times a short piece of the reference loop right after
	// every sample (Sample.RefNs), so that a sample taken while the host
	// slowed the core can be told from the others.
	CheckSamples bool
	// Progress, when not nil, is told what is being done.
	Progress func(Progress)
}

// MaxSamples bounds the samples MinTime may add.
const MaxSamples = 100000

// more reports whether a target that took samples lasting spent in all,
// elapsed after its sampling began, takes another; p keeps when the
// precision of TargetCI is judged next.
func (o Options) more(samples []result.Sample, spent, elapsed time.Duration, p *precision) bool {
	n := len(samples)
	switch {
	case n < o.Samples:
		return true
	case n >= MaxSamples:
		return false
	case o.TargetCI > 0 && elapsed >= o.MaxTime:
		return false
	case o.MinTime > 0 && spent < o.MinTime:
		return true
	case o.TargetCI > 0:
		return !p.reached(samples, o.TargetCI)
	}
	return false
}

// moreRounds is more for candidates interleaved in rounds with TargetCI:
// the precision that decides a comparison is that of each candidate's
// ratio to the first, not of each one's own median, so TargetCI aims at
// the interval of the median per-round ratio (the sign-test interval
// PairedWith judges with, at the level of the family of comparisons). It is
// judged only at pre-set looks, when the rounds reach Samples, then twice
// as many, four times, and so on: judging after every round would stop on
// the first round whose interval happened to be narrow, and a run that
// stops when it looks precise reports intervals that cover less than they
// say. Looking at counts fixed in advance, and at the width only (never at
// where the interval lies), keeps that to a handful of looks (at most 12
// up to MaxSamples). MaxTime and MaxSamples bound it as for one target.
func (o Options) moreRounds(outs []Outcome, spent []time.Duration, elapsed time.Duration, look *int) bool {
	n := len(outs[0].Samples)
	for _, out := range outs[1:] {
		n = min(n, len(out.Samples))
	}
	switch {
	case n < o.Samples:
		return true
	case n >= MaxSamples, elapsed >= o.MaxTime:
		return false
	case o.MinTime > 0 && slices.Max(spent) < o.MinTime:
		// judged on the slowest, as in Interleave
		return true
	case n < *look:
		return true
	}
	*look = 2 * max(n, 1)
	return !ratiosReached(outs, o.TargetCI)
}

// sequentialMore is more for candidates interleaved in rounds with Looks:
// another round, unless Samples are taken, or n is a look at which every
// comparison is decided, or Deadline has passed (after MinRounds). It says
// on stop why the rounds ended early.
func (o Options) sequentialMore(outs []Outcome, stop *string) bool {
	n := len(outs[0].Samples)
	for _, out := range outs[1:] {
		n = min(n, len(out.Samples))
	}
	switch {
	case n >= o.Samples:
		return false
	case slices.Contains(o.Looks, n) && o.Decided != nil && o.Decided(outs):
		*stop = result.StopDecided
		return false
	case !o.Deadline.IsZero() && time.Now().After(o.Deadline) && n >= o.MinRounds:
		*stop = result.StopBudget
		return false
	}
	return true
}

// ratiosReached reports whether the interval of every candidate's median
// per-round ratio to the first (outs[0]) is within ±target of it.
func ratiosReached(outs []Outcome, target float64) bool {
	level := stats.FamilyLevel(len(outs)-1, stats.DefaultAlpha)
	base := outs[0].Samples
	for _, out := range outs[1:] {
		var ratios []float64
		for i := range min(len(base), len(out.Samples)) {
			if b, c := base[i], out.Samples[i]; b.Iters > 0 && c.Iters > 0 && b.NsPerOp() > 0 {
				ratios = append(ratios, c.NsPerOp()/b.NsPerOp())
			}
		}
		slices.Sort(ratios)
		m := stats.MedianSorted(ratios)
		lo, hi, _ := stats.SignInterval(ratios, level)
		if len(ratios) == 0 || !(m > 0) || !(max(m-lo, hi-m)/m <= target) {
			return false
		}
	}
	return true
}

// precision judges whether a target's samples reached TargetCI. Past 200
// samples the interval is computed again only once 1% more samples came
// (a sort each time), however many samples a batch brings; in between it
// says no.
type precision struct{ next int }

// reached reports whether the 95% interval of the median time per op of
// samples is within ±target of it.
func (p *precision) reached(samples []result.Sample, target float64) bool {
	n := len(samples)
	if n < p.next {
		return false
	}
	p.next = n + 1
	if n > 200 {
		p.next = n + n/100
	}
	xs := make([]float64, 0, n)
	for _, s := range samples {
		if s.Iters > 0 {
			xs = append(xs, s.NsPerOp())
		}
	}
	slices.Sort(xs)
	return stats.MedianCIHalfWidthSorted(xs) <= target
}

// Progress describes what the runner is doing, for a progress line.
type Progress struct {
	Workload string
	Index    int    // 0-based index of the target
	Total    int    // number of targets
	Phase    string // "warm-up", "calibration" or "sampling" (the pipeline adds "reading the machine" and "process")
	Sample   int    // samples taken so far
	Samples  int    // samples to take
}

// Outcome is what measuring one target produced.
type Outcome struct {
	Name    string
	Iters   int64 // iterations per sample
	Samples []result.Sample
	Totals  Totals
	// Before and After are Probe's readings around the samples; zero when
	// not probed.
	Before, After Probe
	// Err is set when the target failed; Samples holds what was taken.
	Err error
	// Interrupted is set when the run's context, cancelled, ended the
	// target early.
	Interrupted bool
	// Stop says why rounds with looks (Options.Looks) ended before
	// Samples: result.StopDecided or result.StopBudget; empty otherwise.
	Stop string
}

// Ops is the number of ops performed across all samples.
func (o Outcome) Ops() int64 {
	var n int64
	for _, s := range o.Samples {
		n += s.Iters
	}
	return n
}

// Run measures every target in turn, each on its own freshly pinned thread
// after a full collection. It stops early when ctx is cancelled, after the
// current sample; the outcomes of the targets not reached are omitted.
func Run(ctx context.Context, ts []Target, opts Options) []Outcome {
	var outs []Outcome
	for i, t := range ts {
		if ctx.Err() != nil {
			break
		}
		outs = append(outs, runOne(ctx, t, i, len(ts), opts))
		if outs[len(outs)-1].Interrupted {
			break
		}
	}
	return outs
}

// RunOne measures t as target index of total (the progress line counts
// them), as Run measures each of its targets.
func RunOne(ctx context.Context, t Target, index, total int, opts Options) Outcome {
	return runOne(ctx, t, index, total, opts)
}

// closed reports whether done (a context's Done, taken once outside a
// loop) is closed; a nil channel never is. In the sampling loops it costs
// what a stop channel costs: one select with a default.
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// OnThread runs f on a locked thread, pinned to opts.CPU unless the
// options say the system cannot pin.
func OnThread(opts Options, f func() error) error {
	if opts.Unpinned {
		return Locked(f)
	}
	if opts.GOMAXPROCS > 0 {
		return Pinned(opts.CPU, opts.Isolate, func() error {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(opts.GOMAXPROCS))
			return f()
		})
	}
	return Pinned(opts.CPU, opts.Isolate, f)
}

func runOne(ctx context.Context, t Target, index, total int, opts Options) Outcome {
	out := Outcome{Name: t.Name()}
	done := ctx.Done()
	// A full collection first, so garbage of the previous target is not
	// collected (or paid for) during this one.
	runtime.GC()
	err := OnThread(opts, func() error {
		m := &measured{t: t, opts: opts, done: done, index: index, total: total}
		if err := t.Open(); err != nil {
			return err
		}
		// Close is told whether the samples completed: a loop that
		// panicked is not run again.
		completed := false
		defer func() { out.Totals = t.Close(ending(completed, done)) }()
		if stopped, err := m.warmup(); err != nil || stopped {
			out.Interrupted = stopped
			return err
		}
		if stopped, err := m.calibrate(); err != nil || stopped {
			out.Interrupted = stopped
			return err
		}
		out.Iters = m.iters
		check := opts.speedCheck()
		out.Before = probe(opts)
		var spent time.Duration
		var ci precision
		began := time.Now()
		for opts.more(out.Samples, spent, time.Since(began), &ci) {
			if closed(done) {
				out.Interrupted = true
				break
			}
			m.progress("sampling", len(out.Samples))
			batch, err := t.Sample(m.iters)
			if err != nil {
				return err
			}
			check.mark(batch)
			out.Samples = append(out.Samples, batch...)
			for _, s := range batch {
				spent += time.Duration(s.Ns)
			}
			t.Between()
		}
		out.After = probe(opts)
		completed = true
		return checkPin(out.Samples, opts)
	})
	if errors.Is(err, context.Canceled) {
		out.Interrupted, err = true, nil
	}
	out.Err = err
	return out
}

// probe measures the CPU when the options ask for it.
func probe(opts Options) Probe {
	if opts.Probe == nil {
		return Probe{}
	}
	return opts.Probe()
}

// speedCheck is the check beside every sample when the options ask for it.
func (o Options) speedCheck() *speedCheck {
	if !o.CheckSamples {
		return nil
	}
	return newSpeedCheck()
}

// checkPin fails a target whose samples did not all end on the pinned CPU:
// the pin did not hold, so the numbers are from an unknown mix of CPUs.
func checkPin(samples []result.Sample, opts Options) error {
	if opts.Unpinned {
		return nil
	}
	for i, s := range samples {
		if s.CPU != opts.CPU {
			return fmt.Errorf("pin did not hold: sample %d ended on cpu %d, pinned to cpu %d", i+1, s.CPU, opts.CPU)
		}
	}
	return nil
}

// measured is one target's warm-up and calibration on the pinned thread.
type measured struct {
	t            Target
	opts         Options
	done         <-chan struct{} // the run's ctx.Done(), closed at a stop
	index, total int
	iters        int64
}

func (m *measured) progress(phase string, sample int) {
	if m.opts.Progress != nil {
		m.opts.Progress(Progress{Workload: m.t.Name(), Index: m.index, Total: m.total,
			Phase: phase, Sample: sample, Samples: m.opts.Samples})
	}
}

// warmupChunk is the longest single run during warm-up, so a stop request
// or the end of the warm-up time is noticed promptly.
const warmupChunk = 10 * time.Millisecond

// warmup runs the target for opts.Warmup, in growing runs so the cost of
// reading the clock does not dominate, or opts.WarmupRuns runs of one
// iteration. It reports whether a stop ended it.
func (m *measured) warmup() (stopped bool, err error) {
	m.progress("warm-up", 0)
	if m.opts.WarmupRuns > 0 {
		for range m.opts.WarmupRuns {
			if closed(m.done) {
				return true, nil
			}
			if _, err := m.t.Time(1); err != nil {
				return false, err
			}
		}
		return false, nil
	}
	start := time.Now()
	n := int64(1)
	for {
		if closed(m.done) {
			return true, nil
		}
		left := m.opts.Warmup - time.Since(start)
		if left <= 0 {
			return false, nil
		}
		d, err := m.t.Time(n)
		if err != nil {
			return false, err
		}
		n = nextIters(n, d.Nanoseconds(), min(left, warmupChunk))
	}
}

// calibrate chooses the iterations per sample (or takes opts.Iters). It
// reports whether a stop ended it.
func (m *measured) calibrate() (stopped bool, err error) {
	if it, ok := m.t.(Iterated); ok && it.Iters() > 0 {
		m.iters = it.Iters()
		return false, nil
	}
	if m.opts.Iters > 0 {
		m.iters = m.opts.Iters
		return false, nil
	}
	m.progress("calibration", 0)
	target := SampleTarget(m.opts.SampleTime, m.opts.Clock.Granularity)
	run := func(n int64) time.Duration {
		if err != nil || closed(m.done) {
			return target // end calibration at once
		}
		var d time.Duration
		d, err = m.t.Time(n)
		return d
	}
	m.iters = Calibrate(run, target)
	fastest := time.Duration(math.MaxInt64)
	for range confirmRuns {
		fastest = min(fastest, run(m.iters))
	}
	m.iters = Confirm(m.iters, fastest.Nanoseconds(), target)
	return closed(m.done), err
}
