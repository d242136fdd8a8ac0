package pipeline

import (
	"context"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/cpulock"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/fit"
	"github.com/benchy-dev/benchy/internal/result"
)

// What the machine slowed is measured again. The checks beside the samples
// (harness.Options.CheckSamples) tell which samples a slowed core touched,
// and how fast the core ran through the experiment; when more than a third
// of an experiment's samples were slowed, or it would be judged slow-clock
// (the clock read low at its ends, and its checks ran that slow too: the
// host lowered the core's clock for the whole experiment), it is measured
// again, on the CPU that runs the reference loop fastest at that moment
// (the host often slows one core while another of the machine stays
// free), up to Plan.Remeasure more times, as long as some CPU runs the
// loop near its best then (on a machine loaded through, every core is
// slowed, and another attempt would only cost time). Every attempt is
// kept; the one judged is the one the machine slowed least; when that one
// was taken on another CPU, the rest of the run measures there. Only the
// checks and the clock decide, evidence from outside the code under test:
// never the experiment's own times.

// tried is one target's measurement: the outcome judged, the CPU it was
// taken on, and the attempts before or beside it.
type tried struct {
	harness.Outcome
	cpu     int
	earlier []result.Attempt
}

// tooSlowed reports whether more than a third of e's samples were taken on
// a slowed core, against best ns per iteration of the reference loop.
func tooSlowed(e result.Experiment, best float64) bool {
	return 3*len(analyze.Slowed(e, best)) > len(e.Samples)
}

// slowedBy says whether the machine slowed e enough to measure it again,
// and how near its best a CPU must run the reference loop now for another
// attempt to be worth making: within SlowCoreRatio when a slowed core
// touched too many samples, within SlowClockRatio when the whole
// experiment ran at a slow clock (a CPU itself that much slower would give
// an attempt as slow). 0 when e is not to be measured again.
func slowedBy(e result.Experiment, best soFar) (nearBest float64) {
	switch {
	case tooSlowed(e, best.refNs):
		return analyze.SlowCoreRatio
	case analyze.SlowClock(e, best.clockHz, best.refNs):
		return analyze.SlowClockRatio
	}
	return 0
}

// measureEach measures the targets. Loops measured in this process, one
// after another, are measured one at a time so that what a slowed core
// touched is measured again at once (see above), and when an attempt on
// another CPU is the one kept, the rest of the run moves there: the host
// slows a core for minutes at a time, and measuring every later
// experiment on it first would only make the run longer. A program or a
// test binary holds state (a build, a calibration) that a second attempt
// would not repeat as the first did; those, and interleaved groups, are
// measured as they come. startHz is the clock read on the run's CPU before
// measuring (0 if unknown): with the clocks around the experiments, what a
// slow clock is judged against.
func measureEach(ctx context.Context, r *result.Result, plan Plan, ts []Target, hopts harness.Options, startHz float64) []tried {
	if plan.Remeasure <= 0 || plan.Group > 1 || !hopts.CheckSamples {
		hts := make([]harness.Target, len(ts))
		for i, t := range ts {
			hts[i] = t
		}
		outs := measure(ctx, hts, hopts, plan.Group)
		tries := make([]tried, len(outs))
		for i, o := range outs {
			tries[i] = tried{Outcome: o, cpu: hopts.CPU}
		}
		return tries
	}
	m := &mover{r: r, plan: plan, at: hopts, release: func() {}}
	defer m.close()
	var tries []tried
	for i, t := range ts {
		if ctx.Err() != nil {
			break
		}
		tr := tried{Outcome: runTarget(ctx, t, i, len(ts), m.at), cpu: m.at.CPU}
		for n := 0; n < plan.Remeasure && t.Info().Kind == result.KindLoop; n++ {
			best := bestSoFar(r, startHz, append(tries, tr))
			if tr.Err != nil || tr.Interrupted || ctx.Err() != nil {
				break
			}
			nearBest := slowedBy(experimentOf(t.Info(), tr.Outcome), best)
			if nearBest == 0 {
				break
			}
			var ok bool
			if tr, ok = m.again(ctx, t, i, len(ts), tr, best, nearBest); !ok {
				break
			}
		}
		tries = append(tries, tr)
		if tr.Interrupted {
			break
		}
	}
	return tries
}

// runTarget measures target i of n with opts; tests replace it to give
// each CPU the speed they need.
var runTarget = func(ctx context.Context, t Target, i, n int, opts harness.Options) harness.Outcome {
	return harness.RunOne(ctx, t, i, n, opts)
}

// mover is where the run measures now: the options of that CPU, and the
// lock of the CPU the run moved to (a no-op on the run's own CPU, whose
// lock the caller holds).
type mover struct {
	r       *result.Result
	plan    Plan
	at      harness.Options
	release func()
}

