package result

// OnCPUNs is the time the measured thread (or child) was on the CPU
// during s: perf's task-clock, else the thread's own CPU clock, else the
// wall time less the time the thread waited for the CPU (run-delay-ns,
// where the thread's CPU time also counts work that was not timed, or
// waits that are the work's own: a Go benchmark that stops its timer or
// blocks); false when the sample has none of them, or when its run delay
// is as long as the sample itself: the delay is read around the timed
// region (and for a benchmark that stops its timer, estimated from the
// whole call), so on a very busy machine it can exceed the time it is
// taken from, and the on-CPU time is then not known, rather than 0.
func OnCPUNs(s Sample) (int64, bool) {
	if v, ok := s.Counters[CounterTaskClock]; ok {
		return v, true
	}
	if v, ok := s.Counters[CounterThreadCPU]; ok {
		return v, true
	}
	if d, ok := s.Counters[CounterRunDelay]; ok && d < s.Ns {
		return s.Ns - d, true
	}
	return 0, false
}

// OffCPUShare is the share of s's wall time the thread was not on the CPU,
// (wall - on-CPU)/wall, clamped to [0, 1]: another task (or the host) had
// the CPU for that long. The counters are read just outside the timed
// region, so an undisturbed sample reads a hair below 0, and 0 here.
//
// A sample in which the collector ran (gc-cycles) spent part of its time
// off the CPU waiting for the collector, as any Go program does: its own
// cost, not another task's. Of such a sample only the run delay counts
// (the time it waited runnable for the CPU, another task having it),
// where it was read; else 0 when the thread was never preempted (no
// involuntary context switch), and all of its time off the CPU when it
// was, which cannot be split.
//
// A sample whose run delay is as long as itself was off the CPU all of
// its time, as far as can be told: 1.
func OffCPUShare(s Sample) (float64, bool) {
	if s.Ns <= 0 {
		return 0, false
	}
	on, ok := OnCPUNs(s)
	if d, delayed := s.Counters[CounterRunDelay]; !ok && delayed && d >= s.Ns {
		return 1, true
	}
	if !ok {
		return 0, false
	}
	if s.Counters[CounterGCCycles] > 0 {
		if d, counted := s.Counters[CounterRunDelay]; counted {
			return min(1, max(0, float64(d)/float64(s.Ns))), true
		}
		if inv, counted := s.Counters[CounterInvoluntaryCS]; counted && inv == 0 {
			return 0, true
		}
	}
	return min(1, max(0, float64(s.Ns-on)/float64(s.Ns))), true
}

// OffCPUShares is OffCPUShare of every sample with iterations; false when
// any of them has no on-CPU time (then the shares are not used at all).
func OffCPUShares(e Experiment) ([]float64, bool) {
	var out []float64
	for _, s := range e.Samples {
		if s.Iters <= 0 {
			continue
		}
		v, ok := OffCPUShare(s)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, len(out) > 0
}

// OnCPUPerOp is the on-CPU time per op of every sample with iterations, in
// sample order; false when a sample has no on-CPU time.
func OnCPUPerOp(e Experiment) ([]float64, bool) {
	var out []float64
	for _, s := range e.Samples {
		if s.Iters <= 0 {
			continue
		}
		on, ok := OnCPUNs(s)
		if !ok {
			return nil, false
		}
		out = append(out, float64(on)/float64(s.Iters))
	}
	return out, len(out) > 0
}

// WithOnCPU is e with only the samples whose on-CPU time is known
// (OnCPUNs), for a comparison on on-CPU time. On a busy machine the run
// delay of a go test benchmark's call, read around the call, can exceed
// what testing timed of it (under two CPU hogs, 4 of 40 gotest --against
// runs had one such sample in 32), and that one sample left the whole
// experiment without an on-CPU time: the comparison could not leave the
// other tasks' time out of any sample, and was inconclusive. A sample is
// left out only because its on-CPU time is unknown, never for its own
// slowness: at most a quarter of them, every process keeping one (a
// process is the unit of a paired comparison), and least kept in all
// (the fewest a comparison tells from). false when more lack it, or too
// few, or no sample of a process, would be left; e whole when none lacks
// it.
func (e Experiment) WithOnCPU(least int) (Experiment, bool) {
	var kept []Sample
	total, known := 0, map[int]bool{}
	for _, s := range e.Samples {
		if s.Iters <= 0 {
			continue
		}
		total++
		if _, seen := known[s.Process]; !seen {
			known[s.Process] = false
		}
		if _, ok := OnCPUNs(s); ok {
			kept = append(kept, s)
			known[s.Process] = true
		}
	}
	if len(kept) == total {
		return e, total > 0
	}
	if (total-len(kept))*4 > total || len(kept) < least {
		return e, false
	}
	for _, ok := range known {
		if !ok {
			return e, false
		}
	}
	e.Samples = kept
	return e, true
}

// ClockAgreement is how far apart the probes before and after an
// experiment may read its clock for their mean to stand for the clock of
// its samples: 5%, the least change benchy calls a difference elsewhere
// (analyze.SlowClockRatio). On a quiet machine 98 of 102 experiments'
// probes agreed within 1%.
const ClockAgreement = 0.05

// ClockHz is the clock measured around e's samples (the mean of the
// probes before and after), 0 when not measured or when the two probes
// disagree by more than ClockAgreement: a probe that another task or the
// host preempted reads a clock far too low (one read 1.2 GHz before an
// experiment and 3.6 GHz after it, on a core the checks beside its
// samples found at full speed throughout), and counting cycles at the
// mean of the two turned identical code into "1.52x faster". Where the
// two disagree, neither is known to be the samples' clock.
func (e Experiment) ClockHz() float64 {
	if e.Clock == nil || e.Clock.BeforeHz <= 0 || e.Clock.AfterHz <= 0 {
		return 0
	}
	lo, hi := min(e.Clock.BeforeHz, e.Clock.AfterHz), max(e.Clock.BeforeHz, e.Clock.AfterHz)
	if lo < hi*(1-ClockAgreement) {
		return 0
	}
	return (e.Clock.BeforeHz + e.Clock.AfterHz) / 2
}

// PerOp is the per-op value of every sample with iterations on the given
// basis (Basis*): wall ns, on-CPU ns, or either in cycles at the
// clock measured around the experiment. false when the experiment lacks
// what the basis needs.
func PerOp(e Experiment, basis string) ([]float64, bool) {
	var xs []float64
	ok := true
	switch basis {
	case BasisWall, BasisCycles:
		xs = NsPerOp(e.Samples)
	default:
		xs, ok = OnCPUPerOp(e)
	}
	if !ok {
		return nil, false
	}
	if basis == BasisCycles || basis == BasisOnCPUCycles {
		hz := e.ClockHz()
		if hz <= 0 {
			return nil, false
		}
		for i := range xs {
			xs[i] *= hz / 1e9
		}
	}
	return xs, true
}

// NsPerOp returns the ns/op of every sample that has iterations, in
// sample order.
func NsPerOp(samples []Sample) []float64 {
	xs := make([]float64, 0, len(samples))
	for _, s := range samples {
		if s.Iters > 0 {
			xs = append(xs, s.NsPerOp())
		}
	}
	return xs
}
