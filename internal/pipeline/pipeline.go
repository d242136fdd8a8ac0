// Package pipeline is the one place a measurement is orchestrated, for
// every kind of target: read the machine, choose and pin the CPU, measure
// the clock, measure the targets (one after another, or interleaved in
// rounds), read the machine again, and analyze. The commands turn flags into
// a Plan and write what Run returns; the targets say what a sample is.
//
// Data flows one way: pipeline -> {machine, harness, counters} -> analyze.
package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/cpulock"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/fit"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// Target is one experiment as the pipeline sees it: a harness target that
// also says what it is, what it could count, and what its code shows.
type Target interface {
	harness.Target
	// Info is what the experiment declares of itself.
	Info() result.Info
	// Counters says which counters the target read and why others could
	// not be; known after Open.
	Counters() result.CounterReport
	// Check judges the target's code after measuring (the machine code of
	// an in-process loop); nil when there is nothing to check.
	Check() []finding.Finding
}

// Profiled is a target that profiled its measured calls (--profile): its
// Profile, read after its samples, is the experiment's.
type Profiled interface {
	Profile() *result.Profile
}

// Latencied is a target that timed its calls one by one (run
// --latency): its Latency, read after its samples, is the experiment's.
type Latencied interface {
	Latency() *result.Latency
}

// MeasuredAsGoTest is a target that may have measured its benchmark
// again as go test runs it (after its Check): the experiment keeps it.
type MeasuredAsGoTest interface {
	AtGoTestSettings() *result.AtSettings
}

// Plan is what to measure and how: the settings the result records, and
// what only the run needs.
type Plan struct {
	Settings result.Settings
	// CPU is the CPU to pin to when CPUSet; else the machine package
	// chooses one.
	CPU    int
	CPUSet bool
	// CPUWhy is why CPU was chosen when CPUSet, as the result records it
	// ("" for "--cpu N": the user's choice).
	CPUWhy string
	// NoCheck skips Target.Check (--no-asm).
	NoCheck bool
	// GOMAXPROCS, when > 0, is what the targets are measured at
	// (harness.Options.GOMAXPROCS), recorded as the run's: benchy run's
	// loops in its own process, at 1 by default, as taskset -c CPU go
	// test runs a benchmark.
	GOMAXPROCS int
	// MinTime keeps sampling past Settings.Samples until the samples of
	// each target lasted that long (harness.Options.MinTime).
	MinTime time.Duration
	// Group is how many consecutive targets are measured together in
	// interleaved rounds: 0 or 1 one after another, len(targets) all of
	// them (run --compare), 2 in pairs (two revisions of each benchmark).
	Group int
	// RandomOrder has the interleaved rounds draw their orders at random
	// from a seed drawn for the run and recorded (Settings.RoundSeed),
	// where rounds are many and short (run --compare, exec); without it
	// they take the design's rows in turn.
	RandomOrder bool
	// Prepare, when not nil, makes the targets once the CPU is chosen and
	// the machine read (a Go test binary calibrates on that CPU), in place
	// of the targets given to Run; an error ends the run unmeasured.
	Prepare func(ctx context.Context, cpu int) ([]Target, error) `json:"-"`
	// Annotate, when not nil, adds to the result what only the command
	// knows (the cost of starting a process) before it is analyzed.
	Annotate func(*result.Result) `json:"-"`
	// Remeasure is how many more times an experiment the machine slowed
	// is measured, on the fastest free CPU then (remeasure.go); 0 never.
	Remeasure int
	// StayOnCPU measures again on the run's CPU only, as with --cpu N, and
	// never moves the run: each process of --processes, whose samples are
	// all to be taken on the CPU the first chose.
	StayOnCPU bool
	// MemoryLimit is the soft memory limit the targets set while
	// measuring (0 for none), recorded in the result.
	MemoryLimit int64
	// Tool, Command and Package are recorded in the result.
	Tool    string
	Command []string
	Package string
	// Progress, when not nil, is told what is being done.
	Progress func(harness.Progress) `json:"-"`
	// Notes, when not nil, is told before measuring what the user should
	// know at once: the CPU (--cpu) ran the reference loop slower than an
	// idle one.
	Notes io.Writer `json:"-"`
	// Opened, when not nil, is the busy window, opened before the run
	// (benchy gotest builds while it is open), and Own the CPU time of
	// that work on each CPU, taken out of it (sysread.ReadOptions).
	Opened *sysread.Window                       `json:"-"`
	Own    func() (map[int]time.Duration, error) `json:"-"`
}