// again measures target i of n once more on the fastest free CPU and
// returns what to keep: the attempt the core slowed least judged, the
// other kept in earlier. When the one kept was taken on another CPU, the
// run moves there (never with --cpu or StayOnCPU: fastest then offers the
// run's CPU only).
// ok is false when no CPU runs the reference loop within nearBest of best
// now (a loaded machine, every core slowed): another attempt would be
// slowed as much, and is not made.
func (m *mover) again(ctx context.Context, t Target, i, n int, prev tried, best soFar, nearBest float64) (kept tried, ok bool) {
	cpu, ns, release := fastest(m.r, m.at.CPU, m.plan.CPUSet || m.plan.StayOnCPU)
	if ns <= 0 || ns > best.refNs*(1+nearBest) {
		release()
		return prev, false
	}
	if cpu == m.at.CPU {
		release()
		return keepLeastSlowed(prev, tried{Outcome: runTarget(ctx, t, i, n, m.at), cpu: cpu}, best), true
	}
	harness.Unisolate(m.at.CPU) // Go's threads may use the CPU left
	opts := m.at
	opts.CPU = cpu
	kept = keepLeastSlowed(prev, tried{Outcome: runTarget(ctx, t, i, n, opts), cpu: cpu}, best)
	if kept.cpu == cpu {
		m.release()
		m.at, m.release = opts, release
		return kept, true
	}
	harness.Unisolate(cpu)
	harness.OnThread(m.at, func() error { return nil }) // keep Go's threads off the run's CPU again
	release()
	return kept, true
}

// close gives back the CPU the run moved to, to Go's threads and to other
// benchy processes.
func (m *mover) close() {
	if m.at.CPU != m.r.CPU {
		harness.Unisolate(m.at.CPU)
	}
	m.release()
}

// keepLeastSlowed returns the attempt to judge of prev and next, the one
// the machine slowed least (slowedLess; prev on a tie, or when next
// failed), with the other added to its earlier attempts.
func keepLeastSlowed(prev, next tried, best soFar) tried {
	attempt := func(t tried) result.Attempt {
		e := experimentOf(result.Info{}, t.Outcome)
		return result.Attempt{CPU: t.cpu, Iters: e.Iters, Samples: e.Samples, Reference: e.Reference, Clock: e.Clock, Slowed: analyze.Slowed(e, best.refNs)}
	}
	a, b := attempt(prev), attempt(next)
	if next.Err != nil || next.Interrupted || !slowedLess(b, a, best) {
		prev.earlier = append(prev.earlier, b)
		return prev
	}
	next.earlier = append(prev.earlier, a)
	return next
}

// slowedLess reports whether the machine slowed attempt a less than b: a
// would not be measured again and b would; else a slowed core touched a
// smaller share of a's samples; else a's checks ran the reference loop
// faster in their median. Only the checks and the clock count, never the
// attempts' own times.
func slowedLess(a, b result.Attempt, best soFar) bool {
	ea, eb := a.Experiment(), b.Experiment()
	if againA, againB := slowedBy(ea, best) > 0, slowedBy(eb, best) > 0; againA != againB {
		return againB
	}
	if sa, sb := share(a), share(b); sa != sb {
		return sa < sb
	}
	ma, okA := analyze.CheckedRefNs(ea)
	mb, okB := analyze.CheckedRefNs(eb)
	return okA && (!okB || ma < mb)
}

// share is the share of an attempt's samples a slowed core touched.
func share(a result.Attempt) float64 {
	if len(a.Samples) == 0 {
		return 1
	}
	return float64(len(a.Slowed)) / float64(len(a.Samples))
}

// soFar is the best the run measured so far: the reference loop's least ns
// per iteration, and the clock it sustained (analyze.RunClock).
type soFar struct {
	refNs   float64
	clockHz float64
}

// bestSoFar is the best the run measured so far: the reference loop's
// least ns per iteration in the speed probe of the busy window and the
// probes and checks of the attempts, and the clock sustained, of startHz
// and those measured around the experiments.
func bestSoFar(r *result.Result, startHz float64, tries []tried) soFar {
	es := make([]result.Experiment, 0, len(tries))
	for _, t := range tries {
		es = append(es, experimentOf(result.Info{}, t.Outcome))
		for _, a := range t.earlier {
			es = append(es, a.Experiment())
		}
	}
	return soFar{
		refNs:   analyze.BestRefNs(&result.Result{Before: r.Before, Experiments: es}),
		clockHz: analyze.RunClock(append(analyze.ClocksOf(es), startHz)),
	}
}

// fastest is fastestFree; tests give it CPUs of the speeds they need.
var fastest = fastestFree

// fastestFree is the CPU that runs the reference loop fastest now, among
// those the run could have chosen that no other benchy measures on, its
// speed then (ns per iteration; 0 when unknown), and what releases its
// lock; the CPU the run measures on now (current) when nothing better is
// known. The run's own CPU and current are this process's: their locks
// are held already. With named (the user chose the CPU: --cpu), the run's
// CPU is the only candidate: it is measured again there, once the host
// gives it back.
func fastestFree(r *result.Result, current int, named bool) (cpu int, ns float64, release func()) {
	none := func() {}
	if r.Before == nil {
		return current, 0, none
	}
	s := *r.Before
	batches := s.ProbeBatches()
	if named {
		batches = []machine.CPUList{{r.CPU}}
	}
	s.Speed = harness.ProbeSpeedsHolding(r.CPU, current)(batches)
	if named {
		ns, _ := s.SpeedOf(r.CPU)
		return r.CPU, ns, none
	}
	cs, err := fit.RankCPUs(&s)
	if err != nil {
		return current, 0, none
	}
	for _, c := range cs {
		ns, _ := s.SpeedOf(c.CPU)
		if c.CPU == r.CPU || c.CPU == current {
			return c.CPU, ns, none
		}
		if l, held, err := cpulock.TryLock(c.CPU); !held && err == nil {
			return c.CPU, ns, l.Release
		}
	}
	return current, 0, none
}

// remeasuredOn names the CPU of a re-measured experiment (nil when it is
// the run's).
func remeasuredOn(t tried, runCPU int) *int {
	if t.cpu == runCPU {
		return nil
	}
	cpu := t.cpu
	return &cpu
}
