// Package command measures whole programs, the target of `benchy exec`:
// one sample is one run of a child process, timed from just before the
// fork to its exit, on the CPU the harness pinned (the child inherits the
// pin), with the child's own counts from wait4, perf and /proc.
//
// The runs are started by an Executor: a Spawner for real, FakeExecutor
// to test the order of runs without timing them. Commands are split like a
// shell would (Split) or run with sh -c, resolved before anything runs
// (Resolve), and scanned over parameters like hyperfine's -P and -L
// (ParseRange, ParseList, Expand).
package command

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/redact"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// Config says what a target runs and how.
type Config struct {
	// Name is the experiment's name; "" names it by Command.
	Name string
	// Command is the command line, its parameters substituted.
	Command string
	// Shell runs Command with sh -c instead of splitting it: for
	// pipelines and redirections, at the price of timing sh's start too.
	Shell bool
	// Setup runs once before the first run, Cleanup once after the last
	// (always, even after a failure or a stop), Prepare before every run
	// (warm-ups included). None is timed, so each runs with sh -c; ""
	// means none. What the setup starts in the background is left
	// running (a server the runs use; the cleanup stops it); what a run,
	// the prepare or the cleanup leaves running is killed as it ends.
	Setup, Prepare, Cleanup string
	// Input is the file every run reads as stdin; "" means /dev/null.
	Input string
	// ShowOutput passes the output of runs and hooks through; otherwise
	// it is discarded, keeping the last lines of stderr for the error.
	ShowOutput bool
	// IgnoreFailure keeps the sample of a run that exited non-zero or
	// died of a signal, marked with its status, instead of failing.
	IgnoreFailure bool
	// Params are the parameter values of an expansion, for the record.
	Params []Param
	// Executor starts the runs; usually one Spawner shared by every
	// target of a benchy run.
	Executor Executor
}

// cleanupGrace is how long a cleanup that starts after a stop may run
// before it is stopped in turn: it still undoes the setup, but a cleanup
// that hangs cannot keep benchy from writing what was measured. (A
// variable, so a test need not wait for it.)
var cleanupGrace = 10 * time.Second

// Target runs one command. Its methods are the phases the harness calls,
// all on the pinned thread.
type Target struct {
	// ctx is New's: the harness calls the target through an interface
	// without a context (Open, Time, Sample, Close), so the target keeps
	// the run's, as a long-lived runner does.
	ctx                     context.Context
	cfg                     Config
	prog                    Program
	setup, prepare, cleanup *Program
	report                  result.CounterReport
	runs                    int // runs of the command so far, warm-ups included
	cleanupErr              error
	left                    leftovers
}

// leftovers counts what runs and hooks left running when they exited,
// which was killed then.
type leftovers struct {
	runs, runProcs   int // the runs of the command that left some, and how many in all
	prepares         int // the same for the prepare hook
	prepareProcs     int
	cleanupProcs     int
	runsWithLeftover []int // the first runs that left some (1-based, warm-ups included), for the message
}

// maxListedRuns bounds the runs a left-processes finding names.
const maxListedRuns = 5

// New resolves the command and its hooks and checks the input file, so a
// program that is not found, or not executable, is an error before
// anything runs (the CLI reports it as bad usage). A cancelled ctx ends a
// run in progress (SIGTERM to its process group, SIGKILL after a grace
// period) and every run after it; pass the run's context.
func New(ctx context.Context, c Config) (*Target, error) {
	if c.Executor == nil {
		return nil, errors.New("command target without an executor")
	}
	prog, err := Resolve(c.Command, c.Shell)
	if err != nil {
		return nil, err
	}
	t := &Target{ctx: ctx, cfg: c, prog: prog}
	for _, h := range []struct {
		line string
		p    **Program
		flag string
	}{{c.Setup, &t.setup, "--setup"}, {c.Prepare, &t.prepare, "--prepare"}, {c.Cleanup, &t.cleanup, "--cleanup"}} {
		if h.line == "" {
			continue
		}
		p, err := Resolve(h.line, true)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", h.flag, err)
		}
		*h.p = &p
	}
	if err := checkInput(c.Input); err != nil {
		return nil, err
	}
	return t, nil
}

