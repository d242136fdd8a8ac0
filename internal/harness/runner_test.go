package harness

import (
	"errors"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
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

func quickOptions(cpu int) Options {
	return Options{
		CPU: cpu, Samples: 5, Warmup: time.Millisecond, SampleTime: 200 * time.Microsecond,
		Isolate: true, Clock: ClockInfo{Granularity: 1},
	}
}

func lastCPU() int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return 0
	}
	last := 0
	for i := range 1024 {
		if set.IsSet(i) {
			last = i
		}
	}
	return last
}

func TestRunPinsEverySample(t *testing.T) {
	cpu := lastCPU()
	outs := Run([]Workload{{Name: "test/add", Loop: addLoop}}, quickOptions(cpu))
	if len(outs) != 1 {
		t.Fatalf("got %d outcomes, want 1", len(outs))
	}
	o := outs[0]
	if o.Err != nil {
		t.Fatalf("run failed: %v", o.Err)
	}
	if len(o.Samples) != 5 {
		t.Fatalf("got %d samples, want 5", len(o.Samples))
	}
	for i, s := range o.Samples {
		if s.CPU != cpu {
			t.Errorf("sample %d on cpu %d, pinned to %d", i, s.CPU, cpu)
		}
		if s.Iters != o.Iters || s.Ns <= 0 {
			t.Errorf("sample %d = %+v, want %d iterations and a positive time", i, s, o.Iters)
		}
	}
	if o.Iters < 2 {
		t.Errorf("calibration chose %d iterations for a 200us sample of a ~ns loop", o.Iters)
	}
}

func TestRunFixedIters(t *testing.T) {
	opts := quickOptions(0)
	opts.Iters = 777
	o := Run([]Workload{{Name: "test/add", Loop: addLoop}}, opts)[0]
	if o.Err != nil || o.Iters != 777 || o.Samples[0].Iters != 777 {
		t.Fatalf("got iters %d, err %v; want 777 per sample", o.Iters, o.Err)
	}
	if o.Ops() != 5*777 {
		t.Errorf("Ops() = %d, want %d", o.Ops(), 5*777)
	}
}

func TestRunPanicIsReportedAndRunGoesOn(t *testing.T) {
	boom := func(int) { panic("boom") }
	outs := Run([]Workload{{Name: "test/panic", Loop: boom}, {Name: "test/add", Loop: addLoop}}, quickOptions(0))
	if len(outs) != 2 {
		t.Fatalf("got %d outcomes, want 2", len(outs))
	}
	var pe *PanicError
	if !errors.As(outs[0].Err, &pe) || !strings.Contains(outs[0].Err.Error(), "boom") {
		t.Errorf("panicking workload: err = %v, want a PanicError with its message", outs[0].Err)
	}
	if outs[1].Err != nil || len(outs[1].Samples) != 5 {
		t.Errorf("next workload: err %v, %d samples; want it to run fully", outs[1].Err, len(outs[1].Samples))
	}
}

func TestRunStopsWhenAsked(t *testing.T) {
	stop := make(chan struct{})
	opts := quickOptions(0)
	opts.Samples = 1000
	opts.Stop = stop
	taken := 0
	opts.Progress = func(p Progress) {
		if p.Phase == "sampling" {
			taken = p.Sample
			if taken == 3 {
				close(stop)
			}
		}
	}
	outs := Run([]Workload{{Name: "a", Loop: addLoop}, {Name: "b", Loop: addLoop}}, opts)
	if len(outs) != 1 || !outs[0].Interrupted {
		t.Fatalf("got %d outcomes (interrupted=%v), want 1 interrupted", len(outs), len(outs) > 0 && outs[0].Interrupted)
	}
	if n := len(outs[0].Samples); n != 4 {
		t.Errorf("kept %d samples, want the 4 taken before the stop was seen", n)
	}
}

func TestRunAllocsExcludeTheRunnersBookkeeping(t *testing.T) {
	opts := quickOptions(0)
	opts.OpenCounters = func() (CounterSource, error) { return allocatingCounters{}, nil }
	o := Run([]Workload{{Name: "test/add", Loop: addLoop}}, opts)[0]
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if o.AllocsPerOp != 0 {
		t.Errorf("allocs per op = %v for a loop that allocates nothing, want 0", o.AllocsPerOp)
	}
	if len(o.Samples[0].Counters) != 1 {
		t.Errorf("counters %v, want one delta", o.Samples[0].Counters)
	}
}

// allocatingCounters allocates a map on every read, as real sources do.
type allocatingCounters struct{}

func (allocatingCounters) Read() (map[string]int64, error) { return map[string]int64{"reads": 1}, nil }
func (allocatingCounters) Close() error                    { return nil }

