package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
	"github.com/benchy-dev/benchy/internal/units"
)

// gotestOptions are the flags of `benchy gotest`.
type gotestOptions struct {
	g *globalOptions
	outputOptions
	precisionOptions

	Packages   []string
	BuildFlags []string // after "--": go test -c's flags (-tags, -gcflags)
	Bench      string
	CPU        int
	CPUSet     bool
	Samples    int
	SampleTime time.Duration
	Processes  int
	Against    string
	Threshold  string
	Fail       string // --fail-on-regression, with --against
	Window     time.Duration

	Dir             string // -C: where the packages are resolved (default: the working directory)
	threshold, fail float64
	dir             string // Dir, absolute
	againstSet      bool   // --against was given, perhaps empty

	measuring
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

func init() { commands = append(commands, newGotestCmd) }

func newGotestCmd(g *globalOptions) *cobra.Command {
	opts := &gotestOptions{g: g}
	cmd := &cobra.Command{
		Use:   "gotest [flags] [PACKAGES] [-- GO_BUILD_FLAGS]",
		Short: "Measure a package's own testing.B benchmarks, pinned and judged",
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
setup-in-timer, debug-build, not-pinned (b.RunParallel).

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
			opts.Packages = strictArgs(cmd, &opts.Strict, args, g.Args)
			if len(opts.Packages) == 0 {
				opts.Packages = []string{"."}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.CPUSet = cmd.Flags().Changed("cpu")
			opts.againstSet = cmd.Flags().Changed("against")
			if opts.Against != "" {
				opts.formats = compareFormats
			}
			if opts.Fail != "" && opts.Against == "" {
				return Usagef("--fail-on-regression compares two revisions: give --against REV too")
			}
			return measure(cmd, g, &opts.outputOptions, &opts.precisionOptions, &opts.measuring, func(w *watcher) error {
				return gotestRun(opts, g.Stdout, w)
			})
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Dir, "dir", "C", ".", "resolve the packages in `DIR`, as go -C does")
	f.StringVar(&opts.Bench, "bench", ".", "run the benchmarks matching `REGEXP`, as go test -bench (sub-benchmarks too)")
	intFlag(f, &opts.CPU, "cpu", -1, "pin the benchmarks to CPU `N` (default: benchy chooses)")
	f.Lookup("cpu").DefValue = ""
	intFlag(f, &opts.Samples, "samples", gotestSamples, "samples of each benchmark, over all processes")
	f.DurationVar(&opts.SampleTime, "sample-time", gotestSampleTime, "each sample lasts at least `D` (b.N calibrated once)")
	intFlag(f, &opts.Processes, "processes", gotestProcesses, "spread the samples over `K` runs of the test binary")
	opts.precisionOptions.bind(f)
	f.StringVar(&opts.Against, "against", "", "compare with git revision `REV`, interleaved (e.g. HEAD, main)")
	f.StringVar(&opts.Threshold, "threshold", "2%", "with --against: smallest change claimed (`PCT`)")
	f.StringVar(&opts.Fail, "fail-on-regression", "", "with --against: exit 1 when a benchmark is slower by more than `PCT`")
	f.DurationVar(&opts.Window, "window", time.Second, "busy window of the machine header, at most 60s")
	opts.outputOptions.bind(f, render.Formats, true)
	return cmd
}

// validate checks every flag before anything is built.
func (o *gotestOptions) validate() (err error) {
	if runtime.GOOS != "linux" {
		return Usagef("gotest pins benchmarks with sched_setaffinity, which is Linux's: it does not run on %s", runtime.GOOS)
	}
	if err := checkLive(o.g, "gotest"); err != nil {
		return err
	}
	if o.againstSet && strings.TrimSpace(o.Against) == "" {
		return Usagef("--against %q: give a revision to compare with (HEAD, a branch, a tag or a commit)", o.Against)
	}
	if err := checkSamples(o.Samples); err != nil {
		return err
	}
	if o.Processes < 1 || o.Processes > maxProcesses || o.Processes > o.Samples {
		return Usagef("--processes %d: must be between 1 and --samples (%d)", o.Processes, min(o.Samples, maxProcesses))
	}
	if err := checkDuration("--sample-time", o.SampleTime, maxSampleTime); err != nil {
		return err
	}
	if err := checkDuration("--window", o.Window, maxWindow); err != nil {
		return err
	}
	if err := checkCPU(o.CPUSet, o.CPU); err != nil {
		return err
	}
	if _, err := regexp.Compile(o.Bench); err != nil {
		return Usagef("--bench %q: not a Go regular expression: %v", o.Bench, err)
	}
	if o.threshold, err = parseFraction("--threshold", o.Threshold); err != nil {
		return err
	}
	o.fail = -1
	if o.Fail != "" {
		if o.fail, err = parseFraction("--fail-on-regression", o.Fail); err != nil {
			return err
		}
	}
	if o.dir, err = filepath.Abs(o.Dir); err != nil {
		return err
	}
	if fi, err := os.Stat(o.dir); err != nil || !fi.IsDir() {
		return Usagef("-C %s: not a directory", o.Dir)
	}
	return nil
}

// side is one revision's test binaries.
type side struct {
	label string
	bins  []*gotest.Binary
}

// gotestRun builds, calibrates, measures and writes. Every bad input is
// refused before anything is measured; the temporary directory (and the
// worktree of --against) is removed on every way out, a second signal
// included, and the commands of the build (go, git) are stopped with the
// run: a first signal ends the one running and the run, a second kills it.
func gotestRun(o *gotestOptions, stdout io.Writer, w *watcher) error {
	if err := o.validate(); err != nil {
		return err
	}
	ch := gotest.NewChildren(o.Stop)
	if w != nil {
		w.onExit(ch.Kill) // first: nothing writes any more in what is removed next
	}
	wd, err := gotest.NewWorkDir()
	if err != nil {
		return err
	}
	// The worktree goes before the directory that holds it, on the way
	// out and at a second signal alike (mu: the signal's goroutine).
	var (
		mu      sync.Mutex
		wt      *gotest.Worktree
		cleaned bool
	)
	clean := func() {
		mu.Lock()
		defer mu.Unlock()
		if wt != nil && !cleaned {
			if err := wt.Remove(); err != nil {
				fmt.Fprintf(o.g.Stderr, "benchy: could not remove the worktree %s: %v (git worktree remove --force %s)\n", wt.Dir, err, wt.Dir)
			}
		}
		cleaned = true
		wd.Remove()
	}
	defer clean()
	if w != nil {
		w.onExit(clean)
	}
	tmp := wd.Path
	if o.Against != "" {
		stale, err := gotest.RemoveStaleWorktrees(ch, o.dir)
		if len(stale) > 0 {
			fmt.Fprintf(o.g.Stderr, "benchy: removed %s that an earlier benchy gotest --against left behind when it was killed: %s\n",
				units.Count(len(stale), "worktree"), strings.Join(stale, ", "))
		}
		if err != nil {
			return o.buildError(err, w, "removing old worktrees")
		}
		added, err := gotest.AddWorktree(ch, o.dir, o.Against, wd.Worktree())
		if err != nil {
			return o.buildError(err, w, "checking out "+o.Against)
		}
		mu.Lock()
		wt = added
		mu.Unlock()
	}
	cur, err := buildSide(o, ch, "new", o.dir, filepath.Join(tmp, "new"))
	if err != nil {
		return o.buildError(err, w, "building the test binaries")
	}
	var old *side
	if wt != nil {
		fmt.Fprintf(o.g.Stderr, "benchy: old is %s (%s), built in a temporary worktree; new is your tree as it is\n", wt.Rev, wt.Short())
		if old, err = buildSide(o, ch, "old", wt.Path(), filepath.Join(tmp, "old")); err != nil {
			return o.buildError(fmt.Errorf("%s: %w", o.Against, againstError(err, wt)), w, "building the test binaries of "+o.Against)
		}
	}
	perProcess := (o.Samples + o.Processes - 1) / o.Processes
	plan := pipeline.Plan{
		Settings: result.Settings{Bench: o.Bench, Samples: perProcess * o.Processes, SampleTime: o.SampleTime, GC: true,
			Isolate: true, Window: o.Window},
		CPU: o.CPU, CPUSet: o.CPUSet, Tool: "benchy " + Version, Command: o.g.Args, Stop: o.Stop,
		Package: strings.Join(importPaths(cur.bins), " "),
	}
	o.precisionOptions.settings(&plan.Settings)
	topts := gotest.Options{BenchText: o.Bench, SampleTime: o.SampleTime,
		PerProcess: perProcess, GOMAXPROCS: runtime.GOMAXPROCS(0), Stop: o.Stop, Packages: importPaths(cur.bins)}
	if old != nil {
		topts.Packages = append(topts.Packages, importPaths(old.bins)...) // one name for a package on both sides
	}
	var only []string // benchmarks of one side only, with --against
	plan.Prepare = func(cpu int) ([]pipeline.Target, error) {
		topts.CPU = cpu
		news, err := calibrate(cur, topts)
		if err != nil || old == nil {
			return targets(news), err
		}
		olds, err := calibrate(old, topts)
		if err != nil {
			return nil, err
		}
		var ts []pipeline.Target
		ts, only = pairs(olds, news)
		if len(ts) == 0 {
			return nil, fmt.Errorf("%w: no benchmark matching --bench %q is in both %s and your tree", pipeline.ErrUsage, o.Bench, o.Against)
		}
		return ts, nil
	}
	if old != nil {
		plan.Group = 2 // each benchmark's old and new, interleaved
	}
	r, err := runPlan(plan, nil, o.Progress, estimate{Samples: o.Samples, SampleTime: o.SampleTime, Window: o.Window}, w)
	if err != nil {
		return gotestError(err, o.g.Stderr)
	}
	if old == nil {
		if err := o.write(r, stdout, o.g.Stderr); err != nil {
			return err
		}
		return runExit(r, o.Strict)
	}
	for _, name := range only {
		fmt.Fprintf(o.g.Stderr, "benchy: %s: not compared\n", name)
	}
	return o.writeAgainst(r, wt, stdout, w)
}

// buildSide resolves the packages in dir and builds their test binaries
// into out; a package with test files but no benchmark is skipped when
// others have some.
func buildSide(o *gotestOptions, ch *gotest.Children, label, dir, out string) (*side, error) {
	pkgs, err := gotest.List(ch, dir, o.Packages, o.BuildFlags)
	if err != nil {
		return nil, err
	}
	s := &side{label: label}
	var none error
	for _, p := range pkgs {
		b, err := gotest.Build(ch, p, out, o.BuildFlags)
		var ue *gotest.UsageError
		if errors.As(err, &ue) && len(pkgs) > 1 {
			none = err
			continue
		}
		if err != nil {
			return nil, err
		}
		s.bins = append(s.bins, b)
	}
	if len(s.bins) == 0 {
		return nil, none
	}
	return s, nil
}

// buildError is gotestError for what happens before the measurement
// (while doing what): a build a signal stopped is that signal's exit and
// one line, never a build error.
func (o *gotestOptions) buildError(err error, w *watcher, doing string) error {
	if !errors.Is(err, gotest.ErrStopped) {
		return gotestError(err, o.g.Stderr)
	}
	var s os.Signal
	if w != nil {
		s = w.Signal()
	}
	if s == nil {
		return &ExitError{Code: ExitInterrupted, Msg: "stopped while " + doing + ": nothing was measured"}
	}
	return &ExitError{Code: signalExit(s), Msg: signalName(s) + " while " + doing + ": nothing was measured"}
}

// againstError adds to a build error of the old side the submodules the
// worktree lacks: a build that needs them fails there for that reason.
func againstError(err error, wt *gotest.Worktree) error {
	var be *gotest.BuildError
	if len(wt.Missing) == 0 || !errors.As(err, &be) {
		return err
	}
	be.Hint = fmt.Sprintf("submodules not checked out in the worktree of %s: %s; benchy checks them out from your own clones (git submodule update --init in your tree; git -C PATH fetch for a commit a clone lacks)",
		wt.Rev, strings.Join(wt.Missing, ", "))
	return err
}

// gotestError turns the gotest package's errors into the command's: a
// build error prints the compiler's lines first; a usage error exits 2.
func gotestError(err error, stderr io.Writer) error {
	var be *gotest.BuildError
	if errors.As(err, &be) {
		fmt.Fprint(stderr, strings.TrimRight(be.Output, "\n")+"\n")
		return &UsageError{Msg: err.Error()}
	}
	var ue *gotest.UsageError
	if errors.As(err, &ue) {
		return &UsageError{Msg: err.Error()}
	}
	return err
}

func importPaths(bins []*gotest.Binary) []string {
	var out []string
	for _, b := range bins {
		out = append(out, b.Package.ImportPath)
	}
	return out
}

// calibrate calibrates every benchmark of a side; none matching is a
// usage error.
func calibrate(s *side, o gotest.Options) ([]*gotest.Target, error) {
	var ts []*gotest.Target
	for _, b := range s.bins {
		t, err := gotest.Calibrate(b, o)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t...)
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("%w: no benchmark in %s matches --bench %q", pipeline.ErrUsage, strings.Join(importPaths(s.bins), " "), o.BenchText)
	}
	return ts, nil
}

func targets(ts []*gotest.Target) []pipeline.Target {
	out := make([]pipeline.Target, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

// Prefixes that tell the sides apart in the one interleaved run (testing
// puts no space in a benchmark's name).
const (
	oldPrefix = "old "
	newPrefix = "new "
)

// pairs matches the benchmarks of the two sides by name, old first in each
// pair, both at new's N (one N for both, so both time the same work per
// sample); it returns what it could not match, one line each.
func pairs(olds, news []*gotest.Target) ([]pipeline.Target, []string) {
	byName := map[string]*gotest.Target{}
	for _, t := range olds {
		byName[t.Display] = t
	}
	inNew := map[string]bool{}
	for _, n := range news {
		inNew[n.Display] = true
	}
	var ts []pipeline.Target
	var only []string
	for _, t := range olds {
		if !inNew[t.Display] {
			only = append(only, t.Display+" is only in the old revision")
		}
	}
	for _, n := range news {
		o, ok := byName[n.Display]
		if !ok {
			only = append(only, n.Display+" is new (not in the old revision)")
			continue
		}
		o.N = n.N
		name := n.Display
		o.Display, n.Display = oldPrefix+name, newPrefix+name
		ts = append(ts, o, n)
	}
	return ts, only
}

// splitSides makes the result of an interleaved --against run into the
// two results benchy compare would read: the same run, each with its
// side's experiments.
func splitSides(r *result.Result) (old, cur *result.Result) {
	o, c := *r, *r
	o.Experiments, c.Experiments = nil, nil
	for _, e := range r.Experiments {
		switch {
		case strings.HasPrefix(e.Name, oldPrefix):
			e.Name = strings.TrimPrefix(e.Name, oldPrefix)
			o.Experiments = append(o.Experiments, e)
		case strings.HasPrefix(e.Name, newPrefix):
			e.Name = strings.TrimPrefix(e.Name, newPrefix)
			c.Experiments = append(c.Experiments, e)
		}
	}
	return &o, &c
}

// writeAgainst writes the comparison of the two revisions, as benchy
// compare does, to --out or stdout.
func (o *gotestOptions) writeAgainst(r *result.Result, wt *gotest.Worktree, stdout io.Writer, w *watcher) error {
	if o.samples != nil {
		// Both sides' samples, "old NAME" and "new NAME", as the page shows them.
		if _, err := o.samples.WriteOrKeep(func(w io.Writer) error { return render.Write(w, r, "csv") }); err != nil {
			return &ExitError{Code: ExitFailed, Msg: err.Error()}
		}
	}
	if o.html != nil {
		// The page shows both sides' samples, "old NAME" and "new NAME".
		if err := writeFile(o.html, o.HTML, func(w io.Writer) error { return render.Write(w, r, "html") }, o.g.Stderr); err != nil {
			return &ExitError{Code: ExitFailed, Msg: err.Error()}
		}
	}
	old, cur := splitSides(r)
	files, err := compare.Results([]*result.Result{old}, []*result.Result{cur}, o.threshold)
	switch {
	case errors.Is(err, compare.ErrNothingInCommon) && w != nil && w.Signal() != nil:
		return &ExitError{Code: signalExit(w.Signal()), Msg: signalName(w.Signal()) + " before both sides were measured: no comparison"}
	case errors.Is(err, compare.ErrNothingInCommon):
		return &ExitError{Code: ExitFailed, Msg: "nothing was measured on both sides"}
	}
	if err != nil {
		return err
	}
	label := func(s string, x *result.Result) []fileSide { return sides([]string{s}, []*result.Result{x}) }
	c := newComparison(label(fmt.Sprintf("%s (%s)", wt.Rev, wt.Short()), old),
		label("working tree", cur), files, o.fail)
	render := func(w io.Writer) error { return c.write(w, o.Format) }
	if o.out != nil {
		if err := writeFile(o.out, o.Out, render, o.g.Stderr); err != nil {
			return &ExitError{Code: ExitFailed, Msg: err.Error()}
		}
	} else if err := render(stdout); err != nil {
		return err
	}
	if r.Interrupted {
		return nil
	}
	if err := c.exit(); err != nil {
		return err
	}
	return failedError(r, "benchmark")
}