// Progress is what a run tells of itself as it goes (harness.Progress).
type Progress = harness.Progress

// MaxIters is the most iterations one sample may hold (harness.MaxIters).
const MaxIters = harness.MaxIters

// Windows of the clock measurements: the effective clock before and after
// the run, and the probes around every experiment. Smoke runs use shorter
// ones (a shorter chain reads the clock low now and then).
const (
	clockWindow      = 20 * time.Millisecond
	smokeClockWindow = 10 * time.Millisecond
	probeWindow      = 5 * time.Millisecond
	smokeProbeWindow = 3 * time.Millisecond
)

// ErrUsage marks an error in the plan (a CPU that cannot be used): the
// command reports it as bad usage. Match it with errors.Is: the error's
// message is the complaint alone, with no prefix to remove.
var ErrUsage = errors.New("bad usage")

// usageError is an error in the plan, which is ErrUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string        { return e.msg }
func (e *usageError) Is(target error) bool { return target == ErrUsage }

// Usagef makes an error in the plan.
func Usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// Run measures the targets as plan says and returns the analyzed result.
// An error means nothing was measured; a target that failed is recorded in
// the result instead. A cancelled ctx ends the run after the current
// sample, and the result holds what was measured, marked interrupted;
// cancelled before anything was measured, the error wraps ctx.Err()
// (context.Canceled). It reads as its three steps: read the machine and
// claim a CPU, measure, assemble what was measured.
func Run(ctx context.Context, plan Plan, ts []Target) (*result.Result, error) {
	r, lock, err := readAndClaim(ctx, plan, len(ts))
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	ts, outs, err := measureOn(ctx, r, plan, ts)
	if err != nil {
		return nil, err
	}
	for _, out := range outs {
		// A target that cannot be measured as asked is the command's
		// usage: one line, no result.
		if errors.Is(out.Err, harness.ErrRefused) {
			return nil, Usagef("%s", strings.TrimPrefix(out.Err.Error(), harness.ErrRefused.Error()+": "))
		}
	}
	assemble(ctx, r, plan, ts, outs)
	r.DropMiscountedOnCPU()
	analyze.Analyze(r)
	return r, nil
}

// root is the machine a run reads: this one.
const root = "/"

// CheckCPU refuses a CPU the user named (--cpu) that cannot be used, from
// a read without a busy window: before the window, not a second (or a
// minute) later.
func CheckCPU(plan Plan) error {
	if !plan.CPUSet {
		return nil
	}
	quick, err := sysread.Read(context.Background(), root, sysread.ReadOptions{Live: true})
	if err != nil {
		return fmt.Errorf("read the machine: %w", err)
	}
	_, _, err = pickCPU(quick, plan)
	return err
}

