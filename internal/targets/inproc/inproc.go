// Package inproc measures a Go loop in this process: the first kind of
// harness.Target. The loop runs on the harness's pinned thread with the
// collector off (unless asked), per-thread counters read just outside every
// sample, and the heap kept bounded by collections between samples.
package inproc

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/result"
)

// Options say how to run a workload.
type Options struct {
	// GC leaves the collector on while measuring.
	GC bool
	// Count opens the thread's counters (counters.Open) on the pinned
	// thread in Open: they are read before and after every sample, and
	// the report says what they count.
	Count bool
	// OpenCounters, when not nil, opens the counters in place of
	// counters.Open (a test's own source).
	OpenCounters func() (counters.Source, result.CounterReport)
	// CountArgs, when not nil, is the command line that runs the
	// experiment named name at n ops in a process of its own
	// (CountCommand).
	CountArgs func(name string, n int64) ([]string, error)
	// MemoryBudget is how many bytes this process may use (its cgroup
	// limit, or the RAM; sysread.MemoryBudget), 0 when unknown. With the
	// collector off the heap is kept well inside it (see HeapGrowth and
	// MemoryLimit).
	MemoryBudget int64
	// Profile, when not nil, profiles the measured calls (--profile).
	Profile *profiles.Recorder
	// Latency times every op alone, through the workload's Call, and
	// keeps the calls' times (run --latency; see latency.go).
	Latency bool
	// Rate, when > 0, is the calls per second of an open loop (run
	// --rate, with Latency): each call starts at its intended time and is
	// timed from it too.
	Rate float64
}

// HeapGrowth is how much a workload may allocate, with the collector off,
// before the target collects between two timed runs: a sixteenth of the
// memory budget, between 32 and 256 MiB (256 MiB when the budget is
// unknown). A workload that allocates 160 MB per op (concat/quadratic)
// would otherwise need gigabytes for one measurement, and a CI container
// of 512 MB would kill the run; collecting outside the timed region keeps
// the collector out of the numbers and the process within memory.
func (o Options) HeapGrowth() uint64 {
	if o.MemoryBudget <= 0 {
		return 256 << 20
	}
	return uint64(min(max(o.MemoryBudget/16, 32<<20), 256<<20))
}

// MemoryLimit is the soft limit (debug.SetMemoryLimit) set while the
// collector is off: half the memory budget, so that a single sample that
// allocates more than the process may hold (concat/quadratic at a sample
// time of seconds) makes the collector run inside it as a last resort,
// rather than the kernel killing the run; 0 when the budget is unknown.
func (o Options) MemoryLimit() int64 { return o.MemoryBudget / 2 }

// Target is one workload measured in process. Its methods are the phases
// the harness calls, all on the pinned thread.
type Target struct {
	w        Workload
	opts     Options
	counters counters.Source
	report   result.CounterReport
	// restoreGC puts the collector back as Open found it.
	restoreGC func()
	// iters is the iteration count of the samples, for measuring
	// allocations at the end; samples counts them.
	iters   int64
	samples int
	totals  harness.Totals
	// heapMark is the cumulative heap allocation at the last forced
	// collection (see between).
	heapMark uint64
	prof     profiled
	// calls is what --latency keeps; nil without it.
	calls *calls
	// nsPerOp is the time per iteration of the last timed run, from
	// which a sample is cut into chunks (chunkTime); 0 before any.
	nsPerOp float64
}

// New returns the target that measures w.
func New(w Workload, opts Options) *Target {
	return &Target{w: w, opts: opts, restoreGC: func() {}}
}

// Name is the workload's name.
func (t *Target) Name() string { return t.w.Name }

// Info is what the workload declares of itself.
func (t *Target) Info() result.Info {
	w := t.w
	return result.Info{Name: w.Name, Description: w.Description, Units: w.Units, Unit: w.Unit,
		FloorCycles: w.FloorCycles, ReadsMemory: w.ReadsMemory}
}

// Open runs the setup, turns the collector off unless Options.GC, and
// opens the counters.
func (t *Target) Open() error {
	if t.w.Loop == nil {
		return fmt.Errorf("workload %s has no loop", t.w.Name)
	}
	t.heapMark = heapAllocated()
	if t.w.Setup != nil {
		t.w.Setup()
	}
	if t.opts.Latency {
		if err := t.openCalls(); err != nil {
			return err
		}
	}
	if !t.opts.GC {
		old := debug.SetGCPercent(-1)
		oldLimit := debug.SetMemoryLimit(-1)
		if limit := t.opts.MemoryLimit(); limit > 0 {
			debug.SetMemoryLimit(limit)
		}
		t.restoreGC = func() {
			debug.SetGCPercent(old)
			debug.SetMemoryLimit(oldLimit)
		}
	}
	switch {
	case t.opts.OpenCounters != nil:
		t.counters, t.report = t.opts.OpenCounters()
	case t.opts.Count:
		t.counters, t.report = counters.Open()
	}
	return nil
}

