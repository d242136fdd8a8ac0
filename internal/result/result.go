package result

import (
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
)

// SchemaVersion is the version of the JSON formats benchy writes: a
// result, and a comparison (KindComparison). It grows when a field of
// either changes meaning or is removed; adding a field does not change it.
const SchemaVersion = 1

// Result is everything one `benchy run` measured and knew. It is what the
// JSON file holds, and what every writer renders.
type Result struct {
	Schema  int      `json:"schema"`
	Tool    string   `json:"tool"`    // "benchy <version>"
	Command []string `json:"command"` // os.Args
	// Package is the Go package path of the program measured (the main
	// package of a program that registers its experiments, a test
	// package for gotest); empty when unknown.
	Package string    `json:"package,omitempty"`
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	// Interrupted is true when the run was stopped (Ctrl-C) before the end:
	// what was measured is kept, the rest is missing.
	Interrupted bool `json:"interrupted,omitempty"`
	// RoundsStop says why an interleaved comparison with looks
	// (Settings.Looks) took fewer rounds than planned: StopDecided or
	// StopBudget; empty when it took them all.
	RoundsStop string `json:"rounds_stop,omitempty"`

	CPU        int    `json:"cpu"`        // the CPU the measured thread was pinned to
	CPUChoice  string `json:"cpu_choice"` // why this CPU: "--cpu 2" or the chooser's reason
	GOMAXPROCS int    `json:"gomaxprocs"` // set explicitly before pinning

	Settings Settings `json:"settings"`
	Clock    Clock    `json:"clock"`

	// GOOS, GOARCH and GoVersion describe the benchy binary that measured
	// (runtime.GOOS, runtime.GOARCH, runtime.Version()); empty when unknown.
	GOOS      string `json:"goos,omitempty"`
	GOARCH    string `json:"goarch,omitempty"`
	GoVersion string `json:"go_version,omitempty"`
	// CPUModel and Governor describe the measured CPU (model name from
	// /proc/cpuinfo, scaling_governor), or "unknown: <reason>". They repeat
	// the snapshot so that the Go benchmark format can carry them.
	CPUModel string `json:"cpu_model,omitempty"`
	Governor string `json:"governor,omitempty"`

	// EffectiveClock is the clock the measured CPU ran at before and after
	// the samples. The findings use it; a file carries it so that
	// `benchy report` can recompute them from the file alone.
	EffectiveClock EffectiveClock `json:"effective_clock"`
	// MaxFreqHz is the highest clock the measured CPU may run at
	// (cpuinfo_max_freq), 0 when unknown; MaxFreqSource says where it came
	// from, or "unknown: <reason>".
	MaxFreqHz     float64 `json:"max_freq_hz,omitempty"`
	MaxFreqSource string  `json:"max_freq_source,omitempty"`
	// Counters says which per-sample counters were read and why the
	// others could not be.
	Counters CounterReport `json:"counters"`

	Before *machine.Snapshot `json:"machine_before,omitempty"`
	After  *machine.Snapshot `json:"machine_after,omitempty"`
	// BusyDuring is how busy every CPU was between the start and the end of
	// the measurement, from /proc/stat read before and after.
	BusyDuring []machine.CPUBusy `json:"busy_during,omitempty"`
	// Environment holds the machine checks for the pinned CPU.
	Environment []finding.Finding `json:"environment,omitempty"`
	// SpawnNs is what starting a process cost on the measured CPU (the
	// median of runs of an empty program), for experiments of whole
	// programs; 0 when not measured.
	SpawnNs float64 `json:"spawn_ns,omitempty"`
	// MemoryLimit is the soft memory limit (bytes) under which the
	// collector, though off, ran as a last resort; 0 for none. PeakRSS is
	// the most memory the process held (getrusage ru_maxrss), 0 when
	// unknown.
	MemoryLimit int64 `json:"memory_limit_bytes,omitempty"`
	PeakRSS     int64 `json:"peak_rss_bytes,omitempty"`
	// NotIsolated, when not empty, says why Go's other threads could not
	// be kept off the measured CPU although the settings asked for it.
	NotIsolated string `json:"not_isolated,omitempty"`
	// SharedCPU, when not empty, says another benchy process was
	// measuring on the same CPU (its advisory lock was held), or may have
	// been unseen (the lock could not be taken, and why).
	SharedCPU string `json:"shared_cpu,omitempty"`

	Experiments []Experiment `json:"experiments"`

	// Comparison holds, for an interleaved run (Settings.Compare), every
	// candidate judged against the baseline; derived by Analyze, and read
	// back as one comparison document (compare.RunDocument) by the writers.
	Comparison []Pair `json:"comparison,omitempty"`
	// ProfileDiffs are, for two revisions profiled (gotest --against
	// --profile), each benchmark's CPU profile of new less old's.
	ProfileDiffs []ProfileDiff `json:"profile_diffs,omitempty"`
	// Layouts says how the binaries were linked and what the layouts did
	// (gotest --layouts); absent without it.
	Layouts *Layouts `json:"layouts,omitempty"`

	// Summary counts the verdicts, for scripts; derived by Analyze.
	Summary *Counts `json:"summary,omitempty"`
	// Cause is the most likely cause of the doubts; derived by Analyze,
	// absent when every number is believable.
	Cause *Cause `json:"likely_cause,omitempty"`
}

