package cli

import (
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
	"github.com/benchy-dev/benchy/internal/units"
)

// runOptions are the flags of `benchy run`.
type runOptions struct {
	g *GlobalOptions
	OutputOptions
	PrecisionOptions
	ProfileOptions

	CPUOptions
	Bench         string
	Samples       int
	Warmup        time.Duration
	SampleTime    time.Duration
	Iters         int64
	GC            bool
	NoIsolate     bool
	NoAsm         bool
	Smoke         bool
	Latency       bool   // time every call alone (--latency)
	Rate          string // an open loop of this many calls a second (--rate N/s)
	rate          float64
	Remeasure     int    // more attempts for an experiment a slowed core touched (--remeasure)
	Percentile    string // the percentile of single calls a comparison judges (--percentile)
	percentile    float64
	percentileSet bool
	Processes     int    // run benchy this many times and merge (--processes)
	GOMAXPROCS    int    // what the experiments run at (--gomaxprocs)
	ChildSpec     string // measure as one process of --processes (hidden)
	Compare       string // "A,B[,C...]": interleaved comparison
	ThresholdOption
	benchSet   bool // --bench was given
	compareSet bool // --compare was given
	looks      bool // --compare with the default rounds: they may stop early
	count      CountOptions

	// Stop ends the run after the current sample (a stop signal);
	// Progress, when not nil, receives a progress line (a terminal's
	// stderr).
	Measuring
}

// maxRemeasure bounds --remeasure: each attempt costs an experiment's time.
const maxRemeasure = 10

// MaxGOMAXPROCS bounds --gomaxprocs (run's and gotest's): every P costs
// memory, and no machine benchy measures on has more CPUs.
const MaxGOMAXPROCS = 1024

// Smoke settings: every experiment, 3 short samples, so CI learns in
// seconds that benchy and the experiments still work. Not for numbers.
const (
	smokeSamples    = 3
	smokeSampleTime = time.Millisecond
	smokeWarmup     = 2 * time.Millisecond
	smokeWindow     = 100 * time.Millisecond
)

func init() {
	commands = append(commands, func(g *GlobalOptions) *cobra.Command { return newRunCmd(g, nil) })
}

// newRunCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newRunCmd(g *GlobalOptions, runF func(*runOptions) error) *cobra.Command {
	opts := &runOptions{g: g}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Measure the experiments pinned to one CPU, and say what to believe",
		Long: `run measures each experiment on one CPU: it pins the measured thread,
keeps Go's other threads off that CPU, warms up, calibrates the iterations
per sample and takes many samples (the collector runs, as in any Go
program; --gc off leaves it out). It prints the state of the machine in
three lines, min/median/p90/max per op with a verdict for each experiment,
and the most likely cause of any doubt; -v prints everything behind the
verdicts. --compare measures experiments in interleaved rounds and says
whether B is faster than A.`,
		Example: `  benchy run                                 # every experiment
  benchy run --bench '^sum/' --samples 51      # some, with more samples
  benchy run --compare concat/quadratic,concat/builder   # is B faster than A?
  benchy run --out result.json && benchy report result.json -v
  benchy run --smoke --strict                 # CI: does it still work?`,
		Args: func(cmd *cobra.Command, args []string) error {
			return noArgs(cmd, StrictArgs(cmd, &opts.Strict, args, g.Args))
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.benchSet = cmd.Flags().Changed("bench")
			opts.compareSet = cmd.Flags().Changed("compare")
			opts.percentileSet = cmd.Flags().Changed("percentile")
			if opts.compareSet && !opts.Smoke && !cmd.Flags().Changed("samples") {
				opts.Samples = compare.DefaultRounds
				opts.looks = true
			}
			if opts.Smoke {
				for flag, set := range map[string]func(){
					"samples":     func() { opts.Samples = smokeSamples },
					"sample-time": func() { opts.SampleTime = smokeSampleTime },
					"warmup":      func() { opts.Warmup = smokeWarmup },
					"window":      func() { opts.Window = smokeWindow },
				} {
					if !cmd.Flags().Changed(flag) {
						set()
					}
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return Measure(cmd, g, &opts.OutputOptions, &opts.PrecisionOptions, &opts.Measuring, func(w *Watcher) error {
				return runRun(opts, g.Stdout, w)
			})
		},
	}
	f := cmd.Flags()
	opts.CPUOptions.Bind(f, "the measured thread")
	f.StringVar(&opts.Bench, "bench", ".", "run the experiments whose name matches `REGEXP`")
	IntFlag(f, &opts.Samples, "samples", 31, "samples per experiment, 1-100000, in total over --processes (with --compare: rounds, default "+strconv.Itoa(compare.DefaultRounds)+")")
	f.DurationVar(&opts.Warmup, "warmup", 100*time.Millisecond, "warm-up time per experiment, at most 10m")
	f.DurationVar(&opts.SampleTime, "sample-time", 10*time.Millisecond, "least duration of one sample, at most 10s")
	IntFlag(f, &opts.Iters, "iters", 0, "fixed iterations per sample (default: calibrated)")
	f.Lookup("iters").DefValue = ""
	onOffFlag(f, &opts.GC, "gc", true, "the garbage collector while measuring: on, as a Go program runs, or off to leave out collecting the garbage")
	f.BoolVar(&opts.NoIsolate, "no-isolate", false, "let Go's other threads run on the measured CPU")
	f.BoolVar(&opts.NoAsm, "no-asm", false, "do not check the machine code of each measured loop")
	f.BoolVar(&opts.Latency, "latency", false, "time every call alone, for the experiments with a Call: p50, p90, p99, p99.9 and the max, each with its interval")
	f.StringVar(&opts.Rate, "rate", "", "with --latency: start the calls at a fixed `N/s` (an open loop, e.g. 1000/s) and time each from its intended start too, so the calls delayed behind a slow one count their wait")
	f.StringVar(&opts.Percentile, "percentile", "p99", "with --latency and --compare: the percentile of the single calls judged beside the medians, p50 to p99.9")
	IntFlag(f, &opts.Remeasure, "remeasure", 2, "measure an experiment again, up to `N` more times (0-10), on the fastest free CPU, when the host slowed the core under more than a third of its samples or through all of it")
	f.BoolVar(&opts.Smoke, "smoke", false, "quick check for CI: 3 samples of ~1ms, numbers not to be trusted")
	opts.PrecisionOptions.Bind(f)
	IntFlag(f, &opts.GOMAXPROCS, "gomaxprocs", 1, "measure at GOMAXPROCS `N`: 1, as taskset -c CPU go test runs a benchmark (goroutines an experiment starts take turns on the measured CPU), or more for code that runs goroutines in parallel (their threads run off the measured CPU)")
	IntFlag(f, &opts.Processes, "processes", 1, "spread the samples over `K` runs of benchy, one after another, merged (each process its own heap and layout)")
	f.StringVar(&opts.ChildSpec, "child-spec", "", "measure what `FILE` says, as one process of --processes")
	f.MarkHidden("child-spec")
	opts.OutputOptions.Bind(cmd, g, render.Formats, true)
	opts.ProfileOptions.Bind(f)
	f.StringVar(&opts.Compare, "compare", "", "compare experiments `A,B[,C...]` in interleaved rounds, A the baseline")
	opts.ThresholdOption.Bind(f, units.Percent(compare.DefaultFloor), "with --compare: smallest change claimed as a difference (`PCT`); the run raises it to how far the ratio drifted")
	opts.count.Bind(f)
	_ = cmd.RegisterFlagCompletionFunc("bench", completeExperiments(g))
	_ = cmd.RegisterFlagCompletionFunc("compare", completeCompare(g))
	return cmd
}

// validate checks every flag before anything is measured.
func (o *runOptions) validate() (*regexp.Regexp, error) {
	if err := o.validateAmounts(); err != nil {
		return nil, err
	}
	if err := o.CPUOptions.Validate(); err != nil {
		return nil, err
	}
	if err := o.ThresholdOption.Validate(); err != nil {
		return nil, err
	}
	re, err := o.validateSelection()
	if err != nil {
		return nil, err
	}
	if err := CheckLive(o.g, "run"); err != nil {
		return nil, err
	}
	if err := o.count.Validate(); err != nil {
		return nil, err
	}
	if err := o.ProfileOptions.Validate(o.Force); err != nil {
		return nil, err
	}
	if err := o.validateCalls(); err != nil {
		return nil, err
	}
	if o.Profile != "" && o.Processes > 1 {
		return nil, Usagef("--profile with --processes %d: the profiles are of one process; profile without --processes", o.Processes)
	}
	return re, nil
}

