package toolcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/pipeline/gotestrun"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

// gotestOptions are the flags of `benchy gotest`.
type gotestOptions struct {
	g *cli.GlobalOptions
	cli.OutputOptions
	cli.PrecisionOptions
	cli.ProfileOptions

	Packages   []string
	BuildFlags []string // after "--": go test -c's flags (-tags, -gcflags)
	Bench      string
	Shard      string // --shard I/N as given
	shard      gotest.Shard
	cli.CPUOptions
	Samples    int
	SampleTime time.Duration
	Processes  int
	GOMAXPROCS int // --gomaxprocs: every benchmark's; 0 for 1 (b.RunParallel: the machine's)
	Against    string
	cli.ThresholdOption
	Fail    string // --fail-on-regression, with --against
	Layouts int    // --layouts: links of each revision, 0 for one

	Dir        string // -C: where the packages are resolved (default: the working directory)
	fail       float64
	dir        string // Dir, absolute
	againstSet bool   // --against was given, perhaps empty
	// gomaxprocsSet: --gomaxprocs was given (0 is refused, not the default).
	gomaxprocsSet bool

	cli.Measuring
	count cli.CountOptions
}

// Defaults of gotest: 30 samples of at least 100ms in 3 processes, so a
// benchmark takes about 3s and its interval rests on three independent
// runs of the binary (each its own heap, layout and GC timing).
const (
	gotestSamples    = 30
	gotestProcesses  = 3
	gotestSampleTime = 100 * time.Millisecond
	maxProcesses     = 1000
)

// newGotestCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newGotestCmd(g *cli.GlobalOptions, runF func(*gotestOptions) error) *cobra.Command {
	opts := &gotestOptions{g: g}
	cmd := &cobra.Command{
		Use:   "gotest [flags] [PACKAGES] [-- GO_BUILD_FLAGS]",
		Short: "cli.Measure a package's own testing.B benchmarks, pinned and judged",
		Long: `gotest builds each package's test binary (go test -c; nothing is written
into your tree: a helper is added through -overlay from a temporary
directory) and runs its benchmarks with the thread of each benchmark's loop
pinned to one CPU and Go's other threads kept off it. A sample is one call
of the benchmark at a fixed b.N, calibrated once by testing's own ramp to
--sample-time; the samples are spread over --processes runs of the binary,
and the process is the unit of every interval and comparison. testing's own
timer is used (ResetTimer and StopTimer are honoured), with B/op, allocs/op
and b.ReportMetric's units.

Besides run's findings, the benchmark's loop is read from the binary:
empty-loop (the work was deleted), folded (a constant is stored), and
setup-in-timer, cost-depends-on-n, input-consumed, debug-build, not-pinned
(b.RunParallel).

--against REV builds the same packages at git revision REV in a temporary
worktree (your uncommitted changes are the new side) and runs the two
binaries in interleaved rounds (ABBA) on the same CPU, one N per benchmark
for both: the output is benchy compare's.`,
		Example: `  benchy gotest                                  # the benchmarks of .
  benchy gotest ./... --bench 'Parse/small'
  benchy gotest strconv --bench 'Quote$'
  benchy gotest --against HEAD                   # did my change make it slower?
  benchy gotest --against main --fail-on-regression 5% --format markdown
  benchy gotest ./codec -- -tags purego
  benchy gotest -C ~/src/mymodule ./...`,
		Args: func(cmd *cobra.Command, args []string) error {
			dash := cmd.ArgsLenAtDash()
			if dash >= 0 {
				opts.BuildFlags = args[dash:]
				args = args[:dash]
			}
			opts.Packages = cli.StrictArgs(cmd, &opts.Strict, args, g.Args)
			if len(opts.Packages) == 0 {
				opts.Packages = []string{"."}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.againstSet = cmd.Flags().Changed("against")
			opts.gomaxprocsSet = cmd.Flags().Changed("gomaxprocs")
			if opts.Against != "" {
				opts.Formats = cli.CompareFormats
			}
			if opts.Fail != "" && opts.Against == "" {
				return cli.Usagef("--fail-on-regression compares two revisions: give --against REV too")
			}
			if opts.Store != "" && opts.Against != "" {
				return cli.Usagef("--store keeps one commit's result; --against measures two trees: store each side's run of gotest instead")
			}
			opts.StoreDir = opts.Dir
			if runF != nil {
				return runF(opts)
			}
			return cli.Measure(cmd, g, &opts.OutputOptions, &opts.PrecisionOptions, &opts.Measuring, func(w *cli.Watcher) error {
				return gotestRun(opts, g.Stdout, w)
			})
		},
	}
	opts.bind(cmd)
	return cmd
}