// Cause names the reason shared by most of the experiments that are not
// believable or doubtful.
type Cause struct {
	Code string `json:"code"`
	// Text says what most likely went wrong and what to do; empty when
	// the registry has nothing to say of the code.
	Text        string   `json:"text,omitempty"`
	Experiments []string `json:"experiments"`
	// OtherReasons counts the other first reasons of the doubtful and
	// not believable experiments.
	OtherReasons int `json:"other_reasons,omitempty"`
}

// Counts is how many experiments got each verdict, and the codes that
// decided them, as the summary line says it.
type Counts struct {
	Believable    int      `json:"believable"`
	Doubtful      int      `json:"doubtful"`
	NotBelievable int      `json:"not_believable"`
	Reasons       []string `json:"reasons,omitempty"`
	Line          string   `json:"line"`
}

// Settings are the options the run was made with.
type Settings struct {
	Bench string `json:"bench"`
	// Shard is gotest's --shard I/N: the share of the benchmarks Bench
	// matches that this result holds ("" for all of them).
	Shard   string        `json:"shard,omitempty"`
	Samples int           `json:"samples"`
	Warmup  time.Duration `json:"warmup_ns"`
	// WarmupRuns, when > 0, is a number of untimed runs in place of a
	// warm-up time (a program run as a child).
	WarmupRuns int           `json:"warmup_runs,omitempty"`
	SampleTime time.Duration `json:"sample_time_ns"`
	Iters      int64         `json:"iters,omitempty"` // fixed iterations per sample, 0 = calibrated
	GC         bool          `json:"gc"`              // collector left on during samples
	Isolate    bool          `json:"isolate"`         // other threads kept off the measured CPU
	Smoke      bool          `json:"smoke,omitempty"`
	// Latency says every op was a call timed alone (--latency): the
	// samples' times include the timing, and each experiment's Latency
	// holds the calls.
	Latency bool `json:"latency,omitempty"`
	// Percentile is the percentile of the single calls a comparison with
	// --latency judges (0.99 for p99); 0 otherwise.
	Percentile float64 `json:"percentile,omitempty"`
	// Rate, when > 0, is --rate: the calls per second of an open loop
	// (Latency.Rate holds what it measured).
	Rate   float64       `json:"rate_per_second,omitempty"`
	Window time.Duration `json:"window_ns"` // busy window of the header snapshot
	// Compare names the experiments of an interleaved comparison, the
	// baseline first (--compare); Threshold is the smallest relative
	// change claimed as a difference there.
	Compare   []string `json:"compare,omitempty"`
	Threshold float64  `json:"threshold,omitempty"`
	// TargetCI, when > 0, is the precision asked (--target-ci): sampling
	// went on until the 95% interval of the median was within ±TargetCI,
	// or the samples of an experiment had lasted MaxTime.
	TargetCI float64       `json:"target_ci,omitempty"`
	MaxTime  time.Duration `json:"max_time_ns,omitempty"`
	// Looks are, for an interleaved comparison that may stop early, the
	// round counts it is judged at (Samples the last); RoundsBudget is the
	// wall time from the start of the run after which the rounds stop at
	// the end of the round they are in. Both
	// empty for a comparison that takes all its rounds.
	Looks        []int         `json:"looks,omitempty"`
	RoundsBudget time.Duration `json:"rounds_budget_ns,omitempty"`
	// RoundSeed is the seed each round of an interleaved comparison drew
	// its order from (harness.RoundOrders): rounds in a fixed order line
	// up with anything periodic on the machine. Absent where the rounds
	// took the design's rows in turn (gotest --against's few processes,
	// where balance matters more).
	RoundSeed uint64 `json:"round_seed,omitempty"`
}

