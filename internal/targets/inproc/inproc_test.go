package inproc_test

import (
	"context"
	"math"
	"runtime/debug"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

var (
	testSink  uint64
	testBytes []byte
)

func addLoop(n int) {
	for i := range n {
		testSink += uint64(i)
	}
}

func quickOptions() harness.Options {
	return harness.Options{
		CPU: 0, Samples: 5, Warmup: time.Millisecond, SampleTime: 200 * time.Microsecond,
		Isolate: true, Clock: harness.ClockInfo{Granularity: 1},
	}
}

func run(t *testing.T, w inproc.Workload, hopts harness.Options, iopts inproc.Options) harness.Outcome {
	t.Helper()
	o := harness.Run(context.Background(), []harness.Target{inproc.New(w, iopts)}, hopts)[0]
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	return o
}

func TestRealLoopIsCalibratedAndPinned(t *testing.T) {
	o := run(t, inproc.Workload{Name: "test/add", Loop: addLoop}, quickOptions(), inproc.Options{})
	if o.Iters < 2 || len(o.Samples) != 5 {
		t.Fatalf("%d iterations, %d samples: want a calibrated loop and 5 samples", o.Iters, len(o.Samples))
	}
	for i, s := range o.Samples {
		if s.CPU != 0 || s.Ns <= 0 || s.Iters != o.Iters {
			t.Errorf("sample %d = %+v, want cpu 0, a positive time, %d iterations", i, s, o.Iters)
		}
	}
}

func TestSetupRunsOnceBeforeTheLoop(t *testing.T) {
	setups, loopsBefore := 0, -1
	loops := 0
	w := inproc.Workload{Name: "test/setup",
		Setup: func() { setups++; loopsBefore = loops },
		Loop:  func(n int) { loops++; addLoop(n) }}
	run(t, w, quickOptions(), inproc.Options{})
	if setups != 1 || loopsBefore != 0 {
		t.Errorf("setup ran %d times, after %d loops; want once, before any", setups, loopsBefore)
	}
}

func TestNoLoopFails(t *testing.T) {
	o := harness.Run(context.Background(), []harness.Target{inproc.New(inproc.Workload{Name: "x"}, inproc.Options{})}, quickOptions())[0]
	if o.Err == nil {
		t.Error("a workload without a loop ran")
	}
}

func TestAllocsExcludeTheCounterReads(t *testing.T) {
	iopts := inproc.Options{OpenCounters: func() (counters.Source, result.CounterReport) { return allocatingCounters{}, result.CounterReport{} }}
	o := run(t, inproc.Workload{Name: "test/add", Loop: addLoop}, quickOptions(), iopts)
	if !o.Totals.AllocsMeasured || o.Totals.AllocsPerOp != 0 {
		t.Errorf("totals %+v for a loop that allocates nothing, want allocs measured and 0", o.Totals)
	}
	if len(o.Samples[0].Counters) != 1 {
		t.Errorf("counters %v, want one delta", o.Samples[0].Counters)
	}
}

// allocatingCounters allocates a map on every read, as real sources do.
type allocatingCounters struct{}

func (allocatingCounters) Read() (map[string]int64, error) { return map[string]int64{"reads": 1}, nil }
func (allocatingCounters) Close() error                    { return nil }

func garbage(n int) {
	for range n {
		testBytes = make([]byte, 1<<10)
	}
}

func TestCollectorOffByDefault(t *testing.T) {
	o := run(t, inproc.Workload{Name: "test/garbage", Loop: garbage}, quickOptions(), inproc.Options{})
	if o.Totals.GCCycles != 0 {
		t.Errorf("%d GC cycles with the collector off", o.Totals.GCCycles)
	}
	if o.Totals.AllocsPerOp != 1 {
		t.Errorf("allocs per op = %v, want exactly 1", o.Totals.AllocsPerOp)
	}
	if b := o.Totals.BytesPerOp; b < 1024 || b > 2048 {
		t.Errorf("bytes per op = %.0f, want 1024 rounded up to a size class", b)
	}
}

func TestCollectorOnCountsCycles(t *testing.T) {
	opts := quickOptions()
	opts.SampleTime = 5 * time.Millisecond
	o := run(t, inproc.Workload{Name: "test/garbage", Loop: garbage}, opts, inproc.Options{GC: true})
	if o.Totals.GCCycles == 0 {
		t.Errorf("no GC cycle counted over 25 ms of allocating 1 KiB per op with the collector on")
	}
	if o.Totals.ForcedGC != 0 {
		t.Errorf("%d forced collections with the collector on", o.Totals.ForcedGC)
	}
}

func TestHeapBoundedWithCollectorOff(t *testing.T) {
	big := func(n int) {
		for range n {
			testBytes = make([]byte, 64<<20)
		}
	}
	opts := quickOptions()
	opts.Iters = 1
	opts.Samples = 20 // 1.25 GiB allocated in all
	o := run(t, inproc.Workload{Name: "test/big", Loop: big}, opts, inproc.Options{})
	if o.Totals.GCCycles != 0 {
		t.Errorf("%d collections inside sampling with the collector off", o.Totals.GCCycles)
	}
	if o.Totals.ForcedGC == 0 {
		t.Errorf("no collection between samples after %.0f MiB allocated", o.Totals.BytesPerOp*float64(o.Ops())/(1<<20))
	}
}

func TestStoppedInterleaveStillCountsAllocations(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	opts := quickOptions()
	opts.Iters = 10
	opts.Samples = 1000
	opts.Progress = func(p harness.Progress) {
		if p.Phase == "sampling" && p.Sample == 2 {
			stop()
		}
	}
	alloc := func(n int) {
		for range n {
			testBytes = make([]byte, 64)
		}
	}
	ts := []harness.Target{
		inproc.New(inproc.Workload{Name: "a", Loop: alloc}, inproc.Options{}),
		inproc.New(inproc.Workload{Name: "b", Loop: alloc}, inproc.Options{}),
	}
	for _, o := range harness.Interleave(ctx, ts, opts) {
		if !o.Interrupted || len(o.Samples) == 0 {
			t.Errorf("%s: interrupted %v, %d samples; want stopped with samples", o.Name, o.Interrupted, len(o.Samples))
		}
		if o.Totals.AllocsPerOp != 1 {
			t.Errorf("%s: allocs/op %v after a stop, want 1 (measured on one op)", o.Name, o.Totals.AllocsPerOp)
		}
	}
}

// Candidates measured with the collector off, interleaved, leave it on
// after them, as they found it (each Open turns it off and its Close puts
// back what it found: closed in the order opened, the last put back
// "off").
func TestInterleaveGivesTheCollectorBack(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	ts := []harness.Target{
		inproc.New(inproc.Workload{Name: "a", Loop: addLoop}, inproc.Options{}),
		inproc.New(inproc.Workload{Name: "b", Loop: addLoop}, inproc.Options{}),
	}
	harness.Interleave(context.Background(), ts, quickOptions())
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC %d after the interleaved run, want 100", got)
	}
}

