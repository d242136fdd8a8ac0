package harness

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Options say how to run workloads.
type Options struct {
	CPU        int           // the CPU to pin the measured thread to
	Samples    int           // samples per workload
	Warmup     time.Duration // time spent running the loop before calibration
	SampleTime time.Duration // least duration of one sample
	Iters      int64         // fixed iterations per sample; 0 calibrates
	GC         bool          // leave the collector on while measuring
	Isolate    bool          // keep the process's other threads off CPU
	Clock      ClockInfo     // from MeasureClock; its granularity bounds samples

	// OpenCounters, when not nil, is called on the pinned thread before
	// warm-up; the source is read before and after every sample.
	OpenCounters func() (CounterSource, error)
	// CounterDelta, when not nil, turns two readings into the sample's
	// counts (it may drop counts it cannot trust); else after-before.
	CounterDelta func(before, after map[string]int64) map[string]int64
	// Probe, when not nil, measures what the CPU delivers (Probe) on the
	// pinned thread; it is called right before the first sample and right
	// after the last, so a workload measured while the CPU ran slow (a
	// governor, a busy host, a busy sibling hardware thread) can be told
	// from the others.
	Probe func() Probe
	// Progress, when not nil, is told what is being done.
	Progress func(Progress)
	// Stop, when closed, ends the run after the current sample.
	Stop <-chan struct{}
}

// CounterSource reads per-thread counters by event name.
type CounterSource interface {
	Read() (map[string]int64, error)
	Close() error
}

// Progress describes what the runner is doing, for a progress line.
type Progress struct {
	Workload string
	Index    int    // 0-based index of the workload
	Total    int    // number of workloads
	Phase    string // "warm-up", "calibration" or "sampling"
	Sample   int    // samples taken so far
	Samples  int    // samples to take
}

// Outcome is what running one workload produced.
type Outcome struct {
	Workload Workload
	Iters    int64 // iterations per sample
	Samples  []Sample
	// GCCycles counts the collections that ran on their own during
	// sampling, not the ones the runner forced between samples (see
	// collectIfLarge).
	GCCycles uint32
	ForcedGC uint32 // collections run between samples to bound the heap
	// AllocsPerOp and BytesPerOp come from one extra, untimed run of the
	// loop bracketed by runtime.ReadMemStats with nothing else inside, so
	// the runner's own bookkeeping (counter reads) is not counted.
	AllocsPerOp float64
	BytesPerOp  float64
	// Before and After are Probe's readings around the samples; zero when
	// not probed.
	Before, After Probe
	// Err is set when the workload failed; Samples holds what was taken.
	Err error
	// Interrupted is set when Stop ended the workload early.
	Interrupted bool
}

// Ops is the number of ops performed across all samples.
func (o Outcome) Ops() int64 {
	var n int64
	for _, s := range o.Samples {
		n += s.Iters
	}
	return n
}

// Run runs every workload in turn, each on its own freshly pinned thread
// after a full collection. It stops early when opts.Stop is closed; the
// outcomes of the workloads not reached are omitted.
func Run(ws []Workload, opts Options) []Outcome {
	var outs []Outcome
	for i, w := range ws {
		if Stopped(opts.Stop) {
			break
		}
		outs = append(outs, runOne(w, i, len(ws), opts))
		if outs[len(outs)-1].Interrupted {
			break
		}
	}
	return outs
}

// Stopped reports whether stop was closed; a nil channel never is.
func Stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