// Clock describes time.Now as measured at the start of the run.
type Clock struct {
	NowCostNs     float64 `json:"now_cost_ns"`    // mean cost of one time.Now call
	GranularityNs float64 `json:"granularity_ns"` // smallest non-zero step seen
}

// EffectiveClock is the measured CPU's clock around the run. A value of 0
// means unknown; Source says how it was measured ("cycles counter",
// "scaling_cur_freq", "dependent-add chain") or "unknown: <reason>".
type EffectiveClock struct {
	BeforeHz float64 `json:"before_hz"`
	AfterHz  float64 `json:"after_hz"`
	Source   string  `json:"source"`
}

// Kinds of experiments: what one op of a sample is.
const (
	KindLoop      = ""          // a Go loop in benchy's process (run)
	KindProcess   = "process"   // a whole program, one run an op (exec)
	KindBenchmark = "benchmark" // a Go testing.B benchmark, in its test binary (gotest)
)

// Info is what an experiment says of itself before it is measured: the
// fields of Experiment that a target declares.
type Info struct {
	Kind        string
	Name        string
	Description string
	Units       float64 // units of work per op
	Unit        string  // what one unit is
	FloorCycles float64 // least cycles per unit on any core; 0 for DefaultFloorCycles
	ReadsMemory bool    // the work reads its input from memory
	// GOMAXPROCS is what the experiment's process ran with, when that is
	// not benchy's own (a gotest benchmark's test binary); 0 otherwise.
	GOMAXPROCS int
	// Side and Layout are Experiment's.
	Side   string
	Layout int
}

// NewExperiment starts the record of the experiment info describes, with
// the floor made explicit and no samples yet.
func NewExperiment(info Info) Experiment {
	return Experiment{
		Kind: info.Kind, Name: info.Name, Side: info.Side, Layout: info.Layout, Description: info.Description, Units: info.Units, Unit: info.Unit,
		FloorCycles: Floor(info.FloorCycles), ReadsMemory: info.ReadsMemory,
		GOMAXPROCS: info.GOMAXPROCS, Samples: []Sample{},
	}
}