// bind declares the flags of gotest, each read into o, and the completion
// of --bench; the option groups that other commands share bind their own.
func (o *gotestOptions) bind(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.Dir, "dir", "C", ".", "resolve the packages in `DIR`, as go -C does")
	f.StringVar(&o.Bench, "bench", ".", "run the benchmarks matching `REGEXP`, as go test -bench (sub-benchmarks too)")
	f.StringVar(&o.Shard, "shard", "", "measure share `I/N` of the benchmarks (by a hash of package and name), for N CI jobs")
	o.CPUOptions.Bind(f, "the benchmarks")
	cli.IntFlag(f, &o.Samples, "samples", gotestSamples, "samples of each benchmark, over all processes")
	f.DurationVar(&o.SampleTime, "sample-time", gotestSampleTime, "each sample lasts at least `D` (b.N calibrated once)")
	cli.IntFlag(f, &o.Processes, "processes", gotestProcesses, "spread the samples over `K` runs of the test binary")
	cli.IntFlag(f, &o.GOMAXPROCS, "gomaxprocs", 0, "run every benchmark at GOMAXPROCS `N`, as go test -cpu N (default: 1, as taskset -c CPU go test; b.RunParallel at the machine's)")
	f.Lookup("gomaxprocs").DefValue = ""
	o.PrecisionOptions.Bind(f)
	f.StringVar(&o.Against, "against", "", "compare with git revision `REV`, interleaved (e.g. HEAD, main)")
	o.ThresholdOption.Bind(f, "2%", "with --against: smallest change claimed (`PCT`)")
	f.StringVar(&o.Fail, "fail-on-regression", "", "with --against: exit 1 when a benchmark is slower by more than `PCT`")
	o.OutputOptions.Bind(cmd, o.g, render.Formats, true)
	o.count.Bind(f)
	o.ProfileOptions.Bind(f)
	cli.IntFlag(f, &o.Layouts, "layouts", 0, "link each revision `K` times with -ldflags=-randlayout=1..K, interleaved, and tell the layouts' variation from the processes'")
	f.Lookup("layouts").DefValue = ""
	_ = cmd.RegisterFlagCompletionFunc("bench", completeGotestBench)
}

// validateSelection checks the flags that choose what runs and how:
// --bench, --shard, --gomaxprocs.
func (o *gotestOptions) validateSelection() (err error) {
	if o.gomaxprocsSet && (o.GOMAXPROCS < 1 || o.GOMAXPROCS > cli.MaxGOMAXPROCS) {
		return cli.Usagef("--gomaxprocs %d: must be between 1 and %d", o.GOMAXPROCS, cli.MaxGOMAXPROCS)
	}
	if _, err := regexp.Compile(o.Bench); err != nil {
		return cli.Usagef("--bench %q: not a Go regular expression: %v", o.Bench, err)
	}
	o.shard, err = parseShard(o.Shard)
	return err
}

// validate checks every flag before anything is built.
func (o *gotestOptions) validate() (err error) {
	if err := o.count.Validate(); err != nil {
		return err
	}
	if o.count.On && o.againstSet {
		return cli.Usagef("--measure instructions counts one revision: save each with --out and compare the files with benchy compare")
	}
	if runtime.GOOS != "linux" {
		return cli.Usagef("gotest pins benchmarks with sched_setaffinity, which is Linux's: it does not run on %s", runtime.GOOS)
	}
	if err := cli.CheckLive(o.g, "gotest"); err != nil {
		return err
	}
	if o.againstSet && strings.TrimSpace(o.Against) == "" {
		return cli.Usagef("--against %q: give a revision to compare with (HEAD, a branch, a tag or a commit)", o.Against)
	}
	if err := checkTestBinaryRuns(o.Samples, o.Processes, 1, "", o.SampleTime, &o.CPUOptions); err != nil {
		return err
	}
	if err := o.validateSelection(); err != nil {
		return err
	}
	if err := o.ThresholdOption.Validate(); err != nil {
		return err
	}
	o.fail = -1
	if o.Fail != "" {
		if o.fail, err = cli.ParseFraction("--fail-on-regression", o.Fail); err != nil {
			return err
		}
	}
	if o.dir, err = moduleDir(o.Dir); err != nil {
		return err
	}
	if o.Layouts != 0 && (o.Layouts < 2 || o.Layouts > gotestrun.MaxLayouts) {
		return cli.Usagef("--layouts %d: must be between 2 and %d (the links of each revision)", o.Layouts, gotestrun.MaxLayouts)
	}
	return o.ProfileOptions.Validate(o.Force)
}