// readAndClaim reads the machine (over the busy window), chooses the CPU
// and takes its lock, and starts the result with what is known before
// anything is measured.
func readAndClaim(ctx context.Context, plan Plan, targets int) (*result.Result, *cpulock.Lock, error) {
	start := time.Now().UTC()
	if err := CheckCPU(plan); err != nil {
		return nil, nil, err
	}
	if plan.Progress != nil {
		plan.Progress(harness.Progress{Phase: "reading the machine", Total: targets})
	}
	opts := sysread.ReadOptions{Live: true, Window: plan.Settings.Window, Opened: plan.Opened, Own: plan.Own}
	if harness.CanPin {
		opts.Probe = harness.ProbeSpeeds
	}
	snap, err := sysread.Read(ctx, root, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("read the machine: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("stopped before anything was measured: %w", err)
	}
	cpu, choice, lock, shared, err := claimCPU(snap, plan)
	if err != nil {
		return nil, nil, err
	}
	if slow := fit.SlowWords(snap, cpu); slow != "" && plan.Notes != nil {
		fmt.Fprintf(plan.Notes, "benchy: %s: the host or another hardware thread takes part of that core, so times measured there read slow\n", slow)
	}
	// Go re-derives GOMAXPROCS from the affinity mask unless it is set
	// explicitly; set it, so pinning does not change the program.
	gomaxprocs := runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(gomaxprocs)
	if plan.GOMAXPROCS > 0 && harness.CanPin {
		gomaxprocs = plan.GOMAXPROCS // what the experiments ran at
	}
	r := &result.Result{
		Schema:      result.SchemaVersion,
		Tool:        plan.Tool,
		Command:     plan.Command,
		Package:     plan.Package,
		Start:       start,
		CPU:         cpu,
		CPUChoice:   choice,
		GOMAXPROCS:  gomaxprocs,
		Settings:    plan.Settings,
		GOOS:        runtime.GOOS,
		GOARCH:      runtime.GOARCH,
		GoVersion:   runtime.Version(),
		Before:      snap,
		Environment: fit.Check(snap, cpu),
		SharedCPU:   shared,
	}
	if plan.RandomOrder && plan.Group > 1 {
		r.Settings.RoundSeed = harness.NewRoundSeed()
	}
	if model, ok := snap.CPUModel.Get(); ok {
		r.CPUModel = model
	}
	for _, c := range snap.CPUs {
		if gov, ok := c.Governor.Get(); ok && c.CPU == cpu {
			r.Governor = gov
		}
	}
	return r, lock, nil
}

// harnessOptions are the harness's settings for the plan on cpu.
func harnessOptions(plan Plan, cpu int) harness.Options {
	st := plan.Settings
	probeWin := probeWindow
	if st.Smoke {
		probeWin = smokeProbeWindow
	}
	return harness.Options{
		CPU: cpu, Unpinned: !harness.CanPin, GOMAXPROCS: plan.GOMAXPROCS, Samples: st.Samples, Warmup: st.Warmup, WarmupRuns: st.WarmupRuns,
		SampleTime: st.SampleTime, Iters: st.Iters, Isolate: st.Isolate, Progress: plan.Progress,
		MinTime: plan.MinTime, TargetCI: st.TargetCI, MaxTime: st.MaxTime,
		Looks: st.Looks, MinRounds: compare.MinRounds(len(st.Compare) - 1),
		Decided:      func(outs []harness.Outcome) bool { return decided(st, outs) },
		CheckSamples: harness.CanPin,
		Probe: func() harness.Probe {
			return harness.Probe{ClockHz: counters.MeasureClock(probeWin), RefNs: harness.ReferenceLoopNs(probeWin)}
		},
	}
}

// measureOn measures the targets on r's CPU: the clock and the effective
// clock before, the targets (made by plan.Prepare when it is set), how
// busy every CPU was meanwhile, and the effective clock after. It returns
// the targets measured and their outcomes.
func measureOn(ctx context.Context, r *result.Result, plan Plan, ts []Target) ([]Target, []tried, error) {
	cpu := r.CPU
	clockWin := clockWindow
	if plan.Settings.Smoke {
		clockWin = smokeClockWindow
	}
	hopts := harnessOptions(plan, cpu)
	hopts.RoundSeed = r.Settings.RoundSeed
	if b := plan.Settings.RoundsBudget; b > 0 {
		hopts.Deadline = r.Start.Add(b) // the whole run's time, not only the rounds'
	}
	var before, after clockReading
	if err := harness.OnThread(hopts, func() error {
		if hopts.Isolate {
			if n := harness.OthersOn(cpu); n > 0 { // 0 where nothing can be pinned
				r.NotIsolated = fmt.Sprintf("%s of this process could not be kept off cpu%d: the process may run on no other CPU (taskset, a cpuset)", units.Count(n, "other thread"), cpu)
			}
		}
		hopts.Clock = harness.MeasureClock()
		before = readClock(root, cpu, clockWin)
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("pin to cpu %d: %w", cpu, err)
	}
	r.Clock = result.Clock{NowCostNs: hopts.Clock.NowCostNs, GranularityNs: float64(hopts.Clock.Granularity.Nanoseconds())}
	ts, err := prepared(ctx, plan, cpu, ts)
	if err != nil {
		return nil, nil, err
	}
	statBefore, statErr := sysread.ReadStat(root)
	outs := measureEach(ctx, r, plan, ts, hopts, before.chainHz)
	statAfter, statErr2 := sysread.ReadStat(root)
	if statErr == nil && statErr2 == nil {
		r.BusyDuring = sysread.Busy(statBefore, statAfter)
	}
	harness.OnThread(hopts, func() error {
		after = readClock(root, cpu, clockWin)
		return nil
	})
	r.MaxFreqHz, r.MaxFreqSource = maxFreq(r.Before, cpu)
	r.EffectiveClock = effectiveClock(before, after, r.MaxFreqHz)
	return ts, outs, nil
}

// decided is compare.Decided on the rounds so far: the first outcome is
// the baseline.
func decided(st result.Settings, outs []harness.Outcome) bool {
	es := make([]result.Experiment, len(outs))
	for i, o := range outs {
		es[i] = result.Experiment{Name: o.Name, Samples: o.Samples}
	}
	return compare.Decided(st, es)
}

// assemble completes r after the measurement: the machine after, the
// memory, one experiment per outcome with the findings of its code, and
// whether the run was interrupted; then what the command adds.
func assemble(ctx context.Context, r *result.Result, plan Plan, ts []Target, outs []tried) {
	r.After, _ = sysread.Read(ctx, root, sysread.ReadOptions{Live: true})
	r.End = time.Now().UTC()
	r.MemoryLimit = plan.MemoryLimit
	if peak, ok := sysread.PeakRSS(); ok {
		r.PeakRSS = peak
	}
	for i, out := range outs {
		t := ts[i]
		r.RoundsStop = cmp.Or(r.RoundsStop, out.Stop)
		if len(r.Counters.Opened) == 0 {
			r.Counters = t.Counters()
		}
		e := experimentOf(t.Info(), out.Outcome)
		e.CPU, e.Attempts = remeasuredOn(out, r.CPU), out.earlier
		if p, ok := t.(Profiled); ok {
			e.Profile = p.Profile()
		}
		if l, ok := t.(Latencied); ok {
			e.Latency = l.Latency()
		}
		if !plan.NoCheck {
			e.Findings = append(e.Findings, t.Check()...)
		}
		if g, ok := t.(MeasuredAsGoTest); ok {
			e.AtGoTestSettings = g.AtGoTestSettings()
		}
		if !harness.CanPin {
			e.Findings = append(e.Findings, notPinned())
		}
		r.Experiments = append(r.Experiments, e)
		if out.Interrupted {
			r.Interrupted = true
		}
	}
	if len(outs) < len(ts) || ctx.Err() != nil {
		r.Interrupted = true
	}
	if plan.Annotate != nil {
		plan.Annotate(r)
	}
}

// prepared are the targets plan.Prepare makes, or ts without it; a stop
// while preparing (a test binary calibrating) is an error that wraps
// context.Canceled.
func prepared(ctx context.Context, plan Plan, cpu int, ts []Target) ([]Target, error) {
	if plan.Prepare == nil {
		return ts, nil
	}
	ts, err := plan.Prepare(ctx, cpu)
	if errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("stopped before anything was measured: %w", err)
	}
	return ts, err
}

// measure measures the targets one after another, or in interleaved
// groups of group consecutive targets.
func measure(ctx context.Context, ts []harness.Target, opts harness.Options, group int) []harness.Outcome {
	if group <= 1 {
		return harness.Run(ctx, ts, opts)
	}
	var outs []harness.Outcome
	for start := 0; start < len(ts) && ctx.Err() == nil; start += group {
		outs = append(outs, harness.Interleave(ctx, ts[start:min(start+group, len(ts))], opts)...)
	}
	return outs
}

// claimCPU picks the CPU and takes its lock (cpulock), so that two benchy
// processes do not measure on one CPU unknowingly: without --cpu, the best
// CPU no other benchy holds; with --cpu, that CPU, and shared says so when
// another benchy holds it (as it does when every CPU is held). A lock that
// could not be taken at all does not stop the run, but shared says so: a
// second benchy on the CPU would go unseen.
func claimCPU(s *machine.Snapshot, plan Plan) (cpu int, why string, lock *cpulock.Lock, shared string, err error) {
	if !harness.CanPin || plan.CPUSet {
		cpu, why, err = pickCPU(s, plan)
		if err != nil || !harness.CanPin {
			return cpu, why, nil, "", err
		}
		l, held, lockErr := cpulock.TryLock(cpu)
		switch {
		case held:
			shared = fmt.Sprintf("another benchy process is measuring on cpu%d (--cpu %d): the two take turns on it", cpu, cpu)
		case lockErr != nil:
			shared = unlocked(cpu, lockErr)
		}
		return cpu, why, l, shared, nil
	}
	cs, err := fit.RankCPUs(s)
	if err != nil {
		return 0, "", nil, "", fmt.Errorf("choose a cpu: %w", err)
	}
	var taken []string
	for _, c := range cs {
		l, held, lockErr := cpulock.TryLock(c.CPU)
		if held {
			taken = append(taken, fmt.Sprintf("cpu%d", c.CPU))
			continue
		}
		why = c.Why
		if len(taken) > 0 {
			why += ", " + strings.Join(taken, ", ") + " taken by another benchy"
		}
		if lockErr != nil {
			shared = unlocked(c.CPU, lockErr)
		}
		return c.CPU, why, l, shared, nil
	}
	shared = fmt.Sprintf("every available CPU has another benchy process measuring on it: this one shares cpu%d", cs[0].CPU)
	return cs[0].CPU, cs[0].Why, nil, shared, nil
}

// unlocked says that the lock of cpu could not be taken (err says why).
func unlocked(cpu int, err error) string {
	return fmt.Sprintf("%v; another benchy process measuring on cpu%d would not be seen", err, cpu)
}

// pickCPU validates the plan's CPU or lets the machine package choose.
// Where the system cannot pin, there is no CPU to choose: -1.
func pickCPU(s *machine.Snapshot, plan Plan) (int, string, error) {
	if !harness.CanPin {
		if plan.CPUSet {
			return 0, "", Usagef("--cpu %d: pinning needs Linux (sched_setaffinity); this is %s", plan.CPU, runtime.GOOS)
		}
		return -1, "unknown: not pinned (pinning needs Linux)", nil
	}
	if plan.CPUSet {
		if err := fit.ValidateCPU(s, plan.CPU); err != nil {
			return 0, "", Usagef("%v", err)
		}
		return plan.CPU, cmp.Or(plan.CPUWhy, fmt.Sprintf("--cpu %d", plan.CPU)), nil
	}
	cpu, why, err := fit.ChooseCPU(s)
	if err != nil {
		return 0, "", fmt.Errorf("choose a cpu: %w", err)
	}
	return cpu, why, nil
}

// experimentOf turns a harness outcome into the result's raw record; the
// derived parts are filled by analyze.Analyze.
func experimentOf(info result.Info, o harness.Outcome) result.Experiment {
	e := result.NewExperiment(info)
	e.Iters = o.Iters
	if o.Samples != nil {
		e.Samples = o.Samples
	}
	if o.Err != nil {
		e.Error = o.Err.Error()
	}
	t := o.Totals
	e.GC = result.GCStats{Cycles: t.GCCycles, Forced: t.ForcedGC, AllocsPerOp: t.AllocsPerOp, BytesPerOp: t.BytesPerOp}
	if o.Before.ClockHz > 0 && o.After.ClockHz > 0 {
		e.Clock = &result.EffectiveClock{BeforeHz: o.Before.ClockHz, AfterHz: o.After.ClockHz, Source: "dependent-add chain"}
	}
	if o.Before.RefNs > 0 && o.After.RefNs > 0 {
		e.Reference = &result.Reference{BeforeNs: o.Before.RefNs, AfterNs: o.After.RefNs}
	}
	return e
}

// notPinned is the finding of every experiment measured where benchy
// cannot pin: the thread may have moved between CPUs of any speed.
func notPinned() finding.Finding {
	return finding.Finding{Code: result.CodeNotPinned, Severity: finding.Warn,
		Message: fmt.Sprintf("not pinned: %s has no sched_setaffinity, so the measured thread could move between CPUs and share them with any other thread", runtime.GOOS)}
}
