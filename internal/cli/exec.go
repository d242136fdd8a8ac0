package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/command"
)

// execOptions are the flags of `benchy exec`; the names are hyperfine's
// where it has one.
type execOptions struct {
	g *GlobalOptions
	OutputOptions
	PrecisionOptions

	Commands      []string
	Runs          int
	runsSet       bool
	Warmup        int
	Prepare       string
	Setup         string
	Cleanup       string
	Input         string
	ShowOutput    bool
	IgnoreFailure bool
	Shell         bool
	Scans         []string // -P and -L in the order given, each as expandExecArgs joined it
	Step          string   // -D
	stepSet       bool
	NoIsolate     bool
	CPUOptions
	ThresholdOption

	Measuring
	count CountOptions
}

// execFormats: the result formats of exec.
var execFormats = render.Formats

// Default runs, as hyperfine's: at least 10, and at least 3 s of them (of the
// slowest command's, when several are interleaved).
const (
	execMinRuns = 10
	execMinTime = 3 * time.Second
)

func init() {
	commands = append(commands, func(g *GlobalOptions) *cobra.Command { return newExecCmd(g, nil) })
}

// newExecCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newExecCmd(g *GlobalOptions, runF func(*execOptions) error) *cobra.Command {
	opts := &execOptions{g: g}
	cmd := &cobra.Command{
		Use:   "exec [flags] COMMAND...",
		Short: "Time whole programs pinned to one CPU, interleaved when several",
		Long: `exec runs each COMMAND many times on one CPU and times every run from
start to exit: the child is started from the pinned thread and inherits the
pin, and benchy's other threads are kept off that CPU. Each argument is one
command line, split into words as a shell would (quotes, backslashes) but
run without one; --shell runs it with sh -c instead. Two commands or more
are measured in interleaved rounds (each round in an order drawn at random,
a row of a Williams design), each judged against the first.

Every run records its wall time, user and system time, the child's own peak
memory, context switches and page faults; the cost of starting a process is
measured once, and a command that takes less than ten times that is
flagged (spawn-dominated). The runs' times are also given as percentiles,
p50 to p99.9 with their intervals, each once there are runs enough (10
beyond it: 1000 runs for p99).`,
		Example: `  benchy exec 'sleep 0.01'
  benchy exec './prog-O0 input.txt' './prog-O2 input.txt'  # B faster than A?
  benchy exec --warmup 3 --prepare 'sync' 'sort big.txt'
  benchy exec -P n 1 4 'xz -{n} -k -c data.bin'
  benchy exec -L alg zstd,xz '{alg} -c data.bin' --format json --out r.json`,
		Args: func(cmd *cobra.Command, args []string) error {
			args = StrictArgs(cmd, &opts.Strict, args, g.Args)
			if len(args) == 0 {
				return Usagef("exec takes the commands to time, e.g. benchy exec 'sleep 0.01'")
			}
			opts.Commands = args
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.runsSet = cmd.Flags().Changed("runs")
			opts.stepSet = cmd.Flags().Changed("parameter-step-size")
			if runF != nil {
				return runF(opts)
			}
			return Measure(cmd, g, &opts.OutputOptions, &opts.PrecisionOptions, &opts.Measuring, func(w *Watcher) error {
				return execRun(opts, g.Stdout, w)
			})
		},
	}
	f := cmd.Flags()
	IntFlag(f, &opts.Runs, "runs", 0, "runs of each command (default: at least 10, and 3s of the slowest command's runs)")
	f.Lookup("runs").DefValue = ""
	IntFlag(f, &opts.Warmup, "warmup", 0, "untimed runs of each command first")
	f.StringVar(&opts.Prepare, "prepare", "", "run `CMD` (sh -c, untimed) before every run")
	f.StringVar(&opts.Setup, "setup", "", "run `CMD` (sh -c) once before the runs of each command")
	f.StringVar(&opts.Cleanup, "cleanup", "", "run `CMD` (sh -c) once after the runs of each command")
	f.StringVar(&opts.Input, "input", "", "standard input of every run (default /dev/null)")
	f.BoolVar(&opts.ShowOutput, "show-output", false, "show the runs' output (else it is discarded)")
	f.BoolVarP(&opts.IgnoreFailure, "ignore-failure", "i", false, "keep timing when a run exits non-zero")
	f.BoolVar(&opts.Shell, "shell", false, "run each command with sh -c (its start is timed too)")
	// -P and -L append to one list, in the order given: the product of
	// their values is expanded in that order.
	f.VarP(scanFlag{&opts.Scans}, "parameter-scan", "P", "`NAME LOW HIGH`: run with {NAME} from LOW to HIGH (once)")
	f.StringVarP(&opts.Step, "parameter-step-size", "D", "1", "step of -P")
	f.VarP(scanFlag{&opts.Scans}, "parameter-list", "L", "`NAME A,B,C`: run with {NAME} each of A, B, C (repeatable; with -P too)")
	opts.CPUOptions.Bind(f, "the runs")
	f.BoolVar(&opts.NoIsolate, "no-isolate", false, "let benchy's other threads run on the measured CPU")
	opts.ThresholdOption.Bind(f, "2%", "smallest change claimed as a difference between commands (`PCT`)")
	opts.count.Bind(f)
	opts.PrecisionOptions.Bind(f)
	opts.OutputOptions.Bind(cmd, g, execFormats, true)
	return cmd
}

