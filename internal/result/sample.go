package result

import "slices"

// Sample is one timed batch of iterations. Raw totals are kept; per-op
// values are derived, so nothing is lost to rounding.
type Sample struct {
	Iters int64 `json:"iters"`
	Ns    int64 `json:"ns"`
	// CPU is the CPU the measured thread was on at the end of the sample.
	CPU int `json:"cpu"`
	// Counters holds the change of each per-thread counter over the sample,
	// by event name (see the Counter* constants); absent when not counted.
	Counters map[string]int64 `json:"counters,omitempty"`
	// Process is the 0-based index of the process the sample was taken
	// in, when a measurement spans several processes (each its own heap
	// and layout, the unit of comparison); 0 for a single process.
	Process int `json:"process,omitempty"`
	// AllowedCPUs is the affinity a child process ran with, in the
	// kernel's list format ("2", "0-3"), for targets whose sample is a
	// run of a program; empty otherwise.
	AllowedCPUs string `json:"allowed_cpus,omitempty"`
	// Metrics are the per-op values a Go benchmark reported besides its
	// time (b.ReportMetric units, B/op, allocs/op), by unit.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Status says how such a run ended when it failed and the failure was
	// ignored: "exit 3", "signal SIGKILL"; empty when it succeeded.
	Status string `json:"status,omitempty"`
	// RefNs is the reference loop's time per iteration, in ns, timed on
	// the measured thread right after the sample (a few tens of µs of it):
	// the speed the core gave then. A host that takes a share of the core
	// for a stretch slows it, and the samples beside it; 0 when not timed.
	RefNs float64 `json:"ref_ns,omitempty"`
}

// NsPerOp is the sample's time per op; 0 when the sample has no iterations.
func (s Sample) NsPerOp() float64 {
	if s.Iters <= 0 {
		return 0
	}
	return float64(s.Ns) / float64(s.Iters)
}

// Counter names used in Sample.Counters. The perf_event names match
// `perf stat`; the fallbacks name their source.
const (
	CounterTaskClock       = "task-clock"       // ns the thread ran (perf)
	CounterContextSwitches = "context-switches" // perf software event
	CounterMigrations      = "cpu-migrations"   // perf software event
	CounterPageFaults      = "page-faults"      // perf software event
	CounterCycles          = "cycles"           // perf hardware event
	CounterInstructions    = "instructions"     // perf hardware event
	CounterRefCycles       = "ref-cycles"       // perf hardware event
	CounterBranchMisses    = "branch-misses"    // perf hardware event
	CounterVoluntaryCS     = "voluntary-cs"     // getrusage(RUSAGE_THREAD) ru_nvcsw
	CounterInvoluntaryCS   = "involuntary-cs"   // getrusage(RUSAGE_THREAD) ru_nivcsw
	CounterMinorFaults     = "minor-faults"     // getrusage(RUSAGE_THREAD) ru_minflt
	CounterNrMigrations    = "nr-migrations"    // /proc/thread-self/sched nr_migrations
	// CounterRunDelay is the time the thread was runnable but waited for
	// the CPU, another task having it (/proc/thread-self/schedstat's
	// run_delay): the time interference cost, apart from the thread's own
	// waits (a channel, a sleep, the collector).
	CounterRunDelay = "run-delay-ns"
	// CounterGCCycles and CounterGCCPU are the collections completed
	// during a sample with the collector on, and the CPU time the
	// collector spent in them on every thread (runtime/metrics
	// /gc/cycles/total and /cpu/classes/gc/total), in ns.
	CounterGCCycles = "gc-cycles"
	CounterGCCPU    = "gc-cpu-ns"
)

// CounterThreadCPU is the ns the measured thread was on the CPU, from its own CPU
// clock (CLOCK_THREAD_CPUTIME_ID): read where perf's task-clock, which
// counts the same, cannot be opened.
const CounterThreadCPU = "thread-cpu-ns"

// MinCleanSamples is the least number of samples an experiment's
// statistics keep once the slowed ones (Experiment.Slowed) are left out;
// with fewer, the slowed ones stay in.
const MinCleanSamples = 5

// CleanEnough reports whether, of n samples of which slowed were taken on
// a slowed core, enough are left to judge on the others alone: at least
// MinCleanSamples, and at least half.
func CleanEnough(n, slowed int) bool {
	clean := n - slowed
	return clean >= MinCleanSamples && 2*clean >= n
}

// WithoutSlowed is e as its statistics, its checks and a comparison of it
// see it: without the samples in e.Slowed when enough are left
// (CleanEnough), else e. The evidence that leaves a sample out is the
// speed check beside it, measured outside the code under test, never the
// sample's own time.
func (e Experiment) WithoutSlowed() Experiment {
	if len(e.Slowed) == 0 || !CleanEnough(len(e.Samples), len(e.Slowed)) {
		return e
	}
	clean := make([]Sample, 0, len(e.Samples)-len(e.Slowed))
	for i, s := range e.Samples {
		if _, slowed := slices.BinarySearch(e.Slowed, i); !slowed {
			clean = append(clean, s)
		}
	}
	e.Samples = clean
	return e
}