// gotestRun builds, calibrates, measures (gotestrun.GoTest) and writes.
// Every bad input is refused before anything is measured.
func gotestRun(o *gotestOptions, stdout io.Writer, w *cli.Watcher) error {
	if err := o.validate(); err != nil {
		return err
	}
	plan := gotestrun.GoTestPlan{
		Plan: pipeline.Plan{
			Settings: result.Settings{Bench: o.Bench, Shard: o.shard.String(), Samples: o.Samples, SampleTime: o.SampleTime, GC: true,
				Isolate: true, Window: o.Window},
			CPU: o.CPU, CPUSet: o.CPUSet, Tool: "benchy " + cli.Version, Command: o.g.Args,
		},
		Dir: o.dir, Packages: o.Packages, BuildFlags: o.BuildFlags, Bench: o.Bench, Shard: o.shard,
		SampleTime: o.SampleTime, Processes: o.Processes, GOMAXPROCS: 1, ParallelGOMAXPROCS: runtime.GOMAXPROCS(0),
		Against: o.Against, Profile: o.ProfileOptions.Dir, Layouts: o.Layouts, Notes: o.g.Stderr,
		Threshold: o.Value,
	}
	if o.fail >= 0 {
		plan.FailOnRegression = &o.fail
	}
	if o.GOMAXPROCS > 0 {
		plan.GOMAXPROCS, plan.ParallelGOMAXPROCS = o.GOMAXPROCS, o.GOMAXPROCS
	}
	o.PrecisionOptions.Settings(&plan.Plan.Settings)
	if o.Progress != nil {
		p := cli.NewProgress(o.Progress, 1, cli.Estimate{Samples: o.Samples, SampleTime: o.SampleTime, Window: o.Window})
		plan.Plan.Progress = p.Update
		if w != nil {
			w.SetBefore(p.Clear)
		}
		defer p.Clear()
	}
	if w != nil {
		plan.OnExit = w.OnExit
	}
	if plan.Count = o.count.Options(&o.Measuring); plan.Count != nil {
		plan.Count.Env = cli.GoCountEnv()
	}
	run, err := gotestrun.GoTest(o.Ctx, plan)
	if err != nil && !errors.Is(err, compare.ErrNothingInCommon) {
		return cli.CountError(o.gotestError(err, w))
	}
	if !plan.Compares() {
		if err := o.Write(run.Result, stdout, o.g.Stderr); err != nil {
			return err
		}
		if err := cli.CountFailed(run.Result); err != nil {
			return err
		}
		if o.Format == "text" && o.OutDest == nil {
			render.WriteLayoutsText(stdout, run.Result.Layouts)
		}
		cli.ProfileNotes(run.Result, o.ProfileOptions.Path(), o.g.Stderr)
		return cli.RunExit(run.Result, o.Strict)
	}
	err = o.writeAgainst(run, err, stdout, w)
	cli.ProfileNotes(run.Result, o.ProfileOptions.Path(), o.g.Stderr)
	return err
}

// gotestError turns what gotestrun.GoTest returned into the command's
// error: a build error prints the compiler's lines first and exits 2, as
// does a usage error; a build a signal stopped is that signal's exit and
// one line, never a build error.
func (o *gotestOptions) gotestError(err error, w *cli.Watcher) error {
	var se *gotestrun.StageError
	if errors.As(err, &se) && errors.Is(err, context.Canceled) {
		var s os.Signal
		if w != nil {
			s = w.Signal()
		}
		if s == nil {
			return &cli.InterruptedError{Msg: "stopped while " + se.Doing + ": nothing was measured"}
		}
		return &cli.InterruptedError{Signal: s, Msg: cli.SignalName(s) + " while " + se.Doing + ": nothing was measured"}
	}
	switch {
	case errors.Is(err, context.Canceled) && w != nil && w.Signal() != nil:
		return &cli.InterruptedError{Signal: w.Signal(), Msg: cli.SignalName(w.Signal()) + " before anything was measured: no result"}
	case errors.Is(err, pipeline.ErrUsage):
		return &cli.UsageError{Msg: err.Error()}
	case errors.Is(err, gotestrun.ErrEmptyShard):
		// A job of a CI matrix with nothing to measure passes.
		fmt.Fprintf(o.g.Stderr, "benchy: %s: no result\n", err)
		return nil
	}
	var be *gotest.BuildError
	if errors.As(err, &be) {
		fmt.Fprint(o.g.Stderr, strings.TrimRight(be.Output, "\n")+"\n")
		return &cli.UsageError{Msg: err.Error()}
	}
	var ue *gotest.UsageError
	if errors.As(err, &ue) {
		return &cli.UsageError{Msg: err.Error()}
	}
	return err
}

