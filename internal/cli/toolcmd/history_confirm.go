package toolcmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/sqlstore"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/pipeline/gotestrun"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// confirmOptions are the flags of history check --confirm: the
// repository to rebuild the commits of, and how gotest measures them.
type confirmOptions struct {
	Confirm    bool
	Bisect     bool   // walk each confirmed step's commits to the one that made it
	Dir        string // -C: a directory of the repository the results came from
	Samples    int
	Processes  int
	SampleTime time.Duration
	cli.CPUOptions
	dir string // Dir, absolute
}

// confirmFlags are the flags that only --confirm uses.
var confirmFlags = []string{"bisect", "dir", "samples", "processes", "sample-time", "cpu", "window"}

func (c *confirmOptions) bind(f *pflag.FlagSet) {
	f.BoolVar(&c.Confirm, "confirm", false, "measure each step again, interleaved")
	f.BoolVar(&c.Bisect, "bisect", false, "with --confirm: find the commit that made each confirmed step, as benchy bisect does")
	f.StringVarP(&c.Dir, "dir", "C", ".", "with --confirm: the results' git repository, `DIR`")
	cli.IntFlag(f, &c.Samples, "samples", gotestSamples, "with --confirm: samples of each commit")
	cli.IntFlag(f, &c.Processes, "processes", gotestProcesses, "with --confirm: `K` runs of each test binary")
	f.DurationVar(&c.SampleTime, "sample-time", gotestSampleTime, "with --confirm: a sample lasts at least `D`")
	c.CPUOptions.Bind(f, "--confirm")
}

// check refuses the measuring flags without --confirm, and a bad one with
// it; with --confirm, -C must be in a git repository.
func (c *confirmOptions) check(f *pflag.FlagSet) error {
	if !c.Confirm {
		for _, name := range confirmFlags {
			if f.Changed(name) {
				return cli.Usagef("--%s is for --confirm, which measures the steps again: give --confirm too", name)
			}
		}
		return nil
	}
	if runtime.GOOS != "linux" {
		return cli.Usagef("--confirm pins benchmarks with sched_setaffinity, which is Linux's: it does not run on %s", runtime.GOOS)
	}
	if err := checkTestBinaryRuns(c.Samples, c.Processes, 1, "", c.SampleTime, &c.CPUOptions); err != nil {
		return err
	}
	var err error
	if c.dir, err = moduleDir(c.Dir); err != nil {
		return err
	}
	if _, err := history.GitCommit(c.dir, "HEAD"); err != nil {
		return cli.Usagef("-C %s: not in a git repository with a commit: --confirm rebuilds commits of the repository the results came from", c.Dir)
	}
	return nil
}

// A judged suspect: what the history saw and what the run made of it
// (nil for a step that cannot be confirmed).
type confirmed struct {
	sus sqlstore.Suspect
	c   *gotestrun.Confirmation
}

// historyConfirm is history check --confirm: the steps check finds, each
// measured again (gotestrun.Confirm) before it counts.
func historyConfirm(ctx context.Context, o *historyCheckOptions, args []string, stdout io.Writer) error {
	ctx = orBackground(ctx)
	js, s, err := o.judge(ctx, o.historyOptions, args)
	if err != nil {
		return err
	}
	defer s.Close()
	if len(js) == 0 {
		return &cli.CannotJudgeError{Msg: fmt.Sprintf("history check: %s holds no results%s: nothing to judge", s.Show(), matching(args))}
	}
	var all []confirmed
	var steps []gotestrun.ConfirmStep
	var short []string
	for _, j := range js {
		if !j.Judged {
			short = append(short, fmt.Sprintf("%s on %s (%s)", j.Series.Benchmark, j.Series.Machine, units.Count(len(j.Series.Commits), "commit")))
			continue
		}
		sus, err := sqlstore.Suspects(ctx, s, j)
		if err != nil {
			return &cli.FailedError{Msg: "store " + s.Show() + ": " + cli.OneLine(err.Error())}
		}
		for _, x := range sus {
			all = append(all, confirmed{sus: x})
			if x.Why == "" {
				steps = append(steps, gotestrun.ConfirmStep{Package: x.Package, Bench: x.Bench, Name: x.Series.Benchmark,
					Before: x.Before.Commit, After: x.After.Commit})
			}
		}
	}
	cs, err := o.measureSteps(steps)
	for i, k := 0, 0; i < len(all) && k < len(cs); i++ {
		if all[i].sus.Why == "" {
			all[i].c = &cs[k]
			k++
		}
	}
	if err != nil {
		// Stopped: what was judged before the stop is still said, the
		// steps not reached are not (the error counts them).
		writeConfirmed(stdout, reached(all))
		return err
	}
	return confirmExit(stdout, all, short, len(js)-len(short), o.threshold)
}

