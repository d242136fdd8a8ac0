//go:build linux

package harness_test

import (
	"context"
	"errors"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/fake"
)

func quickOptions(cpu int) harness.Options {
	return harness.Options{
		CPU: cpu, Samples: 5, Warmup: time.Millisecond, SampleTime: 200 * time.Microsecond,
		Isolate: true, Clock: harness.ClockInfo{Granularity: 1},
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
	ft := fake.New("test/add", time.Nanosecond)
	outs := harness.Run(context.Background(), []harness.Target{ft}, quickOptions(cpu))
	if len(outs) != 1 {
		t.Fatalf("got %d outcomes, want 1", len(outs))
	}
	o := outs[0]
	if o.Err != nil {
		t.Fatalf("run failed: %v", o.Err)
	}
	if len(o.Samples) != 5 || o.Name != "test/add" {
		t.Fatalf("got %d samples of %q, want 5 of test/add", len(o.Samples), o.Name)
	}
	for i, s := range o.Samples {
		if s.CPU != cpu {
			t.Errorf("sample %d on cpu %d, pinned to %d", i, s.CPU, cpu)
		}
		if s.Iters != o.Iters || s.Ns <= 0 {
			t.Errorf("sample %d = %+v, want %d iterations and a positive time", i, s, o.Iters)
		}
	}
	// 200 µs at 1 ns an iteration: calibrated to at least that, with the
	// 20% headroom at most.
	if o.Iters < 200_000 || o.Iters > 240_001 {
		t.Errorf("calibration chose %d iterations for a 200us sample of a 1 ns loop", o.Iters)
	}
	if o.Totals.GCCycles != 5 {
		t.Errorf("totals %+v: want the target's (GCCycles = samples = 5)", o.Totals)
	}
}

// The phases come in order: open, warm-up and calibration runs, then
// sample and between alternating, then close.
func TestRunCallsThePhasesInOrder(t *testing.T) {
	ft := fake.New("a", time.Microsecond)
	opts := quickOptions(0)
	opts.Samples = 3
	harness.Run(context.Background(), []harness.Target{ft}, opts)
	c := ft.Calls
	if c[0] != "open" || c[len(c)-1] != "close completed" {
		t.Fatalf("calls %v: want open first and close completed last", c)
	}
	tail := c[len(c)-7 : len(c)-1]
	if want := []string{"sample 240", "between", "sample 240", "between", "sample 240", "between"}; !slices.Equal(tail, want) {
		t.Errorf("samples %v, want %v", tail, want)
	}
	for _, call := range c[1 : len(c)-7] {
		if !strings.HasPrefix(call, "time ") {
			t.Errorf("before the samples: %q, want only timed runs (warm-up, calibration)", call)
		}
	}
}

func TestRunWarmupRuns(t *testing.T) {
	ft := fake.New("a", time.Millisecond)
	opts := quickOptions(0)
	opts.WarmupRuns, opts.Iters, opts.Samples = 3, 1, 2
	harness.Run(context.Background(), []harness.Target{ft}, opts)
	want := []string{"open", "time 1", "time 1", "time 1", "sample 1", "between", "sample 1", "between", "close completed"}
	if !slices.Equal(ft.Calls, want) {
		t.Errorf("calls %v, want %v", ft.Calls, want)
	}
}

func TestRunFixedIters(t *testing.T) {
	opts := quickOptions(0)
	opts.Iters = 777
	o := harness.Run(context.Background(), []harness.Target{fake.New("a", 1)}, opts)[0]
	if o.Err != nil || o.Iters != 777 || o.Samples[0].Iters != 777 {
		t.Fatalf("got iters %d, err %v; want 777 per sample", o.Iters, o.Err)
	}
	if o.Ops() != 5*777 {
		t.Errorf("Ops() = %d, want %d", o.Ops(), 5*777)
	}
}

func TestRunPanicIsReportedAndRunGoesOn(t *testing.T) {
	boom := fake.New("test/panic", 1)
	boom.PanicAt = 2
	next := fake.New("test/add", 1)
	outs := harness.Run(context.Background(), []harness.Target{boom, next}, quickOptions(0))
	if len(outs) != 2 {
		t.Fatalf("got %d outcomes, want 2", len(outs))
	}
	var pe *harness.PanicError
	if !errors.As(outs[0].Err, &pe) || !strings.Contains(outs[0].Err.Error(), "fake panic") {
		t.Errorf("panicking target: err = %v, want a PanicError with its message", outs[0].Err)
	}
	if last := boom.Calls[len(boom.Calls)-1]; last != "close failed" {
		t.Errorf("panicking target closed with %q, want close failed (so it is not run again)", last)
	}
	if outs[1].Err != nil || len(outs[1].Samples) != 5 {
		t.Errorf("next target: err %v, %d samples; want it to run fully", outs[1].Err, len(outs[1].Samples))
	}
}

func TestRunSampleErrorKeepsTheSamplesTaken(t *testing.T) {
	ft := fake.New("a", 1)
	ft.FailAt = 3
	o := harness.Run(context.Background(), []harness.Target{ft}, quickOptions(0))[0]
	if !errors.Is(o.Err, fake.ErrFail) || len(o.Samples) != 2 {
		t.Errorf("err %v, %d samples; want the failure and the 2 samples before it", o.Err, len(o.Samples))
	}
}

func TestRunOpenErrorFailsTheTarget(t *testing.T) {
	ft := fake.New("a", 1)
	ft.OpenErr = errors.New("no setup")
	o := harness.Run(context.Background(), []harness.Target{ft}, quickOptions(0))[0]
	if o.Err == nil || !slices.Equal(ft.Calls, []string{"open"}) {
		t.Errorf("err %v, calls %v; want the error and nothing after open", o.Err, ft.Calls)
	}
}

func TestRunStopsWhenAsked(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := quickOptions(0)
	opts.Samples = 1000
	opts.Progress = func(p harness.Progress) {
		if p.Phase == "sampling" && p.Sample == 3 {
			cancel()
		}
	}
	a, b := fake.New("a", 1), fake.New("b", 1)
	outs := harness.Run(ctx, []harness.Target{a, b}, opts)
	if len(outs) != 1 || !outs[0].Interrupted {
		t.Fatalf("got %d outcomes (interrupted=%v), want 1 interrupted", len(outs), len(outs) > 0 && outs[0].Interrupted)
	}
	if n := len(outs[0].Samples); n != 4 {
		t.Errorf("kept %d samples, want the 4 taken before the stop was seen", n)
	}
	if last := a.Calls[len(a.Calls)-1]; last != "close stopped" {
		t.Errorf("stopped target closed with %q, want close stopped", last)
	}
	if len(b.Calls) != 0 {
		t.Errorf("the target after the stop was called: %v", b.Calls)
	}
}

func TestRunProbesTheClockAroundTheSamples(t *testing.T) {
	opts := quickOptions(0)
	var calls []string
	opts.Probe = func() harness.Probe {
		calls = append(calls, "probe")
		return harness.Probe{ClockHz: float64(len(calls)) * 1e9, RefNs: float64(len(calls))}
	}
	opts.Progress = func(p harness.Progress) {
		if p.Phase == "sampling" {
			calls = append(calls, "sample")
		}
	}
	o := harness.Run(context.Background(), []harness.Target{fake.New("a", 1)}, opts)[0]
	if o.Err != nil {
		t.Fatal(o.Err)
	}
	if len(calls) != 7 || calls[0] != "probe" || calls[6] != "probe" {
		t.Errorf("calls %v, want a probe, 5 samples, a probe", calls)
	}
	if o.Before != (harness.Probe{ClockHz: 1e9, RefNs: 1}) || o.After != (harness.Probe{ClockHz: 7e9, RefNs: 7}) {
		t.Errorf("probes before %v, after %v; want the first and the last", o.Before, o.After)
	}
}

func TestRunUnpinnedSkipsThePinCheck(t *testing.T) {
	opts := quickOptions(4095) // a CPU no test machine has
	opts.Unpinned = true
	o := harness.Run(context.Background(), []harness.Target{fake.New("a", 1)}, opts)[0]
	if o.Err != nil || len(o.Samples) != 5 {
		t.Errorf("unpinned run: err %v, %d samples; want 5 and no pin failure", o.Err, len(o.Samples))
	}
}

func TestPinnedIsolatesOtherThreads(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs 2 CPUs to keep other threads off one")
	}
	widenAllThreads(t)
	cpu := lastCPU()
	var self int
	err := harness.Pinned(cpu, true, func() error {
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
	if err := harness.Pinned(-1, false, func() error { return nil }); err == nil {
		t.Error("Pinned(-1) succeeded")
	}
	if err := harness.Pinned(4096, false, func() error { return nil }); err == nil {
		t.Error("Pinned(4096) succeeded")
	}
}

func TestRunFailsWhenThePinDoesNotHold(t *testing.T) {
	// Samples that report another CPU than the pinned one fail the target.
	ft := &movingTarget{Target: fake.New("a", 1)}
	o := harness.Run(context.Background(), []harness.Target{ft}, quickOptions(0))[0]
	if o.Err == nil || !strings.Contains(o.Err.Error(), "sample 2 ended on cpu 4095") {
		t.Errorf("moved sample: err = %v", o.Err)
	}
}

// movingTarget reports its second sample on a CPU it cannot be on.
type movingTarget struct {
	*fake.Target
	n int
}

func (m *movingTarget) Sample(n int64) ([]result.Sample, error) {
	s, err := m.Target.Sample(n)
	if m.n++; m.n == 2 && len(s) == 1 {
		s[0].CPU = 4095
	}
	return s, err
}

// batchTarget returns its samples three at a time, as one process of a
// test binary does.
type batchTarget struct {
	*fake.Target
	iters int64
}

func (b *batchTarget) Iters() int64 { return b.iters }

func (b *batchTarget) Sample(n int64) ([]result.Sample, error) {
	var out []result.Sample
	for p := range 3 {
		s, err := b.Target.Sample(n)
		if err != nil {
			return nil, err
		}
		s[0].Process = p
		out = append(out, s...)
	}
	return out, nil
}

// Batches count sample by sample, and a target's own iterations replace
// calibration.
func TestRunBatchesAndOwnIterations(t *testing.T) {
	bt := &batchTarget{Target: fake.New("a", time.Microsecond), iters: 123}
	opts := quickOptions(0)
	opts.Samples, opts.Warmup = 7, 0
	o := harness.Run(context.Background(), []harness.Target{bt}, opts)[0]
	if len(o.Samples) != 9 || o.Iters != 123 {
		t.Errorf("%d samples of %d iterations, want 9 (three batches for 7) of 123", len(o.Samples), o.Iters)
	}
	for _, c := range bt.Calls {
		if strings.HasPrefix(c, "time ") {
			t.Errorf("calibration ran (%s) for a target with its own iterations", c)
		}
	}
}

func TestLockedReturnsPanics(t *testing.T) {
	err := harness.Locked(func() error { panic("boom") })
	var pe *harness.PanicError
	if !errors.As(err, &pe) {
		t.Errorf("Locked(panic) = %v, want a PanicError", err)
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

// With MinTime, sampling goes on past Samples until the samples lasted
// that long: at 3 ms a run, 10 samples and at least 60 ms take 20 runs.
func TestRunMinTime(t *testing.T) {
	ft := fake.New("a", 3*time.Millisecond)
	opts := quickOptions(0)
	opts.Iters, opts.Samples, opts.MinTime = 1, 10, 60*time.Millisecond
	o := harness.Run(context.Background(), []harness.Target{ft}, opts)[0]
	if len(o.Samples) != 20 {
		t.Errorf("%d samples, want 20 (60 ms of 3 ms runs)", len(o.Samples))
	}
	opts.MinTime = 6 * time.Millisecond
	if o := harness.Run(context.Background(), []harness.Target{fake.New("b", 3*time.Millisecond)}, opts)[0]; len(o.Samples) != 10 {
		t.Errorf("%d samples, want the 10 asked (they outlast MinTime)", len(o.Samples))
	}
	a, b := fake.New("a", time.Millisecond), fake.New("b", 3*time.Millisecond)
	outs := harness.Interleave(context.Background(), []harness.Target{a, b}, harness.Options{CPU: 0, Isolate: true, Iters: 1, Samples: 5, MinTime: 30 * time.Millisecond, Clock: harness.ClockInfo{Granularity: 1}})
	if len(outs[0].Samples) != 10 || len(outs[1].Samples) != 10 {
		t.Errorf("interleaved: %d and %d rounds, want 10: until the slowest candidate has its 30 ms", len(outs[0].Samples), len(outs[1].Samples))
	}
}

// --target-ci samples until the median is known to ±TargetCI: a quiet
// target stops at the least number of samples, a noisy one goes on
// until MaxTime has passed.
func TestRunTargetCIStopsEarlierWhenQuiet(t *testing.T) {
	cpu := lastCPU()
	count := func(noise float64) int {
		ft := fake.New("t", time.Microsecond)
		ft.Noise = noise
		opts := quickOptions(cpu)
		opts.Samples, opts.TargetCI, opts.MaxTime = 10, 0.01, 50*time.Millisecond
		outs := harness.Run(context.Background(), []harness.Target{ft}, opts)
		if outs[0].Err != nil {
			t.Fatal(outs[0].Err)
		}
		return len(outs[0].Samples)
	}
	quiet, noisy := count(0.001), count(0.3)
	t.Logf("samples: quiet %d, noisy %d", quiet, noisy)
	if quiet != 10 {
		t.Errorf("a quiet target took %d samples, want the least, 10", quiet)
	}
	// The fake takes no time: 50ms of wall time hold many samples.
	if noisy <= 2*quiet {
		t.Errorf("a noisy target took %d samples, not many more than a quiet one's %d", noisy, quiet)
	}
}

// slowTarget spends wall time on every sample besides what the sample
// records (as a command's --prepare and start do): Sample sleeps between
// and records recorded.
type slowTarget struct {
	name            string
	between, record time.Duration
}

func (t *slowTarget) Name() string                        { return t.name }
func (t *slowTarget) Open() error                         { return nil }
func (t *slowTarget) Time(n int64) (time.Duration, error) { return time.Duration(n) * t.record, nil }
func (t *slowTarget) Between()                            {}
func (t *slowTarget) Close(harness.End) harness.Totals    { return harness.Totals{} }
func (t *slowTarget) Sample(n int64) ([]result.Sample, error) {
	time.Sleep(t.between)
	return []result.Sample{{Iters: n, Ns: t.record.Nanoseconds() * n, CPU: lastCPU()}}, nil
}

// MaxTime bounds the wall time of the sampling, whatever the samples
// record: a target whose samples record 1µs but take 5ms each stops once
// MaxTime has passed, and targets interleaved in rounds share it (not
// MaxTime each). A sleep never ends early, so these bounds hold on any
// machine: at most MaxTime/5ms samples (rounds of two: MaxTime/10ms),
// and the one begun before it ran out.
func TestMaxTimeBoundsTheSampling(t *testing.T) {
	opts := quickOptions(lastCPU())
	opts.Iters, opts.Samples, opts.TargetCI, opts.MaxTime = 1, 3, 1e-9, 100*time.Millisecond
	o := harness.Run(context.Background(), []harness.Target{&slowTarget{name: "a", between: 5 * time.Millisecond, record: time.Microsecond}}, opts)[0]
	if n := len(o.Samples); o.Err != nil || n < opts.Samples || n > 100/5+1 {
		t.Errorf("%d samples (%v); want 3 to 21: 100ms of 5ms samples", n, o.Err)
	}
	outs := harness.Interleave(context.Background(), []harness.Target{
		&slowTarget{name: "a", between: 5 * time.Millisecond, record: 5 * time.Millisecond},
		&slowTarget{name: "b", between: 5 * time.Millisecond, record: 5 * time.Millisecond},
	}, opts)
	for _, o := range outs {
		if n := len(o.Samples); o.Err != nil || n < opts.Samples || n > 100/10+1 {
			t.Errorf("%s: %d rounds (%v); want 3 to 11: 100ms of rounds of two 5ms samples", o.Name, n, o.Err)
		}
	}
	// MinTime yields to MaxTime: 1s of runs is not taken when at most
	// 100ms were allowed.
	opts.MinTime = time.Second
	o = harness.Run(context.Background(), []harness.Target{&slowTarget{name: "c", between: 5 * time.Millisecond, record: 5 * time.Millisecond}}, opts)[0]
	if n := len(o.Samples); n > 100/5+1 {
		t.Errorf("with MinTime 1s: %d samples, want at most 21", n)
	}
}

// With CheckSamples every sample carries the speed of its core right
// after it (one check a batch), sequential or interleaved; without, none.
func TestCheckSamplesTimesTheCoreAfterEverySample(t *testing.T) {
	opts := quickOptions(0)
	opts.Samples, opts.Warmup = 7, 0
	o := harness.Run(context.Background(), []harness.Target{&batchTarget{Target: fake.New("a", time.Microsecond), iters: 10}}, opts)[0]
	if slices.ContainsFunc(o.Samples, func(s result.Sample) bool { return s.RefNs != 0 }) {
		t.Errorf("unchecked run: samples %+v carry a speed", o.Samples)
	}
	opts.CheckSamples = true
	o = harness.Run(context.Background(), []harness.Target{&batchTarget{Target: fake.New("a", time.Microsecond), iters: 10}}, opts)[0]
	for i, s := range o.Samples {
		if !(s.RefNs > 0 && s.RefNs < 1e6) {
			t.Fatalf("sample %d: RefNs %v, want a speed", i, s.RefNs)
		}
		if i%3 != 0 && s.RefNs != o.Samples[i-i%3].RefNs {
			t.Errorf("sample %d: RefNs %v differs within its batch (%v)", i, s.RefNs, o.Samples[i-i%3].RefNs)
		}
	}
	outs := harness.Interleave(context.Background(), []harness.Target{fake.New("a", time.Microsecond), fake.New("b", time.Microsecond)}, opts)
	for _, o := range outs {
		if len(o.Samples) == 0 || slices.ContainsFunc(o.Samples, func(s result.Sample) bool { return !(s.RefNs > 0) }) {
			t.Errorf("%s interleaved: samples %+v, want each with a speed", o.Name, o.Samples)
		}
	}
}
