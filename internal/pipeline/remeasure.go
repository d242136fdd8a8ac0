package pipeline

import (
	"context"
	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/cpulock"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
)

// What the machine slowed is measured again. The checks beside the samples
// (harness.Options.CheckSamples) tell which samples a slowed core touched;
// when more than a third of an experiment's were, it is measured again, on
// the CPU that runs the reference loop fastest at that moment (the host
// often slows one core while another of the machine stays free), up to
// Plan.Remeasure more times, as long as some CPU runs the loop near its
// best then (on a machine loaded through, every core is slowed, and
// another attempt would only cost time). Every attempt is kept; the one
// judged is the one the core slowed least; when that one was taken on
// another CPU, the rest of the run measures there.

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

// measureEach measures the targets. Loops measured in this process, one
// after another, are measured one at a time so that what a slowed core
// touched is measured again at once (see above), and when an attempt on
// another CPU is the one kept, the rest of the run moves there: the host
// slows a core for minutes at a time, and measuring every later
// experiment on it first would only make the run longer. A program or a
// test binary holds state (a build, a calibration) that a second attempt
// would not repeat as the first did; those, and interleaved groups, are
// measured as they come.
func measureEach(ctx context.Context, r *result.Result, plan Plan, ts []Target, hopts harness.Options) []tried {
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
			best := bestSoFar(r, append(tries, tr))
			if tr.Err != nil || tr.Interrupted || ctx.Err() != nil || !tooSlowed(experimentOf(t.Info(), tr.Outcome), best) {
				break
			}
			var ok bool
			if tr, ok = m.again(ctx, t, i, len(ts), tr, best); !ok {
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
// run moves there (never with --cpu: fastest offers the named CPU only).
// ok is false when no CPU runs the reference loop within SlowCoreRatio of
// best now (a loaded machine, every core slowed): another attempt would
// be slowed as much, and is not made.
func (m *mover) again(ctx context.Context, t Target, i, n int, prev tried, best float64) (kept tried, ok bool) {
	cpu, ns, release := fastest(m.r, m.at.CPU, m.plan.CPUSet)
	if ns <= 0 || ns > best*(1+analyze.SlowCoreRatio) {
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
// a slowed core touched the smaller share of (prev on a tie, or when next
// failed), with the other added to its earlier attempts.
func keepLeastSlowed(prev, next tried, best float64) tried {
	attempt := func(t tried) result.Attempt {
		e := experimentOf(result.Info{}, t.Outcome)
		return result.Attempt{CPU: t.cpu, Iters: e.Iters, Samples: e.Samples, Reference: e.Reference, Slowed: analyze.Slowed(e, best)}
	}
	a, b := attempt(prev), attempt(next)
	if next.Err != nil || next.Interrupted || share(b) >= share(a) {
		prev.earlier = append(prev.earlier, b)
		return prev
	}
	next.earlier = append(prev.earlier, a)
	return next
}

// share is the share of an attempt's samples a slowed core touched.
func share(a result.Attempt) float64 {
	if len(a.Samples) == 0 {
		return 1
	}
	return float64(len(a.Slowed)) / float64(len(a.Samples))
}

// bestSoFar is the least ns per iteration of the reference loop measured
// so far in the run: the speed probe of the busy window, and the probes
// and checks of the attempts.
func bestSoFar(r *result.Result, tries []tried) float64 {
	es := make([]result.Experiment, 0, len(tries))
	for _, t := range tries {
		es = append(es, experimentOf(result.Info{}, t.Outcome))
		for _, a := range t.earlier {
			es = append(es, result.Experiment{Samples: a.Samples, Reference: a.Reference})
		}
	}
	return analyze.BestRefNs(&result.Result{Before: r.Before, Experiments: es})
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
	cs, err := machine.RankCPUs(&s)
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
