package result

import "testing"

// Time off the CPU waiting for the collector is the program's own, not
// another task's: of a sample with collections only the run delay counts
// where it was read, else all of it once the thread was preempted.
func TestOffCPUShareCollector(t *testing.T) {
	s := Sample{Iters: 1, Ns: 1000, Counters: map[string]int64{CounterTaskClock: 600, CounterGCCycles: 1, CounterInvoluntaryCS: 0}}
	if v, ok := OffCPUShare(s); !ok || v != 0 {
		t.Errorf("waiting for the collector: %v %v, want 0", v, ok)
	}
	s.Counters[CounterInvoluntaryCS] = 1
	if v, _ := OffCPUShare(s); v != 0.4 {
		t.Errorf("preempted during a collection: %v, want 0.4", v)
	}
	s.Counters[CounterRunDelay] = 100
	if v, _ := OffCPUShare(s); v != 0.1 {
		t.Errorf("preempted during a collection, run delay read: %v, want its 0.1", v)
	}
	s.Counters[CounterInvoluntaryCS] = 0
	if v, _ := OffCPUShare(s); v != 0.1 {
		t.Errorf("waiting runnable during a collection: %v, want 0.1", v)
	}
	delete(s.Counters, CounterGCCycles)
	if v, _ := OffCPUShare(s); v != 0.4 {
		t.Errorf("no collection: %v, want 0.4 (blocking of its own is the harness's, or another task's)", v)
	}
	delete(s.Counters, CounterRunDelay)
	if v, _ := OffCPUShare(s); v != 0.4 {
		t.Errorf("no collection, no run delay: %v, want 0.4", v)
	}
}

// A run delay as long as the sample (read around it, on a very busy
// machine) leaves its on-CPU time unknown, never 0, and the sample off
// the CPU for all of its time.
func TestRunDelayAsLongAsTheSample(t *testing.T) {
	long := Sample{Iters: 10, Ns: 1000, Counters: map[string]int64{CounterRunDelay: 1200}}
	if on, ok := OnCPUNs(long); ok {
		t.Errorf("on-CPU time %d known, want unknown", on)
	}
	if v, ok := OffCPUShare(long); !ok || v != 1 {
		t.Errorf("off-CPU share %v %v, want 1", v, ok)
	}
	short := Sample{Iters: 10, Ns: 1000, Counters: map[string]int64{CounterRunDelay: 300}}
	if on, ok := OnCPUNs(short); !ok || on != 700 {
		t.Errorf("on-CPU time %d %v, want 700", on, ok)
	}
	e := Experiment{Samples: []Sample{short, long}}
	if xs, ok := OnCPUPerOp(e); ok {
		t.Errorf("on-CPU per op %v of an experiment with an unknown sample, want none", xs)
	}
	if xs, ok := OffCPUShares(e); !ok || xs[0] != 0.3 || xs[1] != 1 {
		t.Errorf("off-CPU shares %v %v, want [0.3 1]", xs, ok)
	}
}

// The clock of an experiment's samples is the mean of its two probes
// while they agree within ClockAgreement; where they do not, one was
// preempted (or the clock moved) and the clock is not known.
func TestClockHzNeedsAgreeingProbes(t *testing.T) {
	for _, c := range []struct {
		before, after, want float64
	}{
		{3.6e9, 3.6e9, 3.6e9},
		{3.6e9, 3.5e9, 3.55e9},
		{1.2e9, 3.6e9, 0},
		{3.6e9, 3.4e9, 0},
		{0, 3.6e9, 0},
	} {
		e := Experiment{Clock: &EffectiveClock{BeforeHz: c.before, AfterHz: c.after}}
		if got := e.ClockHz(); got != c.want {
			t.Errorf("probes %g and %g: ClockHz %g, want %g", c.before, c.after, got, c.want)
		}
	}
	if got := (Experiment{}).ClockHz(); got != 0 {
		t.Errorf("no probes: %g", got)
	}
}