// Counters says which counters Open opened and why the others could not
// be; empty before Open.
func (t *Target) Counters() result.CounterReport { return t.report }

// Check reads the machine code of the loop and judges it (see
// codeFindings). A closure is found from its function value like a
// named function.
func (t *Target) Check() []finding.Finding {
	l, err := asm.Inspect(t.w.Loop)
	var s asm.Summary
	if err == nil {
		s = l.Summary()
	}
	return codeFindings(s, err, t.w.ReadsMemory)
}

// Time runs n iterations and returns how long they took, then collects
// garbage if the heap grew large (not counted: nothing is recorded yet).
// With --latency the iterations are calls timed one by one, as in the
// samples, and not recorded.
func (t *Target) Time(n int64) (time.Duration, error) {
	var d time.Duration
	if t.calls != nil {
		d = t.timedCalls(n, false)
	} else {
		d = t.timed(n)
	}
	t.collectIfLarge(false)
	return d, nil
}

// timed runs n iterations of the loop and returns how long they took;
// with --latency, n calls timed and recorded one by one.
func (t *Target) timed(n int64) time.Duration {
	if t.calls != nil {
		return t.timedCalls(n, true)
	}
	start := time.Now()
	t.w.Loop(int(n))
	d := time.Since(start)
	if n > 0 && d > 0 {
		t.nsPerOp = float64(d.Nanoseconds()) / float64(n)
	}
	return d
}

// Go's sysmon preempts a goroutine that has run for 10 ms without
// passing through the scheduler, and a locked thread preempted parks until
// another thread hands its goroutine back: one voluntary switch and 150-200
// µs off the CPU, inside the sample, in one sample of two at the default
// --sample-time (10 ms, 10.7 ms calibrated: 28 of 60 samples had a
// voluntary switch; at 6.2 ms, 4 of 60). So a sample runs in chunks of at
// most chunkTime, each timed with its counters read around it, and yields
// (runtime.Gosched) before each, outside the timed region: the 10 ms
// restart, and no chunk is preempted. A chunk boundary costs two counter
// reads and a yield, none of it timed.
const chunkTime = 8 * time.Millisecond

// chunks is how many chunks a sample of n iterations runs in: enough that
// each lasts at most chunkTime at the last time per iteration measured.
func (t *Target) chunks(n int64) int64 {
	if t.calls != nil || t.nsPerOp <= 0 || n <= 1 {
		return 1 // calls timed one by one keep their windows whole
	}
	k := int64(math.Ceil(float64(n) * t.nsPerOp / float64(chunkTime.Nanoseconds())))
	return min(max(k, 1), n)
}

// Sample takes one timed sample, in chunks (chunkTime), with counters
// read just outside each timed chunk and the CPU read at its end.
func (t *Target) Sample(n int64) ([]result.Sample, error) {
	t.beginProfile()
	var d time.Duration
	var deltas map[string]int64
	cycles, gcCPU := profiles.Collections(), gcCPUSeconds()
	k := t.chunks(n)
	for c := range k {
		runtime.Gosched()
		var before map[string]int64
		if t.counters != nil {
			b, err := t.counters.Read()
			if err != nil {
				return nil, fmt.Errorf("read counters: %w", err)
			}
			before = b
		}
		d += t.measured(n/k + boolInt(c < n%k))
		if t.counters != nil {
			after, err := t.counters.Read()
			if err != nil {
				return nil, fmt.Errorf("read counters: %w", err)
			}
			deltas = sumDeltas(deltas, counters.Delta(before, after), c == 0) // Delta drops counts it cannot trust
		}
	}
	cyclesAfter, gcCPUAfter := profiles.Collections(), gcCPUSeconds()
	s := result.Sample{Iters: n, Ns: d.Nanoseconds(), CPU: -1, Counters: deltas}
	if t.opts.GC {
		// The collections a sample paid for explain its time: a sample
		// with one is slower for that reason, not for the code's.
		if s.Counters == nil {
			s.Counters = map[string]int64{}
		}
		s.Counters[result.CounterGCCycles] = int64(cyclesAfter - cycles)
		s.Counters[result.CounterGCCPU] = int64((gcCPUAfter - gcCPU) * 1e9)
	}
	if cpu, err := harness.CurrentCPU(); err == nil {
		s.CPU = cpu
	}
	t.totals.GCCycles += uint32(cyclesAfter - cycles)
	if t.calls != nil {
		// A window of calls beside the collections that completed in it,
		// so a slow call can be laid beside them.
		gc := uint32(cyclesAfter - cycles)
		t.calls.windows = append(t.calls.windows, result.LatencyWindow{Calls: uint64(n), MaxNs: t.calls.slowest, GCCycles: gc, LagNs: t.calls.lag})
		t.calls.gcCycles += gc
		if err := t.calls.keepingUp(); err != nil {
			return nil, err
		}
	}
	t.iters = n
	t.samples++
	return []result.Sample{s}, nil
}

