package pipeline

import (
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
// judged is the one the core slowed least.

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

// remeasure measures again what a slowed core touched (see above). Only
// loops measured in this process, one after another, are: a program or a
// test binary holds state (a build, a calibration) that a second attempt
// would not repeat as the first did.
func remeasure(r *result.Result, plan Plan, ts []Target, hopts harness.Options, outs []harness.Outcome) []tried {
	tries := make([]tried, len(outs))
	for i, o := range outs {
		tries[i] = tried{Outcome: o, cpu: r.CPU}
	}
	if plan.Remeasure <= 0 || plan.Group > 1 || !hopts.CheckSamples {
		return tries
	}
	for i := range tries {
		if ts[i].Info().Kind != result.KindLoop {
			continue
		}
		for range plan.Remeasure {
			e := experimentOf(ts[i].Info(), tries[i].Outcome)
			if tries[i].Err != nil || tries[i].Interrupted || harness.Stopped(plan.Stop) || !tooSlowed(e, bestSoFar(r, tries)) {
				break
			}
			var ok bool
			if tries[i], ok = again(r, plan, ts[i], hopts, tries[i], bestSoFar(r, tries)); !ok {
				break
			}
		}
	}
	return tries
}

// again measures t once more on the fastest free CPU and returns what to
// keep: the attempt the core slowed least judged, the other kept in
// earlier. ok is false when no CPU runs the reference loop within
// SlowCoreRatio of best now (a loaded machine, every core slowed): another
// attempt would be slowed as much, and is not made.
func again(r *result.Result, plan Plan, t Target, hopts harness.Options, prev tried, best float64) (kept tried, ok bool) {
	cpu, ns, release := fastest(r, plan.CPUSet)
	defer release()
	if ns <= 0 || ns > best*(1+analyze.SlowCoreRatio) {
		return prev, false
	}
	if cpu != hopts.CPU {
		harness.Unisolate(hopts.CPU) // Go's threads may use the run's CPU meanwhile
		defer func() {
			harness.Unisolate(cpu)
			harness.OnThread(hopts, func() error { return nil }) // and keep off it again
		}()
	}
	opts := hopts
	opts.CPU = cpu
	out := harness.Run([]harness.Target{t}, opts)
	if len(out) == 0 {
		return prev, false
	}
	return keepLeastSlowed(prev, tried{Outcome: out[0], cpu: cpu}, best), true
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
// lock; the run's own CPU when nothing better is known. With named (the
// user chose the CPU: --cpu), the run's CPU is the only candidate: it is
// measured again there, once the host gives it back.
func fastestFree(r *result.Result, named bool) (cpu int, ns float64, release func()) {
	none := func() {}
	if r.Before == nil {
		return r.CPU, 0, none
	}
	s := *r.Before
	batches := s.ProbeBatches()
	if named {
		batches = []machine.CPUList{{r.CPU}}
	}
	s.Speed = harness.ProbeSpeedsHolding(r.CPU)(batches)
	if named {
		ns, _ := s.SpeedOf(r.CPU)
		return r.CPU, ns, none
	}
	cs, err := machine.RankCPUs(&s)
	if err != nil {
		return r.CPU, 0, none
	}
	for _, c := range cs {
		ns, _ := s.SpeedOf(c.CPU)
		if c.CPU == r.CPU {
			return r.CPU, ns, none
		}
		if l, held, err := cpulock.TryLock(c.CPU); !held && err == nil {
			return c.CPU, ns, l.Release
		}
	}
	return r.CPU, 0, none
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