// writeAgainst writes the comparison of the two revisions the pipeline
// made, as benchy compare does, to --out or stdout; compared is
// compare.ErrNothingInCommon when the sides had nothing in common, and
// then only the samples are written.
func (o *gotestOptions) writeAgainst(run *gotestrun.GoTestRun, compared error, stdout io.Writer, w *cli.Watcher) error {
	r := run.Result
	if o.SamplesDest != nil {
		// Both sides' samples, "old NAME" and "new NAME", as the page shows them.
		if _, err := o.SamplesDest.WriteOrKeep(func(w io.Writer) error { return render.Write(w, r, "csv") }); err != nil {
			return &cli.FailedError{Msg: err.Error()}
		}
	}
	if o.HTMLDest != nil {
		// The page shows both sides' samples, "old NAME" and "new NAME".
		if err := cli.WriteFile(o.HTMLDest, o.HTML, func(w io.Writer) error { return render.Write(w, r, "html") }, o.g.Stderr); err != nil {
			return &cli.FailedError{Msg: err.Error()}
		}
	}
	switch {
	case compared != nil && w != nil && w.Signal() != nil:
		return &cli.InterruptedError{Signal: w.Signal(), Msg: cli.SignalName(w.Signal()) + " before both sides were measured: no comparison"}
	case compared != nil:
		return &cli.FailedError{Msg: "nothing was measured on both sides"}
	}
	d := *run.Comparison
	write := func(w io.Writer) error { return render.WriteComparison(w, d, o.Format) }
	if o.OutDest != nil {
		if err := cli.WriteFile(o.OutDest, o.Out, write, o.g.Stderr); err != nil {
			return &cli.FailedError{Msg: err.Error()}
		}
	} else if err := write(stdout); err != nil {
		return err
	}
	if r.Interrupted {
		return nil
	}
	if err := cli.GateError(d); err != nil {
		return err
	}
	return cli.ExperimentsFailed(r, "benchmark")
}

// parseShard reads --shard I/N: 1 <= I <= N; "" is every benchmark.
func parseShard(v string) (gotest.Shard, error) {
	if v == "" {
		return gotest.Shard{}, nil
	}
	i, n, ok := strings.Cut(v, "/")
	s := gotest.Shard{}
	var err1, err2 error
	s.I, err1 = strconv.Atoi(i)
	s.N, err2 = strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || s.N < 1 || s.I < 1 || s.I > s.N {
		return gotest.Shard{}, cli.Usagef("--shard %q: give I/N with 1 <= I <= N, e.g. --shard 2/4 in the second of four jobs", v)
	}
	return s, nil
}

// checkTestBinaryRuns checks how gotest and bisect run a test binary:
// --samples, --processes (at least least, why saying why, and at most
// --samples), --sample-time and --cpu.
func checkTestBinaryRuns(samples, processes, least int, why string, sampleTime time.Duration, cpu *cli.CPUOptions) error {
	if err := cli.CheckSamples(samples); err != nil {
		return err
	}
	if processes < least || processes > maxProcesses || processes > samples {
		return cli.Usagef("--processes %d: must be between %d%s and --samples (%d)", processes, least, why, min(samples, maxProcesses))
	}
	if err := cli.CheckDuration("--sample-time", sampleTime, cli.MaxSampleTime); err != nil {
		return err
	}
	return cpu.Validate()
}

// moduleDir is -C's directory made absolute (gotest, bisect, --confirm run
// go and git there); a path that is not a directory is bad usage.
func moduleDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return "", cli.Usagef("-C %s: not a directory", dir)
	}
	return abs, nil
}
