package result

import "testing"

// WithOnCPU leaves out only the samples whose on-CPU time is unknown (a
// run delay as long as the sample), at most a quarter of them, and
// refuses when a process would keep none.
func TestWithOnCPU(t *testing.T) {
	var e Experiment
	for p := range 4 {
		for range 4 {
			e.Samples = append(e.Samples, Sample{Iters: 10, Ns: 2000, Process: p, Counters: map[string]int64{CounterRunDelay: 1000}})
		}
	}
	if got, ok := e.WithOnCPU(1); !ok || len(got.Samples) != 16 {
		t.Errorf("all known: ok %v, %d samples", ok, len(got.Samples))
	}
	e.Samples[5].Counters[CounterRunDelay] = 2500
	got, ok := e.WithOnCPU(1)
	if !ok || len(got.Samples) != 15 || len(e.Samples) != 16 {
		t.Errorf("one unknown: ok %v, %d of %d samples kept, want 15 of 16", ok, len(got.Samples), len(e.Samples))
	}
	for _, i := range []int{0, 1, 2, 3} { // every sample of process 0: 5 of 16 unknown
		e.Samples[i].Counters = map[string]int64{}
	}
	if _, ok := e.WithOnCPU(1); ok {
		t.Error("5 of 16 unknown, a process with none left: ok")
	}
	e.Samples[5].Counters[CounterRunDelay] = 1000
	if _, ok := e.WithOnCPU(1); ok {
		t.Error("4 of 16 unknown, all of one process: ok")
	}
	e.Samples[0].Counters[CounterRunDelay] = 1000 // 3 of 16 unknown, 13 kept
	if _, ok := e.WithOnCPU(13); !ok {
		t.Error("13 kept of the 13 needed: not ok")
	}
	if _, ok := e.WithOnCPU(14); ok {
		t.Error("13 kept of the 14 needed: ok")
	}
}