// sumDeltas adds the counts of one chunk, d, to sum; a count missing from
// any chunk (one Delta could not trust) is missing from the sum.
func sumDeltas(sum, d map[string]int64, first bool) map[string]int64 {
	if first {
		return d
	}
	for k := range sum {
		v, ok := d[k]
		if !ok {
			delete(sum, k)
			continue
		}
		sum[k] += v
	}
	return sum
}

// boolInt is 1 for true.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Between collects garbage, outside any timed region, when the heap grew
// large since the last collection.
func (t *Target) Between() { t.collectIfLarge(true) }

// Close measures the allocations per op (one op only when stopped, none
// when the samples failed), puts the collector back and closes the
// counters.
func (t *Target) Close(end harness.End) harness.Totals {
	t.endProfile()
	if t.samples > 0 && end != harness.EndFailed {
		t.totals.AllocsPerOp, t.totals.BytesPerOp = t.measureAllocs(end == harness.EndStopped)
		t.totals.AllocsMeasured = true
	}
	if t.counters != nil {
		t.counters.Close()
	}
	t.restoreGC()
	return t.totals
}

// collectIfLarge runs a full collection, outside any timed region, when
// the workload has allocated more than HeapGrowth since the last one;
// counted says it is one of the collections between samples.
func (t *Target) collectIfLarge(counted bool) {
	if t.opts.GC {
		return // the collector runs on its own
	}
	if heapAllocated()-t.heapMark < t.opts.HeapGrowth() {
		return
	}
	runtime.GC()
	if counted {
		t.totals.ForcedGC++
	}
	t.heapMark = heapAllocated()
}

// measureAllocs runs the loop once more for a sample's iterations, with
// only runtime.ReadMemStats around it, and returns heap allocations and
// bytes per op: the counter reads of the samples allocate, so they are
// not counted there. After a stop request it runs a single op, so Ctrl-C
// is not kept waiting for one more full sample.
func (t *Target) measureAllocs(stopped bool) (allocs, bytes float64) {
	n := max(t.iters, 1)
	if stopped {
		n = 1
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	t.w.Loop(int(n))
	runtime.ReadMemStats(&after)
	t.collectIfLarge(false)
	return float64(after.Mallocs-before.Mallocs) / float64(n), float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// readUint64 reads one cumulative runtime metric without stopping the
// world; 0 when the runtime does not have it.
func readUint64(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// heapAllocated is the cumulative number of heap bytes allocated.
func heapAllocated() uint64 { return readUint64("/gc/heap/allocs:bytes") }

// gcCPUSeconds is the CPU time the collector has spent, on every thread
// (an estimate the runtime keeps; it includes the assists of allocating
// goroutines); 0 when the runtime does not have it.
func gcCPUSeconds() float64 {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0
	}
	return s[0].Value.Float64()
}

// codeFindings judges the machine code of an experiment's measured loop:
// the asm line says what the loop does, and an experiment that reads its
// input from memory (readsMemory) but whose loop loads nothing has lost
// its work, whatever the time says. err is why the code could not be read.
func codeFindings(s asm.Summary, err error, readsMemory bool) []finding.Finding {
	if err != nil {
		return []finding.Finding{{Code: result.CodeAsmUnknown, Severity: finding.Info,
			Message: "could not read the machine code of the loop: " + err.Error()}}
	}
	fs := []finding.Finding{{Code: result.CodeAsm, Severity: finding.Info, Message: s.Line}}
	if readsMemory && !s.LoopLoads {
		fs = append(fs, finding.Finding{Code: result.CodeNoLoadInLoop, Severity: finding.Warn,
			Message:  "the workload reads its input from memory, but its measured loop has no memory load: the work was removed, whatever the time says",
			Evidence: map[string]any{"summary": s.Line}})
	}
	return fs
}
