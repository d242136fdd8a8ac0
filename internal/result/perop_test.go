package result

import "testing"

// Time off the CPU waiting for the collector is the program's own, not
// another task's; once the thread was preempted it counts.
func TestOffCPUShareCollector(t *testing.T) {
	s := Sample{Iters: 1, Ns: 1000, Counters: map[string]int64{CounterTaskClock: 600, CounterGCCycles: 1, CounterInvoluntaryCS: 0}}
	if v, ok := OffCPUShare(s); !ok || v != 0 {
		t.Errorf("waiting for the collector: %v %v, want 0", v, ok)
	}
	s.Counters[CounterInvoluntaryCS] = 1
	if v, _ := OffCPUShare(s); v != 0.4 {
		t.Errorf("preempted during a collection: %v, want 0.4", v)
	}
	delete(s.Counters, CounterGCCycles)
	s.Counters[CounterInvoluntaryCS] = 0
	if v, _ := OffCPUShare(s); v != 0.4 {
		t.Errorf("no collection: %v, want 0.4", v)
	}
}