// Experiment is one workload's result.
type Experiment struct {
	// Kind says what was measured: a loop (empty) or a whole process.
	Kind string `json:"kind,omitempty"`
	Name string `json:"name"`
	// Side is which build of an interleaved run of several builds
	// measured the experiment: SideOld or SideNew (gotest --against),
	// SideGood, SideBad or SideMid (a step of bisect); "" in a run of one
	// build. Name is the benchmark's own on every side.
	Side string `json:"side,omitempty"`
	// Layout is which link of its build measured the experiment (gotest
	// --layouts), 0 for the first: the experiments of the later layouts
	// are merged into the first's before a result is written.
	Layout      int     `json:"layout,omitempty"`
	Description string  `json:"description"`
	Units       float64 `json:"units"`        // units of work per op
	Unit        string  `json:"unit"`         // what one unit is
	FloorCycles float64 `json:"floor_cycles"` // least cycles per unit on any core
	ReadsMemory bool    `json:"reads_memory,omitempty"`
	// GOMAXPROCS is what the experiment's own process ran with (a gotest
	// benchmark's test binary: 1 for one pinned to its CPU, more for one
	// that runs b.RunParallel), 0 when it ran in benchy's, whose
	// Result.GOMAXPROCS says.
	GOMAXPROCS int `json:"gomaxprocs,omitempty"`

	// Error is set when the workload failed (panicked, pin did not hold);
	// then Samples may be empty.
	Error string `json:"error,omitempty"`

	// Clock is the CPU's clock measured on the pinned thread right before
	// the first sample and right after the last (dependent-add chain);
	// absent when not measured.
	Clock *EffectiveClock `json:"clock,omitempty"`
	// Reference is how fast a fixed reference loop ran on the pinned thread
	// right before the first sample and right after the last; absent when
	// not measured. Unlike the clock it also slows when another hardware
	// thread shares the core.
	Reference *Reference `json:"reference,omitempty"`

	Iters   int64    `json:"iters_per_sample"`
	Samples []Sample `json:"samples"`
	// CPU is the CPU the samples were taken on when it is not the run's
	// (Result.CPU): an experiment measured again elsewhere (Attempts), or
	// measured after the run moved to another CPU. Result.CPUOf reads it.
	CPU *int `json:"cpu,omitempty"`
	// Attempts are the earlier measurements of an experiment measured
	// again because a slowed core touched too many of their samples, in
	// the order taken; the samples above are the attempt judged, the one
	// the core slowed least.
	Attempts []Attempt `json:"attempts,omitempty"`
	GC       GCStats   `json:"gc"`
	// Count is the instructions counted per op (--measure instructions),
	// beside the time of the samples; absent when not counted.
	Count *Count `json:"count,omitempty"`
	// Profile is what --profile recorded of the measured calls; absent
	// without it.
	Profile *Profile `json:"profile,omitempty"`
	// Latency is what --latency recorded of the single calls; absent
	// without it.
	Latency *Latency `json:"latency,omitempty"`

	// Stats, Series, Disturbed, Findings and Verdict are derived from the
	// fields above (and the run's clock and machine); `benchy report`
	// recomputes them.
	Stats Stats `json:"stats"`
	// Reported is, by unit, the median over the samples of Stats of each
	// per-op value a Go benchmark reported of itself: MB/s (b.SetBytes),
	// b.ReportMetric's units, and its own ns/op where it reported one
	// (UnitOwnNs), which go test prints in place of the loop's time.
	// Absent when the benchmark reported nothing.
	Reported map[string]float64 `json:"reported,omitempty"`
	// AtGoTestSettings is the time per op of the same benchmark measured
	// again as go test -bench runs it on the machine (unpinned, at the
	// GOMAXPROCS of every CPU), when its samples collected in most calls:
	// then the collector's cost depends on those settings. Absent
	// otherwise.
	AtGoTestSettings *AtSettings `json:"at_go_test_settings,omitempty"`
	// Series is the shape of the samples in run order; absent before the
	// analysis.
	Series *Series `json:"series,omitempty"`
	// Disturbed lists the samples (indices into Samples) in which another
	// task took the CPU: by their time off it where the samples have
	// on-CPU time, else by a context switch; and any sample that ended on
	// another CPU. Empty when none was; null when nothing could tell.
	Disturbed []int `json:"disturbed"`
	// Slowed lists the samples (indices into Samples) taken while the core
	// ran the reference loop well below its best in the run (a speed
	// check beside each sample: Sample.RefNs): the host or a sibling
	// hardware thread took a share of the core. Nil when no sample was
	// checked.
	Slowed   []int             `json:"slowed,omitempty"`
	Findings []finding.Finding `json:"findings,omitempty"`
	Verdict  string            `json:"verdict,omitempty"`
	// Reasons are the codes of the findings that decided the verdict.
	Reasons []string `json:"reasons,omitempty"`
}

