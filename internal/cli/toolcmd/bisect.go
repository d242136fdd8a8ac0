package toolcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/pipeline/gotestrun"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// bisectOptions are the flags of `benchy bisect`.
type bisectOptions struct {
	g          *cli.GlobalOptions
	Good, Bad  string
	Packages   []string
	BuildFlags []string // after "--": go test -c's flags
	Bench      string
	Format     string
	Retries    int
	Samples    int
	Processes  int
	SampleTime time.Duration
	Dir        string
	Store      string
	cli.ThresholdOption
	cli.CPUOptions
	dir   string           // Dir, absolute
	store *history.Address // --store, opened once before anything is built
}

// bisectRetries is how many times more an undecided commit is measured by
// default (bisect.DefaultRetries).
const bisectRetries = bisect.DefaultRetries

// newBisectCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newBisectCmd(g *cli.GlobalOptions, runF func(*bisectOptions) error) *cobra.Command {
	o := &bisectOptions{g: g}
	cmd := &cobra.Command{
		Use:   "bisect GOOD BAD --bench REGEXP [PACKAGES] [-- GO_BUILD_FLAGS]",
		Short: "Find the commit that made a benchmark (or each of several) slower",
		Long: `bisect walks the commits after GOOD up to BAD along BAD's first parents (a
merge is one commit of that line) to the first that made the benchmark
--bench names slower. First BAD is built and measured interleaved with GOOD,
as gotest --against measures two revisions: when it is not slower by more
than --threshold, there is nothing to look for (exit 0). Then each step
builds the commit in the middle of what is left in a temporary worktree
(each commit is built once) and runs its test binary interleaved with
GOOD's and BAD's, on one CPU at one N, the process as the unit: the commit
is on the slow side when the interval of its ratio to GOOD lies beyond the
midpoint of the two levels, on the fast side when below. A commit whose
interval holds the midpoint is measured again (--retries), then kept as
undecided: the answer then names the first commit not at GOOD's level and
the first at BAD's (a slowdown in two steps), or a range. A commit that
does not build, or lacks the benchmark, is skipped and named. --store keeps
every step's measurement of each build in the history, at its commit.

A --bench that matches several benchmarks follows them all in one walk:
each has its own walk and answer, and each commit measured is built once
and run for every benchmark whose walk needs it. A benchmark BAD did not
make slower is named and walked no further.

Exit 1 when a slowdown was found (one commit or a range) for any benchmark,
else 4 when whether BAD is slower cannot be judged for one, else 0 (BAD not
slower than GOOD); 2 for bad input (an unknown revision, GOOD not on BAD's
first-parent line, no benchmark matching).`,
		Example: `  benchy bisect v1.4.0 main --bench 'Parse$' ./parser
  benchy bisect HEAD~40 HEAD --bench 'Encode/small' --format markdown
  benchy bisect -C ~/src/mymodule v2.0.0 v2.1.0 --bench 'Sum' ./...`,
		Args: func(cmd *cobra.Command, args []string) error {
			if dash := cmd.ArgsLenAtDash(); dash >= 0 {
				o.BuildFlags = args[dash:]
				args = args[:dash]
			}
			if len(args) < 2 {
				return cli.Usagef("give GOOD and BAD: a fast commit and a later, slow one (benchy bisect GOOD BAD --bench REGEXP [PACKAGES])")
			}
			o.Good, o.Bad, o.Packages = args[0], args[1], args[2:]
			if len(o.Packages) == 0 {
				o.Packages = []string{"."}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(o)
			}
			return bisectRun(o, o.g.Stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Bench, "bench", "", "the benchmarks to follow: a `REGEXP` as go test -bench takes")
	f.StringVar(&o.Format, "format", "text", "output `FORMAT`: text, json, markdown")
	o.ThresholdOption.Bind(f, "5%", "BAD must be slower than GOOD by more than `PCT`")
	cli.IntFlag(f, &o.Retries, "retries", bisectRetries, "measure a commit that cannot be placed, or an answer's boundary, up to `K` times more")
	cli.IntFlag(f, &o.Samples, "samples", gotestSamples, "samples of each commit a step")
	cli.IntFlag(f, &o.Processes, "processes", gotestProcesses, "`K` runs of each test binary a step")
	f.DurationVar(&o.SampleTime, "sample-time", gotestSampleTime, "a sample lasts at least `D`")
	f.StringVarP(&o.Dir, "dir", "C", ".", "resolve the packages and the revisions in `DIR`")
	f.StringVar(&o.Store, "store", "", "also keep every commit's measurement in the history: "+cli.StoreHelp)
	o.CPUOptions.Bind(f, "the benchmarks")
	return cmd
}

// check validates the flags: one clear line and exit 2 for each mistake.
func (o *bisectOptions) check() error {
	if runtime.GOOS != "linux" {
		return cli.Usagef("bisect pins benchmarks with sched_setaffinity, which is Linux's: it does not run on %s", runtime.GOOS)
	}
	if o.Bench == "" {
		return cli.Usagef("--bench REGEXP: give the benchmark to follow (the one history check or gotest --against found slower)")
	}
	if _, err := regexp.Compile(o.Bench); err != nil {
		return cli.Usagef("--bench %q: %v", o.Bench, err)
	}
	if err := cli.CheckFormat(o.Format, render.BisectFormats); err != nil {
		return err
	}
	if err := o.ThresholdOption.Validate(); err != nil {
		return err
	}
	if o.Retries < 0 || o.Retries > 10 {
		return cli.Usagef("--retries %d: must be between 0 and 10", o.Retries)
	}
	if err := checkTestBinaryRuns(o.Samples, o.Processes, 2, " (the process is the unit: two give a spread)", o.SampleTime, &o.CPUOptions); err != nil {
		return err
	}
	var err error
	if o.dir, err = moduleDir(o.Dir); err != nil {
		return err
	}
	if o.Store != "" {
		a, err := cli.CheckStore(o.Store)
		if err != nil {
			return err
		}
		o.store = &a
	}
	return nil
}

// keep is the plan's Keep for --store: each build's result of a step
// stored at the commit it measured, with that commit's time (which orders
// the history's series). A result that cannot be stored is said, and the
// walk goes on: its answer does not rest on the store.
func (o *bisectOptions) keep(stderr io.Writer) func([]string, []*result.Result) {
	if o.store == nil {
		return nil
	}
	return func(commits []string, rs []*result.Result) {
		for k, r := range rs {
			src, err := history.GitCommit(o.dir, commits[k])
			if err != nil {
				src = history.Source{Commit: commits[k]}
			}
			if err := cli.StoreResult(*o.store, src, r, stderr); err != nil {
				fmt.Fprintf(stderr, "benchy: %v\n", err)
			}
		}
	}
}

// bisectRun runs the bisection with the signals watched (a first stops
// it, keeping what was measured; a second exits at once), writes it and
// returns the exit.
func bisectRun(o *bisectOptions, stdout io.Writer) error {
	w := cli.WatchSignals(context.Background(), o.g.Stderr)
	defer w.Close()
	plan := gotestrun.BisectPlan{
		GoTest: gotestrun.GoTestPlan{
			Plan: pipeline.Plan{
				Settings: result.Settings{Samples: o.Samples, SampleTime: o.SampleTime, GC: true, Isolate: true, Window: o.Window},
				CPU:      o.CPU, CPUSet: o.CPUSet, Tool: "benchy " + cli.Version, Command: o.g.Args,
			},
			Dir: o.dir, Packages: o.Packages, BuildFlags: o.BuildFlags, Bench: o.Bench,
			SampleTime: o.SampleTime, Processes: o.Processes, GOMAXPROCS: 1, ParallelGOMAXPROCS: runtime.GOMAXPROCS(0), // as gotest measures
			Notes: o.g.Stderr, OnExit: w.OnExit,
		},
		Good: o.Good, Bad: o.Bad, Threshold: o.Value, Retries: o.Retries, Keep: o.keep(o.g.Stderr),
	}
	rep, err := gotestrun.Bisect(w.Context(), plan)
	if rep != nil {
		if werr := render.WriteBisect(stdout, rep, o.Format); werr != nil {
			return werr
		}
	}
	if errors.Is(err, context.Canceled) {
		msg := "stopped"
		if rep != nil {
			msg = fmt.Sprintf("stopped after %s: the worktrees are removed", units.Count(rep.Runs, "interleaved run"))
		}
		if s := w.Signal(); s != nil {
			return &cli.InterruptedError{Signal: s, Msg: cli.SignalName(s) + ": " + msg}
		}
		return &cli.InterruptedError{Msg: msg}
	}
	if err != nil {
		return (&gotestOptions{g: o.g}).gotestError(err, w)
	}
	return bisectExit(rep)
}

// bisectExit is history check's exit for the worst of what the
// bisection came to over its benchmarks: 1 when any was found slower,
// else 4 when any cannot be judged, else 0.
func bisectExit(rep *bisect.Report) error {
	switch rep.Worst() {
	case bisect.NoSlowdown:
		return nil
	case bisect.Found:
		var found []string
		for _, bm := range rep.Benchmarks {
			if bm.Answer.Verdict == bisect.Found {
				found = append(found, foundIn(rep, bm.Answer)+" made "+bm.Name+" slower")
			}
		}
		return &cli.SlowerError{Msg: fmt.Sprintf("bisect: %s by more than %s", strings.Join(found, "; "), units.Percent(rep.Threshold))}
	}
	var unjudged []string
	for _, bm := range rep.Benchmarks {
		if bm.Answer.Verdict != bisect.NoSlowdown {
			unjudged = append(unjudged, bm.Name)
		}
	}
	return &cli.CannotJudgeError{Msg: fmt.Sprintf("bisect: cannot judge whether BAD is slower than GOOD for %s (exit 4)", strings.Join(unjudged, ", "))}
}

// foundIn is where answer a, a slowdown found, put it: "commit
// 3f2a1b0c9d8e", or "4 commits 3f2a1b0c9d8e..77aa01b2c3d4".
func foundIn(rep *bisect.Report, a bisect.Answer) string {
	if a.From == a.To {
		return "commit " + rep.Commits[a.From].Short()
	}
	return fmt.Sprintf("%s %s..%s", units.Count(a.To-a.From+1, "commit"), rep.Commits[a.From].Short(), rep.Commits[a.To].Short())
}