// Name is Config.Name, or the command line as written, as Shown: it
// names the experiment in the result, the history and every message.
func (t *Target) Name() string {
	if t.cfg.Name != "" {
		return Shown(t.cfg.Name)
	}
	return Shown(t.cfg.Command)
}

// Shown is a command line as a result and messages show it: control
// characters escaped (result.Printable), since a terminal must not act on
// them, and a PostgreSQL password masked (redact.String), since a name is
// written to the result, the history and every table (psql
// postgres://u:PW@h/db). Showing a shown line changes nothing.
func Shown(line string) string {
	return redact.String(result.Printable(line))
}

// Info declares a run as the unit: a program's work per run is unknown,
// so no floor or "impossible" check applies.
func (t *Target) Info() result.Info {
	d := t.prog.Description()
	if len(t.cfg.Params) > 0 {
		d += " (" + paramList(t.cfg.Params) + ")"
	}
	return result.Info{Kind: result.KindProcess, Name: t.Name(), Description: d, Units: 0, Unit: "run"}
}

// Counters says what every run counts and why the rest is not; known
// after Open.
func (t *Target) Counters() result.CounterReport { return t.report }

// Check reports the processes that runs, the prepare or the cleanup left
// running when they exited (a program's code is not inspected). A run's
// leftovers are an error: its time stopped at the command's exit while
// work it had started went on, on the measured CPU, until benchy killed
// it. A hook's are worth knowing only: they were killed before the next
// run began.
func (t *Target) Check() []finding.Finding {
	l := t.left
	if l.runProcs+l.prepareProcs+l.cleanupProcs == 0 {
		return nil
	}
	var parts []string
	if l.runProcs > 0 {
		which := make([]string, len(l.runsWithLeftover))
		for i, n := range l.runsWithLeftover {
			which[i] = strconv.Itoa(n)
		}
		list := strings.Join(which, ", ")
		if l.runs > len(which) {
			list += ", ..."
		}
		parts = append(parts, fmt.Sprintf("%s (%s) left %s running after %s exited",
			units.Count(l.runs, "run"), list, units.Count(l.runProcs, "process"), map[bool]string{true: "it", false: "they"}[l.runs == 1]))
	}
	if l.prepareProcs > 0 {
		parts = append(parts, fmt.Sprintf("the --prepare left %s (%s)", units.Count(l.prepareProcs, "process"), units.Count(l.prepares, "time")))
	}
	if l.cleanupProcs > 0 {
		parts = append(parts, fmt.Sprintf("the --cleanup left %s", units.Count(l.cleanupProcs, "process")))
	}
	sev, why := finding.Info, "none of them ran during a timed run"
	if l.runProcs > 0 {
		sev, why = finding.Error, "a run's time stops when the command exits, and what it left ran on, on the measured CPU, until then: wait for what the command starts, or start it in --setup"
	}
	return []finding.Finding{{
		Code: result.CodeLeftProcesses, Severity: sev,
		Message: strings.Join(parts, "; ") + ", which benchy killed as each ended (they were in its process group): " + why,
		Evidence: map[string]any{"runs": l.runs, "processes": l.runProcs,
			"prepare_processes": l.prepareProcs, "cleanup_processes": l.cleanupProcs},
	}}
}

// CleanupErr is the error of the cleanup Close ran, if it failed or was
// stopped: Close cannot return it, and the CLI records it in the result.
func (t *Target) CleanupErr() error { return t.cleanupErr }

// Open opens the executor on the pinned thread and runs the setup. When
// the setup fails, the cleanup runs at once, since Close is not called
// after a failed Open and the setup may have done part of its work.
func (t *Target) Open() error {
	rep, err := t.cfg.Executor.Open()
	if err != nil {
		return err
	}
	t.report = rep
	if err := t.hook(t.ctx, t.setup, "setup"); err != nil {
		t.runCleanup()
		return err
	}
	return nil
}

// Time runs the command n times, each after the prepare hook, and returns
// their total wall time; the harness's warm-up calls it with n = 1.
func (t *Target) Time(n int64) (time.Duration, error) {
	var total time.Duration
	for range n {
		r, err := t.run()
		if err != nil {
			return total, err
		}
		total += r.Wall
	}
	return total, nil
}