func runOne(w Workload, index, total int, opts Options) Outcome {
	out := Outcome{Workload: w}
	// A full collection first, so garbage of the previous workload is not
	// collected (or paid for) during this one.
	runtime.GC()
	err := Pinned(opts.CPU, opts.Isolate, func() error {
		b, err := newBench(w, index, total, opts)
		if err != nil {
			return err
		}
		defer b.close()
		if b.warmup() || b.calibrate() {
			out.Interrupted = true
			return nil
		}
		out.Iters = b.iters
		out.Before = probe(opts)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.sampling = true
		for i := range opts.Samples {
			if Stopped(opts.Stop) {
				out.Interrupted = true
				break
			}
			b.progress("sampling", i)
			s, err := b.sample()
			if err != nil {
				return err
			}
			out.Samples = append(out.Samples, s)
			b.collectIfLarge()
		}
		out.After = probe(opts)
		runtime.ReadMemStats(&after)
		out.ForcedGC = b.forcedGC
		out.GCCycles = after.NumGC - before.NumGC - b.forcedGC
		if len(out.Samples) > 0 {
			out.AllocsPerOp, out.BytesPerOp = b.measureAllocs()
		}
		return checkPin(out.Samples, opts.CPU)
	})
	out.Err = err
	return out
}

// probe measures the CPU when the options ask for it.
func probe(opts Options) Probe {
	if opts.Probe == nil {
		return Probe{}
	}
	return opts.Probe()
}

// checkPin fails a workload whose samples did not all end on cpu: the pin
// did not hold, so the numbers are from an unknown mix of CPUs.
func checkPin(samples []Sample, cpu int) error {
	for i, s := range samples {
		if s.CPU != cpu {
			return fmt.Errorf("pin did not hold: sample %d ended on cpu %d, pinned to cpu %d", i+1, s.CPU, cpu)
		}
	}
	return nil
}

// bench is one workload being measured on the pinned thread. Its methods
// are the phases of a measurement, so a comparison can interleave samples
// of several benches on one thread.
type bench struct {
	w            Workload
	opts         Options
	index, total int
	iters        int64
	counters     CounterSource
	restoreGC    func()
	// forcedGC counts the collections collectIfLarge ran; heapMark is the
	// cumulative heap allocation at the last one.
	forcedGC uint32
	heapMark uint64
	sampling bool // forced collections are counted only while sampling
}

// newBench prepares w on the calling (pinned) thread: setup, collector
// off unless opts.GC, counters opened.
func newBench(w Workload, index, total int, opts Options) (*bench, error) {
	if w.Loop == nil {
		return nil, fmt.Errorf("workload %s has no loop", w.Name)
	}
	b := &bench{w: w, opts: opts, index: index, total: total, restoreGC: func() {}, heapMark: heapAllocated()}
	if w.Setup != nil {
		w.Setup()
	}
	if !opts.GC {
		old := debug.SetGCPercent(-1)
		b.restoreGC = func() { debug.SetGCPercent(old) }
	}
	if opts.OpenCounters != nil {
		c, err := opts.OpenCounters()
		if err != nil {
			b.restoreGC()
			return nil, fmt.Errorf("open counters: %w", err)
		}
		b.counters = c
	}
	return b, nil
}

func (b *bench) close() {
	if b.counters != nil {
		b.counters.Close()
	}
	b.restoreGC()
}

func (b *bench) progress(phase string, sample int) {
	if b.opts.Progress != nil {
		b.opts.Progress(Progress{Workload: b.w.Name, Index: b.index, Total: b.total,
			Phase: phase, Sample: sample, Samples: b.opts.Samples})
	}
}

// maxHeapGrowth is how much a workload may allocate, with the collector
// off, before the runner collects between two timed runs. A workload that
// allocates 160 MB per op (concat/quadratic) would otherwise need gigabytes
// for one measurement; collecting outside the timed region keeps the
// collector out of the numbers and the process within memory.
const maxHeapGrowth = 512 << 20

// collectIfLarge runs a full collection, outside any timed region, when
// the workload has allocated more than maxHeapGrowth since the last one.
func (b *bench) collectIfLarge() {
	if b.opts.GC {
		return // the collector runs on its own
	}
	allocated := heapAllocated()
	if allocated-b.heapMark < maxHeapGrowth {
		return
	}
	runtime.GC()
	if b.sampling {
		b.forcedGC++
	}
	b.heapMark = heapAllocated()
}