// expandExecArgs rewrites hyperfine's flags of several words into one
// word each, which pflag can read: "-P n 1 5" becomes "-P n\x00p\x001\x005"
// and "-L n a,b" becomes "-L n\x00l\x00a,b". Main applies it to the words
// after "exec".
func expandExecArgs(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-P" || a == "--parameter-scan") && i+3 < len(args):
			out = append(out, a, strings.Join([]string{args[i+1], "p", args[i+2], args[i+3]}, "\x00"))
			i += 3
		case (a == "-L" || a == "--parameter-list") && i+2 < len(args):
			out = append(out, a, strings.Join([]string{args[i+1], "l", args[i+2]}, "\x00"))
			i += 2
		default:
			out = append(out, a)
		}
	}
	return out
}

// scanFlag is the value of -P and of -L: both append to one list, so
// that every scan is kept, in the order given (pflag's own string arrays
// would start a list of their own for each flag, the first time it is
// set, dropping what the other flag had added).
type scanFlag struct{ scans *[]string }

func (f scanFlag) Set(v string) error { *f.scans = append(*f.scans, v); return nil }
func (f scanFlag) String() string     { return "" }
func (f scanFlag) Type() string       { return "scan" }

// scans turns the -P and -L values into parameter scans: their product
// is what runs, as with hyperfine's several -L. There is one -P at most,
// as in hyperfine (a range is the scan; more parameters are listed with
// -L), and -D steps it.
func (o *execOptions) scans() ([]command.Scan, error) {
	var out []command.Scan
	ranges := 0
	for _, v := range o.Scans {
		if f := strings.Split(v, "\x00"); len(f) == 4 && f[1] == "p" {
			ranges++
		}
	}
	switch {
	case ranges > 1:
		return nil, Usagef("-P is given %d times: scan one parameter with -P NAME LOW HIGH, and list the others with -L NAME A,B,C", ranges)
	case ranges == 0 && o.stepSet:
		return nil, Usagef("-D %s is the step of -P: give -P NAME LOW HIGH too", result.Printable(o.Step))
	}
	for _, v := range o.Scans {
		f := strings.Split(v, "\x00")
		var s command.Scan
		var err error
		switch {
		case len(f) == 4 && f[1] == "p":
			s, err = command.ParseRange(f[0], f[2], f[3], o.Step)
		case len(f) == 3 && f[1] == "l":
			s, err = command.ParseList(f[0], f[2])
		default:
			return nil, Usagef("-P takes NAME LOW HIGH and -L NAME A,B,C, got %q", strings.ReplaceAll(v, "\x00", " "))
		}
		if err != nil {
			return nil, Usagef("%v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// execRun resolves the commands (every bad input is refused before
// anything runs), measures them through the pipeline and writes the
// result.
func execRun(o *execOptions, stdout io.Writer, w *Watcher) error {
	if err := o.validate(); err != nil {
		return err
	}
	expanded, err := o.expand()
	if err != nil {
		return err
	}
	sp := startSpawner(o.g.Stderr)
	defer sp.Close()
	if w != nil {
		w.OnExit(sp.Abort) // a second signal exits at once: the run in progress dies with benchy
	}
	ts, names, err := o.targets(expanded, sp)
	if err != nil {
		return err
	}
	plan := o.plan(ts, names, sp)
	r, err := runPlan(o.Ctx, plan, ts, o.Progress, o.g.Stderr, Estimate{Samples: plan.Settings.Samples, SampleTime: 100 * time.Millisecond, Window: o.Window}, w)
	if err != nil {
		return err
	}
	counted := make([]pipeline.Countable, len(ts))
	for i, t := range ts {
		counted[i] = t.(*command.Target)
	}
	if err := o.count.count(r, counted, nil, &o.Measuring); err != nil {
		return err
	}
	if err := o.Write(r, stdout, o.g.Stderr); err != nil {
		return err
	}
	if err := CountFailed(r); err != nil {
		return err
	}
	return RunExit(r, o.Strict)
}

// validate checks the flags of exec before anything runs.
func (o *execOptions) validate() error {
	if o.Runs < 0 || o.Runs > maxSamples || (o.runsSet && o.Runs == 0) {
		return Usagef("--runs %d: must be between 1 and %d", o.Runs, maxSamples)
	}
	if o.Warmup < 0 || o.Warmup > maxSamples {
		return Usagef("--warmup %d: must be between 0 and %d runs", o.Warmup, maxSamples)
	}
	if err := o.CPUOptions.Validate(); err != nil {
		return err
	}
	if err := CheckLive(o.g, "exec"); err != nil {
		return err
	}
	if err := o.count.Validate(); err != nil {
		return err
	}
	if o.count.On && (o.Setup != "" || o.Prepare != "" || o.Cleanup != "") {
		return Usagef("--measure instructions counts each command alone, without --setup, --prepare or --cleanup: leave them out, or count a script that runs them")
	}
	return o.ThresholdOption.Validate()
}

// expand is every command line with each combination of the -P and -L
// values substituted: what is measured.
func (o *execOptions) expand() ([]command.Expanded, error) {
	scans, err := o.scans()
	if err != nil {
		return nil, err
	}
	expanded, err := command.Expand(o.Commands, scans)
	if err != nil {
		return nil, Usagef("%v", err)
	}
	return expanded, nil
}

// startSpawner starts the process that starts the runs. It starts before
// anything is pinned, so it does not inherit a one-CPU mask; where it
// cannot start, benchy forks the runs itself and their peak memory may
// read benchy's own.
func startSpawner(stderr io.Writer) *command.Spawner {
	sp, err := command.NewSpawner()
	if err != nil {
		fmt.Fprintf(stderr, "benchy: %v; starting the runs from benchy itself\n", err)
		sp = command.NewLocalSpawner()
	}
	return sp
}

// targets makes a target of each expanded command, run through sp, and
// returns them with their names.
func (o *execOptions) targets(expanded []command.Expanded, sp *command.Spawner) ([]pipeline.Target, []string, error) {
	ts := make([]pipeline.Target, len(expanded))
	names := make([]string, len(expanded))
	seen := map[string]int{}
	for i, e := range expanded {
		// The same command twice (an A/A run, to see the noise floor) is
		// measured twice, the second named "CMD#2", as run --compare does.
		// The name is made as shown first (printable, a password
		// masked), so two command lines that show the same are numbered
		// apart too.
		e.Name = numbered(seen, command.Shown(e.Name))
		prepare, err := substituteHook("--prepare", o.Prepare, e.Params)
		if err != nil {
			return nil, nil, err
		}
		setup, err := substituteHook("--setup", o.Setup, e.Params)
		if err != nil {
			return nil, nil, err
		}
		cleanup, err := substituteHook("--cleanup", o.Cleanup, e.Params)
		if err != nil {
			return nil, nil, err
		}
		t, err := command.New(o.Ctx, command.Config{
			Name: e.Name, Command: e.Command, Shell: o.Shell, Setup: setup, Prepare: prepare, Cleanup: cleanup,
			Input: o.Input, ShowOutput: o.ShowOutput, IgnoreFailure: o.IgnoreFailure, Params: e.Params,
			Executor: sp,
		})
		if err != nil {
			return nil, nil, Usagef("%v", err)
		}
		ts[i], names[i] = t, t.Name()
	}
	return ts, names, nil
}

// substituteHook puts the parameters of one expansion into the command
// line of a hook (--prepare, --setup, --cleanup), so each expansion
// prepares its own run.
func substituteHook(flag, line string, params []command.Param) (string, error) {
	s, err := command.Substitute(line, params)
	if err != nil {
		return "", Usagef("%s: %v", flag, err)
	}
	return s, nil
}

// plan is how ts are measured: --runs of each, or hyperfine's default;
// several commands in interleaved rounds in random order, each judged
// against the first.
func (o *execOptions) plan(ts []pipeline.Target, names []string, sp *command.Spawner) pipeline.Plan {
	runs, minTime := o.Runs, time.Duration(0)
	if !o.runsSet {
		runs, minTime = execMinRuns, execMinTime
	}
	plan := pipeline.Plan{
		Settings: result.Settings{Samples: runs, WarmupRuns: o.Warmup, Iters: 1, Isolate: !o.NoIsolate, Window: o.Window},
		CPU:      o.CPU, CPUSet: o.CPUSet, MinTime: minTime,
		Tool: "benchy " + Version, Command: o.g.Args,
		Annotate: func(r *result.Result) {
			r.SpawnNs = float64(sp.SpawnCost().Nanoseconds())
			recordCleanups(r, ts)
		},
	}
	o.PrecisionOptions.Settings(&plan.Settings)
	if len(ts) > 1 {
		plan.Settings.Compare, plan.Settings.Threshold = names, o.Value
		plan.RandomOrder = true
		plan.Group = len(ts)
	}
	return plan
}

// recordCleanups makes a --cleanup that failed, or was stopped, the
// error of its experiment (after any error of its own), so the result
// holds it and the exit code says it (1, naming the command). The
// samples are kept: they were measured before the cleanup ran.
func recordCleanups(r *result.Result, ts []pipeline.Target) {
	for _, pt := range ts {
		t := pt.(*command.Target)
		err := t.CleanupErr()
		if err == nil {
			continue
		}
		for i := range r.Experiments {
			if e := &r.Experiments[i]; e.Name == t.Name() {
				e.Error = strings.TrimPrefix(e.Error+"; "+err.Error(), "; ")
			}
		}
	}
}