func TestPanickingLoopIsNotRunAgain(t *testing.T) {
	calls := 0
	boom := func(n int) {
		calls++
		if calls > 3 {
			panic("boom")
		}
		addLoop(n)
	}
	opts := quickOptions()
	opts.Iters, opts.Warmup = 10, time.Nanosecond
	o := harness.Run(context.Background(), []harness.Target{inproc.New(inproc.Workload{Name: "boom", Loop: boom}, inproc.Options{})}, opts)[0]
	if o.Err == nil || o.Totals.AllocsMeasured {
		t.Errorf("err %v, totals %+v: want the panic, and no allocation run after it", o.Err, o.Totals)
	}
}

// A single sample that allocates more than the process may hold does not
// kill the run: with the collector off, the memory limit makes it collect
// inside the sample as a last resort, and the cycles are counted.
func TestMemoryLimitIsTheLastResort(t *testing.T) {
	huge := func(n int) {
		for range n * 24 {
			testBytes = make([]byte, 32<<20) // 768 MiB per op
		}
	}
	opts := quickOptions()
	opts.Iters, opts.Samples, opts.Warmup = 1, 2, time.Nanosecond
	iopts := inproc.Options{MemoryBudget: 256 << 20}
	if g, l := iopts.HeapGrowth(), iopts.MemoryLimit(); g != 32<<20 || l != 128<<20 {
		t.Fatalf("budget 256 MiB: heap growth %d, limit %d; want 32 MiB and 128 MiB", g, l)
	}
	o := run(t, inproc.Workload{Name: "test/huge", Loop: huge}, opts, iopts)
	if o.Totals.GCCycles == 0 {
		t.Errorf("no collection inside samples that allocated 768 MiB each under a 128 MiB limit")
	}
	if old := debug.SetMemoryLimit(-1); old != math.MaxInt64 {
		t.Errorf("memory limit left at %d after the run", old)
	}
}