func TestRunCollectorOffByDefault(t *testing.T) {
	garbage := func(n int) {
		for range n {
			testBytes = make([]byte, 1<<10)
		}
	}
	o := Run([]Workload{{Name: "test/garbage", Loop: garbage}}, quickOptions(0))[0]
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if o.GCCycles != 0 {
		t.Errorf("%d GC cycles with the collector off", o.GCCycles)
	}
	if o.AllocsPerOp != 1 {
		t.Errorf("allocs per op = %v, want exactly 1", o.AllocsPerOp)
	}
	if o.BytesPerOp < 1024 || o.BytesPerOp > 2048 {
		t.Errorf("bytes per op = %.0f, want 1024 rounded up to a size class", o.BytesPerOp)
	}
}

func TestPinnedIsolatesOtherThreads(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs to keep other threads off one")
	}
	widenAllThreads(t)
	cpu := lastCPU()
	var self int
	err := Pinned(cpu, true, func() error {
		self = unix.Gettid()
		entries, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return err
		}
		for _, e := range entries {
			tid, _ := strconv.Atoi(e.Name())
			var set unix.CPUSet
			if unix.SchedGetaffinity(tid, &set) != nil {
				continue
			}
			if tid == self {
				if set.Count() != 1 || !set.IsSet(cpu) {
					t.Errorf("measured thread may run on %d CPUs, want only cpu %d", set.Count(), cpu)
				}
			} else if set.IsSet(cpu) && set.Count() > 1 {
				t.Errorf("thread %d may still run on the measured cpu %d", tid, cpu)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The thread goes back to the pool with its old mask, not pinned.
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(self, &set); err == nil && set.Count() == 1 && set.IsSet(cpu) {
		t.Errorf("thread %d is still pinned to cpu %d after Pinned returned", self, cpu)
	}
}

func TestPinnedRejectsBadCPU(t *testing.T) {
	if err := Pinned(-1, false, func() error { return nil }); err == nil {
		t.Error("Pinned(-1) succeeded")
	}
	if err := Pinned(4096, false, func() error { return nil }); err == nil {
		t.Error("Pinned(4096) succeeded")
	}
}

func TestCheckPin(t *testing.T) {
	if err := checkPin([]Sample{{CPU: 1}, {CPU: 1}}, 1); err != nil {
		t.Errorf("all on cpu 1: %v", err)
	}
	err := checkPin([]Sample{{CPU: 1}, {CPU: 0}}, 1)
	if err == nil || !strings.Contains(err.Error(), "sample 2 ended on cpu 0") {
		t.Errorf("moved sample: err = %v", err)
	}
}

func TestRunBoundsTheHeapWithCollectorOff(t *testing.T) {
	big := func(n int) {
		for range n {
			testBytes = make([]byte, 64<<20)
		}
	}
	opts := quickOptions(0)
	opts.Iters = 1
	opts.Samples = 20 // 1.25 GiB allocated in all
	o := Run([]Workload{{Name: "test/big", Loop: big}}, opts)[0]
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if o.GCCycles != 0 {
		t.Errorf("%d collections inside sampling with the collector off", o.GCCycles)
	}
	if o.ForcedGC == 0 {
		t.Errorf("no collection between samples after %.0f MiB allocated", o.BytesPerOp*float64(o.Ops())/(1<<20))
	}
}

// widenAllThreads undoes the isolation earlier tests made: every thread of
// the test process may run on every CPU again.
func widenAllThreads(t *testing.T) {
	t.Helper()
	var all unix.CPUSet
	for i := range runtime.NumCPU() {
		all.Set(i)
	}
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		tid, _ := strconv.Atoi(e.Name())
		unix.SchedSetaffinity(tid, &all)
	}
}

func TestRunProbesTheClockAroundTheSamples(t *testing.T) {
	opts := quickOptions(0)
	var calls []string
	opts.Probe = func() Probe {
		calls = append(calls, "probe")
		return Probe{ClockHz: float64(len(calls)) * 1e9, RefNs: float64(len(calls))}
	}
	opts.Progress = func(p Progress) {
		if p.Phase == "sampling" {
			calls = append(calls, "sample")
		}
	}
	o := Run([]Workload{{Name: "a", Loop: addLoop}}, opts)[0]
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if len(calls) != 7 || calls[0] != "probe" || calls[6] != "probe" {
		t.Errorf("calls %v, want a probe, 5 samples, a probe", calls)
	}
	if o.Before != (Probe{1e9, 1}) || o.After != (Probe{7e9, 7}) {
		t.Errorf("probes before %v, after %v; want the first and the last", o.Before, o.After)
	}
}