// measureSteps runs gotestrun.Confirm on steps with the signals watched:
// a first signal stops the measurement, a second exits at once.
func (o *historyCheckOptions) measureSteps(steps []gotestrun.ConfirmStep) ([]gotestrun.Confirmation, error) {
	if len(steps) == 0 {
		return nil, nil
	}
	w := cli.WatchSignals(context.Background(), o.g.Stderr)
	defer w.Close()
	plan := gotestrun.ConfirmPlan{
		GoTest: gotestrun.GoTestPlan{
			Plan: pipeline.Plan{
				Settings: result.Settings{Samples: o.Samples, SampleTime: o.SampleTime, GC: true, Isolate: true, Window: o.Window},
				CPU:      o.CPU, CPUSet: o.CPUSet, Tool: "benchy " + cli.Version, Command: o.g.Args,
			},
			Dir: o.dir, SampleTime: o.SampleTime, Processes: o.Processes, GOMAXPROCS: 1, ParallelGOMAXPROCS: runtime.GOMAXPROCS(0), // as gotest measures
			Notes: o.g.Stderr, OnExit: w.OnExit,
		},
		Threshold: o.threshold,
		Steps:     steps,
		Bisect:    o.Bisect,
		Retries:   bisectRetries,
	}
	cs, err := gotestrun.Confirm(w.Context(), plan)
	if errors.Is(err, context.Canceled) {
		msg := fmt.Sprintf("stopped after %s of %s", units.Count(len(cs), "step"), units.Count(len(steps), "step"))
		if s := w.Signal(); s != nil {
			return cs, &cli.InterruptedError{Signal: s, Msg: cli.SignalName(s) + ": " + msg}
		}
		return cs, &cli.InterruptedError{Msg: msg}
	}
	return cs, err
}

// confirmExit writes each suspected step with both figures and returns
// the exit: 1 for a confirmed slowdown or a step that cannot be
// confirmed (as without --confirm), else 4 when a step or a series could
// not be judged, else 0.
func confirmExit(stdout io.Writer, all []confirmed, short []string, judged int, threshold float64) error {
	slower, unconfirmed, notJudged := writeConfirmed(stdout, all)
	switch {
	case len(slower) > 0:
		return &cli.SlowerError{Msg: fmt.Sprintf("history check --confirm: %s slower by more than %s: %s",
			units.Count(len(slower), "step"), units.Percent(threshold), strings.Join(slower, "; "))}
	case len(notJudged) > 0 || len(short) > 0:
		var why []string
		if len(notJudged) > 0 {
			why = append(why, "could not judge "+strings.Join(notJudged, ", "))
		}
		if len(short) > 0 {
			why = append(why, fmt.Sprintf("cannot judge %s: fewer than %d commits", strings.Join(short, ", "), history.MinPoints))
		}
		return &cli.CannotJudgeError{Msg: "history check --confirm: " + strings.Join(why, "; ") + " (exit 4); no slowdown confirmed"}
	}
	fmt.Fprintf(stdout, "no step slower by more than %s in %s%s\n", units.Percent(threshold), seriesCount(judged), notConfirmedNote(unconfirmed))
	return nil
}

// reached are the steps of all that a stopped run judged: those measured
// before the stop, and those that cannot be confirmed at all.
func reached(all []confirmed) []confirmed {
	var done []confirmed
	for _, x := range all {
		if x.c != nil || x.sus.Why != "" {
			done = append(done, x)
		}
	}
	return done
}

// writeConfirmed writes each step of all with both figures
// (render.WriteConfirmed), and returns the steps that count as slower
// (confirmed, or that cannot be confirmed), those not confirmed and those
// not judged.
func writeConfirmed(stdout io.Writer, all []confirmed) (slower, unconfirmed, notJudged []string) {
	steps := make([]render.ConfirmedStep, len(all))
	for i, x := range all {
		ser, st := x.sus.Series, x.sus.Step
		at := units.Change(st.Change()) + " at " + ser.Range(st)
		name := ser.Benchmark + " " + at
		steps[i] = render.ConfirmedStep{Series: ser, Step: st, Why: x.sus.Why}
		if x.c != nil {
			steps[i].Row, steps[i].Why, steps[i].Bisection, steps[i].BisectWhy = x.c.Row, x.c.Why, x.c.Bisection, x.c.BisectWhy
		}
		switch {
		case x.c == nil:
			steps[i].Outcome = render.StepCannotConfirm
			slower = append(slower, name+" (cannot confirm: "+x.sus.Why+")")
		case x.c.Outcome == gotestrun.Confirmed:
			steps[i].Outcome = render.StepConfirmed
			slower = append(slower, ser.Benchmark+" "+units.Change(x.c.Row.Ratio-1)+" interleaved (history "+at+")"+bisected(x.c))
		case x.c.Outcome == gotestrun.NotConfirmed:
			steps[i].Outcome = render.StepNotConfirmed
			unconfirmed = append(unconfirmed, name)
		default:
			steps[i].Outcome = render.StepNotJudged
			notJudged = append(notJudged, name)
		}
	}
	render.WriteConfirmed(stdout, steps)
	return slower, unconfirmed, notJudged
}

// bisected is what the bisection of a confirmed step came to, for the
// last line: ", first slow commit 3f2a1b0c9d8e", ", in 3 commits a..b",
// or nothing when it was not made.
func bisected(c *gotestrun.Confirmation) string {
	rep := c.Bisection
	if rep == nil || len(rep.Benchmarks) == 0 {
		return ""
	}
	switch a := rep.Benchmarks[0].Answer; {
	case a.Verdict == bisect.Found && a.Exact():
		return ", first slow " + foundIn(rep, a)
	case a.Verdict == bisect.Found:
		return ", in " + foundIn(rep, a)
	default:
		return ", bisect: " + a.Verdict.String()
	}
}

func notConfirmedNote(unconfirmed []string) string {
	if len(unconfirmed) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s the history suspected not confirmed)", units.Count(len(unconfirmed), "step"))
}