// Reference is the reference loop's median ns per iteration around an
// experiment (harness.ReferenceLoopNs).
type Reference struct {
	BeforeNs float64 `json:"before_ns"`
	AfterNs  float64 `json:"after_ns"`
}

// Attempt is one earlier measurement of an experiment (Experiment.Attempts).
type Attempt struct {
	CPU       int        `json:"cpu"`
	Iters     int64      `json:"iters_per_sample"`
	Samples   []Sample   `json:"samples"`
	Reference *Reference `json:"reference,omitempty"`
	// Clock is the clock measured right before and after the attempt's
	// samples, as Experiment.Clock: a clock the run sustained may have
	// been read around an attempt that was not kept.
	Clock *EffectiveClock `json:"clock,omitempty"`
	// Slowed lists the samples a slowed core touched, as Experiment.Slowed.
	Slowed []int `json:"slowed,omitempty"`
}

// Experiment is the attempt as an experiment of no name: its samples and
// what was measured around them, which the checks of the machine judge.
func (a Attempt) Experiment() Experiment {
	return Experiment{Iters: a.Iters, Samples: a.Samples, Reference: a.Reference, Clock: a.Clock, Slowed: a.Slowed}
}

// GCStats is measured around the whole sampling phase, outside timing.
type GCStats struct {
	Cycles      uint32  `json:"cycles"`           // GC cycles completed while sampling
	Forced      uint32  `json:"forced,omitempty"` // collections run between samples to bound the heap
	AllocsPerOp float64 `json:"allocs_per_op"`    // heap allocations per op
	BytesPerOp  float64 `json:"bytes_per_op"`     // heap bytes per op
}

// Stats is the distribution of ns/op over the samples; see
// docs/statistics.md for each definition.
type Stats struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	MAD    float64 `json:"mad"`
	// OnCPUMedian is the median on-CPU time per op of the same samples
	// (the thread's, or the child's, CPU time), 0 when not measured: a
	// median far from it was spent off the CPU, or waiting.
	OnCPUMedian float64 `json:"on_cpu_median,omitempty"`
}

// AtSettings is a benchmark measured at other settings than the run's.
type AtSettings struct {
	GOMAXPROCS int `json:"gomaxprocs"`
	// NsPerOp is each call's time per op, at the run's N.
	NsPerOp []float64 `json:"ns_per_op"`
	// Median is derived from NsPerOp.
	Median float64 `json:"median"`
}

// UnitOwnNs is the unit of a benchmark's own time per op
// (b.ReportMetric(x, "ns/op")): go test prints it in place of the time of
// the loop, which benchy measures and judges.
const UnitOwnNs = "ns/op"

// The sides of an interleaved run of several builds (Experiment.Side):
// the two revisions of gotest --against, and the three builds of a step
// of bisect (GOOD, BAD, and the commit the step measures).
const (
	SideOld  = "old"
	SideNew  = "new"
	SideGood = "good"
	SideBad  = "bad"
	SideMid  = "mid"
)

// Label is how a person tells e from the other experiments of its run:
// its name, after its side when it has one ("old Work").
func (e *Experiment) Label() string { return SideLabel(e.Side, e.Name) }

// SideLabel is the one way a side and a name are written together:
// "old Work", or the name alone without a side.
func SideLabel(side, name string) string {
	if side == "" {
		return name
	}
	return side + " " + name
}

// Find is r's experiment named name, or nil.
func (r *Result) Find(name string) *Experiment {
	return r.FindSide("", name)
}

// FindSide is r's experiment named name measured on side, or nil.
func (r *Result) FindSide(side, name string) *Experiment {
	for i := range r.Experiments {
		if e := &r.Experiments[i]; e.Name == name && e.Side == side {
			return e
		}
	}
	return nil
}

// CPUOf is the CPU e's samples were pinned to: its own CPU when it was
// measured elsewhere than the run's (measured again, or after the run
// moved), else the run's.
func (r *Result) CPUOf(e Experiment) int {
	if e.CPU != nil {
		return *e.CPU
	}
	return r.CPU
}