// heapAllocated is the cumulative number of heap bytes allocated, read
// without stopping the world.
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// measureAllocs runs the loop once more for a sample's iterations, with
// only runtime.ReadMemStats around it, and returns heap allocations and
// bytes per op. After a stop request it runs a single op, so Ctrl-C is not
// kept waiting for one more full sample.
func (b *bench) measureAllocs() (allocs, bytes float64) {
	n := max(b.iters, 1)
	if Stopped(b.opts.Stop) {
		n = 1
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.w.Loop(int(n))
	runtime.ReadMemStats(&after)
	b.collectIfLarge()
	return float64(after.Mallocs-before.Mallocs) / float64(n), float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// timed runs n iterations of the loop and returns how long they took.
func (b *bench) timed(n int64) time.Duration {
	start := time.Now()
	b.w.Loop(int(n))
	return time.Since(start)
}

// warmupChunk is the longest single run during warm-up, so a stop request
// or the end of the warm-up time is noticed promptly.
const warmupChunk = 10 * time.Millisecond

// warmup runs the loop for opts.Warmup, in growing runs so the cost of
// reading the clock does not dominate. It reports whether Stop ended it.
func (b *bench) warmup() (interrupted bool) {
	b.progress("warm-up", 0)
	start := time.Now()
	n := int64(1)
	for {
		if Stopped(b.opts.Stop) {
			return true
		}
		left := b.opts.Warmup - time.Since(start)
		if left <= 0 {
			return false
		}
		d := b.timed(n)
		b.collectIfLarge()
		n = nextIters(n, d.Nanoseconds(), min(left, warmupChunk))
	}
}

// calibrate chooses the iterations per sample (or takes opts.Iters). It
// reports whether Stop ended it.
func (b *bench) calibrate() (interrupted bool) {
	if b.opts.Iters > 0 {
		b.iters = b.opts.Iters
		return false
	}
	b.progress("calibration", 0)
	target := SampleTarget(b.opts.SampleTime, b.opts.Clock.Granularity)
	run := func(n int64) time.Duration {
		if Stopped(b.opts.Stop) {
			return target // end calibration at once
		}
		d := b.timed(n)
		b.collectIfLarge()
		return d
	}
	b.iters = Calibrate(run, target)
	fastest := time.Duration(math.MaxInt64)
	for range confirmRuns {
		fastest = min(fastest, run(b.iters))
	}
	b.iters = Confirm(b.iters, fastest.Nanoseconds(), target)
	return Stopped(b.opts.Stop)
}

// sample takes one timed sample, with counters read just outside the
// timed region and the CPU read at its end.
func (b *bench) sample() (Sample, error) {
	// Go's sysmon preempts a goroutine that has run for 10 ms without
	// passing through the scheduler, and parking and waking a locked thread
	// takes microseconds. Yielding here, outside the timed region, restarts
	// that 10 ms, so samples shorter than it are never preempted.
	runtime.Gosched()
	var before map[string]int64
	if b.counters != nil {
		c, err := b.counters.Read()
		if err != nil {
			return Sample{}, fmt.Errorf("read counters: %w", err)
		}
		before = c
	}
	d := b.timed(b.iters)
	s := Sample{Iters: b.iters, Ns: d.Nanoseconds(), CPU: -1}
	if b.counters != nil {
		after, err := b.counters.Read()
		if err != nil {
			return Sample{}, fmt.Errorf("read counters: %w", err)
		}
		if b.opts.CounterDelta != nil {
			s.Counters = b.opts.CounterDelta(before, after)
		} else {
			s.Counters = delta(before, after)
		}
	}
	if cpu, err := CurrentCPU(); err == nil {
		s.CPU = cpu
	}
	return s, nil
}

// delta is after-before for every counter present in both.
func delta(before, after map[string]int64) map[string]int64 {
	d := make(map[string]int64, len(after))
	for k, a := range after {
		if b, ok := before[k]; ok {
			d[k] = a - b
		}
	}
	return d
}