// validateAmounts checks the flags that say how much is measured:
// --samples, --warmup, --sample-time, --processes, --remeasure, --iters.
func (o *runOptions) validateAmounts() error {
	if err := CheckSamples(o.Samples); err != nil {
		return err
	}
	for _, d := range []struct {
		flag     string
		v, limit time.Duration
	}{{"--warmup", o.Warmup, maxWarmup}, {"--sample-time", o.SampleTime, MaxSampleTime}} {
		if err := CheckDuration(d.flag, d.v, d.limit); err != nil {
			return err
		}
	}
	if o.Processes < 1 || o.Processes > min(pipeline.MaxProcesses, o.Samples) {
		return Usagef("--processes %d: must be between 1 and %d (at most --samples, which counts every process's samples)", o.Processes, min(pipeline.MaxProcesses, o.Samples))
	}
	if o.GOMAXPROCS < 1 || o.GOMAXPROCS > MaxGOMAXPROCS {
		return Usagef("--gomaxprocs %d: must be between 1 and %d", o.GOMAXPROCS, MaxGOMAXPROCS)
	}
	if o.Remeasure < 0 || o.Remeasure > maxRemeasure {
		return Usagef("--remeasure %d: must be between 0 (never) and %d", o.Remeasure, maxRemeasure)
	}
	if o.Iters < 0 || o.Iters > pipeline.MaxIters {
		return Usagef("--iters %d: must be between 1 and %d (or 0 to calibrate)", o.Iters, int64(pipeline.MaxIters))
	}
	return nil
}

// validateSelection checks the flags that choose the experiments,
// --compare and --bench (and --threshold, which needs --compare), and
// returns --bench compiled.
func (o *runOptions) validateSelection() (*regexp.Regexp, error) {
	if o.compareSet && strings.TrimSpace(o.Compare) == "" {
		return nil, Usagef("--compare: name the experiments to compare, e.g. --compare concat/quadratic,concat/builder")
	}
	if o.Compare == "" && o.ThresholdOption.given() {
		return nil, Usagef("--threshold applies to --compare: name the experiments to compare, e.g. --compare concat/quadratic,concat/builder")
	}
	if o.Compare != "" && o.benchSet {
		return nil, Usagef("--compare and --bench both choose experiments: use one")
	}
	re, err := regexp.Compile(o.Bench)
	if err != nil {
		return nil, Usagef("--bench %q: not a Go regular expression: %v", o.Bench, err)
	}
	return re, nil
}

// validateCalls checks the flags of single calls: --latency, --rate and
// --percentile.
func (o *runOptions) validateCalls() (err error) {
	if o.percentile, err = parsePercentile(o.Percentile); err != nil {
		return err
	}
	if o.percentileSet && (!o.Latency || o.Compare == "") {
		return Usagef("--percentile %s judges the single calls of a comparison: add --latency and --compare", o.Percentile)
	}
	if o.Rate != "" {
		if o.rate, err = parseRate(o.Rate); err != nil {
			return err
		}
		if !o.Latency {
			return Usagef("--rate %s times single calls: add --latency", o.Rate)
		}
	}
	return nil
}

// maxRate bounds --rate: 10 million calls a second start 100 ns apart,
// closer than any call --latency times alone (20x the clock's cost).
const maxRate = 1e7

// parseRate reads --rate, calls per second written as "1000/s".
func parseRate(s string) (float64, error) {
	n, ok := strings.CutSuffix(strings.TrimSpace(s), "/s")
	v, err := strconv.ParseFloat(n, 64)
	if !ok || err != nil || !(v > 0) || v > maxRate {
		return 0, Usagef("--rate %q: give calls per second, above 0/s and at most %s, as in --rate 1000/s", s, units.Rate(maxRate))
	}
	return v, nil
}

// parsePercentile reads --percentile: p50 to p99.9 ("p99", "p99.9").
func parsePercentile(s string) (float64, error) {
	n, ok := strings.CutPrefix(strings.TrimSpace(s), "p")
	v, err := strconv.ParseFloat(n, 64)
	if !ok || err != nil || !(v >= 50 && v <= 99.9) {
		return 0, Usagef("--percentile %q: give p50 to p99.9, as in --percentile p99", s)
	}
	return v / 100, nil
}