// Sample runs the prepare hook, then the command once, timed. A sample is
// one run: n must be 1 (harness.Options.Iters).
func (t *Target) Sample(n int64) ([]result.Sample, error) {
	if n != 1 {
		return nil, fmt.Errorf("a sample of %s is one run, not %d: set the iterations per sample to 1", t.Name(), n)
	}
	r, err := t.run()
	if err != nil {
		return nil, err
	}
	s := result.Sample{Iters: 1, Ns: r.Wall.Nanoseconds(), CPU: r.CPU, Counters: r.Counters, AllowedCPUs: r.AllowedCPUs}
	if !r.Status.OK() {
		s.Status = r.Status.String()
	}
	return []result.Sample{s}, nil
}

// Between has nothing to do: each run is its own process.
func (t *Target) Between() {}

// Close runs the cleanup, whatever end says: it undoes the setup, which
// ran (see runCleanup).
func (t *Target) Close(end harness.End) harness.Totals {
	t.runCleanup()
	return harness.Totals{}
}

// runCleanup runs the cleanup as a child like any other: a stop during it
// ends it (SIGTERM, then SIGKILL) and benchy goes on to write what was
// measured. When the stop came first, the cleanup still runs, for at
// most cleanupGrace: it undoes the setup, and a hung one cannot hold the
// result back. Either way its error is kept for CleanupErr.
func (t *Target) runCleanup() {
	if t.cleanup == nil {
		return
	}
	ctx, after := t.ctx, false
	if ctx.Err() != nil {
		// A context of its own, which the grace cancels: the run's is
		// cancelled already.
		c, cancel := context.WithCancel(context.WithoutCancel(ctx))
		timer := time.AfterFunc(cleanupGrace, cancel)
		defer timer.Stop()
		defer cancel()
		ctx, after = c, true
	}
	err := t.hook(ctx, t.cleanup, "cleanup")
	if errors.Is(err, context.Canceled) {
		when := "benchy was stopped while it ran"
		if after {
			when = fmt.Sprintf("it was still running %v after benchy was stopped", cleanupGrace)
		}
		err = fmt.Errorf("cleanup (%s) of %s did not finish: %s, and it was killed", Shown(t.cleanup.Line), t.Name(), when)
	}
	t.cleanupErr = err
}

// run is one run of the command, prepared; a failed run is an error
// unless failures are ignored.
func (t *Target) run() (Result, error) {
	t.runs++
	if err := t.ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("run %d of %s: %w", t.runs, t.Name(), err)
	}
	if err := t.hook(t.ctx, t.prepare, "prepare"); err != nil {
		return Result{}, err
	}
	r, err := t.cfg.Executor.Exec(t.ctx, t.prog.job(t.cfg.Input, t.cfg.ShowOutput))
	if err != nil {
		return Result{}, fmt.Errorf("run %d of %s: %w", t.runs, t.Name(), err)
	}
	if r.Left > 0 {
		t.left.runs++
		t.left.runProcs += r.Left
		if len(t.left.runsWithLeftover) < maxListedRuns {
			t.left.runsWithLeftover = append(t.left.runsWithLeftover, t.runs)
		}
	}
	if !r.Status.OK() && !t.cfg.IgnoreFailure {
		return r, &RunError{Target: t.Name(), Run: t.runs, Status: r.Status, Stderr: r.Stderr}
	}
	return r, nil
}

// hook runs a setup, prepare or cleanup line, if there is one; its
// failure is always an error.
func (t *Target) hook(ctx context.Context, p *Program, name string) error {
	if p == nil {
		return nil
	}
	run := 0
	if name == "prepare" {
		run = t.runs
	}
	j := p.job("", t.cfg.ShowOutput)
	j.LeaveRunning = name == "setup"
	r, err := t.cfg.Executor.Exec(ctx, j)
	if err != nil {
		return fmt.Errorf("%s (%s) of %s: %w", name, Shown(p.Line), t.Name(), err)
	}
	switch name {
	case "prepare":
		if r.Left > 0 {
			t.left.prepares++
			t.left.prepareProcs += r.Left
		}
	case "cleanup":
		t.left.cleanupProcs += r.Left
	}
	if !r.Status.OK() {
		return &RunError{Target: t.Name(), Hook: name, Line: Shown(p.Line), Run: run, Status: r.Status, Stderr: r.Stderr}
	}
	return nil
}
