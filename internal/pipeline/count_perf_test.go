package pipeline

import (
	"context"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

var perfSink int

func perfLoop(n int) {
	for i := range n {
		perfSink += i
	}
}

// Where the PMU gives the instructions counter, the count is made from
// the samples' readings (perf_event, at native speed), not by callgrind:
// here from the fake counters, which read 1000 more every time.
func TestCountFromSamplesWithPMU(t *testing.T) {
	if !harness.CanPin {
		t.Skip("pinning needs Linux")
	}
	reads := make([]map[string]int64, 100_000)
	for i := range reads {
		reads[i] = map[string]int64{result.CounterInstructions: int64(i) * 1000}
	}
	open := func() (counters.Source, result.CounterReport) {
		rep := result.CounterReport{}
		rep.AddOpened(result.CounterInstructions)
		rep.SetNote(result.CounterInstructions, "user space only")
		return &counters.Fake{Reads: reads}, rep
	}
	plan := quickPlan()
	plan.Settings.Iters = 100
	tgt := inproc.New(inproc.Workload{Name: "perf/loop", Units: 1, Unit: "op", Loop: perfLoop}, inproc.Options{OpenCounters: open})
	r, err := Run(context.Background(), plan, []Target{tgt})
	if err != nil {
		t.Fatal(err)
	}
	if !CountFromSamples(r) {
		t.Fatalf("counters %+v: instructions opened, yet no count from the samples", r.Counters)
	}
	c := r.Experiments[0].Count
	if c == nil || c.Counter != result.CounterPerf || c.Tool != "perf_event instructions (user space only)" || c.Error != "" {
		t.Fatalf("count %+v", c)
	}
	if len(c.Samples) != len(r.Experiments[0].Samples) {
		t.Errorf("%d counted samples for %d samples", len(c.Samples), len(r.Experiments[0].Samples))
	}
	per, ok := compare.CountPerOp(c, result.EventInstructions)
	if !ok || per <= 0 {
		t.Errorf("per op %v, %v", per, ok)
	}
	if c.Sloped() {
		t.Error("samples of one N make no slope")
	}

	none := &result.Result{Experiments: []result.Experiment{{Name: "x"}}}
	if CountFromSamples(none) || none.Experiments[0].Count != nil {
		t.Error("a count without the instructions counter")
	}
}