// selectWorkloads returns the experiments whose name matches re.
func selectWorkloads(all []inproc.Workload, re *regexp.Regexp) ([]inproc.Workload, error) {
	var ws []inproc.Workload
	for _, w := range all {
		if re.MatchString(w.Name) {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return nil, Usagef("--bench %q matches no experiment (see benchy list)", re.String())
	}
	return ws, nil
}

// lookup returns the experiment named name.
func lookup(all []inproc.Workload, name string) (inproc.Workload, bool) {
	for _, w := range all {
		if w.Name == name {
			return w, true
		}
	}
	return inproc.Workload{}, false
}

// compareWorkloads looks up the experiments named in --compare. A name
// given twice (an A/A run, to see the noise floor) is measured twice, the
// second copy named "NAME#2" so the result keeps them apart.
func compareWorkloads(all []inproc.Workload, list string) ([]inproc.Workload, error) {
	names := strings.Split(list, ",")
	if len(names) < 2 {
		return nil, Usagef("--compare %q: name at least two experiments, e.g. --compare concat/quadratic,concat/builder", list)
	}
	seen := map[string]int{}
	var ws []inproc.Workload
	for _, name := range names {
		name = strings.TrimSpace(name)
		w, ok := lookup(all, name)
		if !ok {
			return nil, Usagef("--compare: no experiment %q%s (see benchy list)", name, didYouMean(all, name))
		}
		w.Name = numbered(seen, name)
		ws = append(ws, w)
	}
	return ws, nil
}

// numbered is name the first time seen meets it, and "NAME#k" the k-th
// time: the same experiment or command twice (an A/A run, to see the
// noise floor) is measured twice under names the result keeps apart.
func numbered(seen map[string]int, name string) string {
	seen[name]++
	if n := seen[name]; n > 1 {
		return fmt.Sprintf("%s#%d", name, n)
	}
	return name
}

// plan turns the validated flags into the pipeline's plan for ws.
func (o *runOptions) plan(ws []inproc.Workload) pipeline.Plan {
	st := result.Settings{
		Bench: o.Bench, Samples: o.Samples, Warmup: o.Warmup, SampleTime: o.SampleTime,
		Iters: o.Iters, GC: o.GC, Isolate: !o.NoIsolate, Smoke: o.Smoke, Latency: o.Latency, Rate: o.rate, Window: o.Window,
	}
	o.PrecisionOptions.Settings(&st)
	plan := pipeline.Plan{
		Settings: st, CPU: o.CPU, CPUSet: o.CPUSet, NoCheck: o.NoAsm, GOMAXPROCS: o.GOMAXPROCS,
		Tool: "benchy " + Version, Command: o.g.Args, Package: mainPackage(),
	}
	if !o.Smoke && !o.Latency && o.Profile == "" {
		// A smoke run checks, it does not measure; the calls timed
		// alone and the profiles belong to one attempt.
		plan.Remeasure = o.Remeasure
	}
	if o.Compare != "" {
		plan.Settings.Bench = ""
		plan.Group = len(ws)
		plan.Settings.Threshold = o.Value
		plan.RandomOrder = true
		if o.looks && o.targetCI == 0 && o.Processes == 1 {
			// The default rounds may stop early: at a look where every
			// verdict is clear, or when their time is up (a fixed
			// --samples takes them all).
			plan.Settings.Looks = compare.Looks(o.Samples)
			plan.Settings.RoundsBudget = compare.DefaultBudget
		}
		for _, w := range ws {
			plan.Settings.Compare = append(plan.Settings.Compare, w.Name)
		}
		if o.Latency {
			plan.Settings.Percentile = o.percentile
		}
	}
	if !o.GC {
		budget, _, _ := sysread.MemoryBudget("/")
		plan.MemoryLimit = inproc.Options{MemoryBudget: budget}.MemoryLimit()
	}
	return plan
}

// runRun measures and writes the result. It returns an error whose exit
// code says how the run went (see exit.go); w, when not nil, is told how
// to clear the progress line before it prints.
func runRun(o *runOptions, stdout io.Writer, w *Watcher) error {
	if o.ChildSpec != "" {
		return runChild(o, w)
	}
	re, err := o.validate()
	if err != nil {
		return err
	}
	ws, err := o.workloads(re) // refused here, not once per process
	if err != nil {
		return err
	}
	plan := o.plan(ws)
	est := Estimate{Warmup: o.Warmup, SampleTime: o.SampleTime, Window: o.Window, Samples: o.Samples}
	var r *result.Result
	if o.Processes > 1 {
		r, err = runProcesses(o.Ctx, plan, ws, o.Processes, o.Progress, est, w)
	} else {
		var prof *profiles.Recorder
		if o.Dir != nil {
			prof = profiles.NewRecorder(o.Dir)
		}
		r, err = runPlan(o.Ctx, plan, inprocTargets(ws, plan, prof), o.Progress, o.g.Stderr, est, w)
	}
	if r == nil {
		return err
	}
	if err == nil && !r.Interrupted {
		// Counted once, by this process: a count does not vary between
		// processes as times do (docs/instructions.md).
		if err := o.count.countLoops(r, ws, &o.Measuring); err != nil {
			return err
		}
	}
	if err := o.Write(r, stdout, o.g.Stderr); err != nil {
		return err
	}
	ProfileNotes(r, o.Path(), o.g.Stderr)
	if err != nil {
		return err // a process failed: what finished is written
	}
	if err := CountFailed(r); err != nil {
		return err
	}
	return RunExit(r, o.Strict)
}

// inprocTargets are the in-process targets of ws as plan measures them,
// their measured calls profiled into prof when it is not nil (--profile,
// which is of one process: never a process of --processes).
func inprocTargets(ws []inproc.Workload, plan pipeline.Plan, prof *profiles.Recorder) []pipeline.Target {
	iopts := inproc.Options{GC: plan.Settings.GC, Count: true, Profile: prof, Latency: plan.Settings.Latency, Rate: plan.Settings.Rate}
	iopts.MemoryBudget, _, _ = sysread.MemoryBudget("/")
	ts := make([]pipeline.Target, len(ws))
	for i, w := range ws {
		ts[i] = inproc.New(w, iopts)
	}
	return ts
}

// workloads are the experiments the flags choose: --compare's, in its
// order, or those --bench matches.
func (o *runOptions) workloads(re *regexp.Regexp) ([]inproc.Workload, error) {
	if o.Compare != "" {
		return compareWorkloads(o.g.Experiments, o.Compare)
	}
	ws, err := selectWorkloads(o.g.Experiments, re)
	if err != nil || !o.Latency {
		return ws, err
	}
	return withCall(ws, o.g.Experiments, re)
}

// withCall are the experiments of ws that declare a Call, for --latency;
// none is bad usage, which names those that have one.
func withCall(ws, all []inproc.Workload, re *regexp.Regexp) ([]inproc.Workload, error) {
	var calls []inproc.Workload
	for _, w := range ws {
		if w.Call != nil {
			calls = append(calls, w)
		}
	}
	if len(calls) > 0 {
		return calls, nil
	}
	var names []string
	for _, w := range all {
		if w.Call != nil {
			names = append(names, w.Name)
		}
	}
	if len(names) == 0 {
		return nil, Usagef("--latency: no experiment has a Call to time (set Experiment.Call)")
	}
	return nil, Usagef("--latency: no experiment that --bench %q matches has a Call; these do: %s", re.String(), strings.Join(names, ", "))
}

// RunExit is the exit of a command that measured: interrupted, a failed
// experiment, or --strict.
func RunExit(r *result.Result, strict string) error {
	if r.Interrupted {
		return nil // the caller says how it was stopped
	}
	if err := ExperimentsFailed(r, "experiment"); err != nil {
		return err
	}
	return strictError(r, strict)
}

// ExperimentsFailed is exit 1 naming r's experiments that failed (each a noun:
// "experiment", "benchmark"), with why; nil when none did.
func ExperimentsFailed(r *result.Result, noun string) error {
	var failed []string
	for _, e := range r.Experiments {
		if e.Error != "" {
			failed = append(failed, e.Name+": "+e.Error)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return &FailedError{Msg: units.Count(len(failed), noun) + " failed: " + strings.Join(failed, "; ")}
}

// mainPackage is the import path of the program's main package: benchy's
// own, or that of the user's program that registers its experiments.
func mainPackage() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Path
	}
	return ""
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return Usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}
