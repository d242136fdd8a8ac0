package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/asm"
	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/report"
	"github.com/benchy-dev/benchy/internal/workload"
)

// runOptions are the flags of `benchy run`.
type runOptions struct {
	g *globalOptions

	CPU          int
	CPUSet       bool // --cpu was given
	Bench        string
	Samples      int
	Warmup       time.Duration
	SampleTime   time.Duration
	Window       time.Duration
	Iters        int64
	GC           bool
	NoIsolate    bool
	NoAsm        bool
	Smoke        bool
	Format       string
	Out          string
	SamplesFile  string
	Strict       string // "", "error" or "warn"
	Compare      string // "A,B[,C...]": interleaved comparison
	Threshold    string // smallest change claimed, "2%" or "0.02"
	threshold    float64
	benchSet     bool // --bench was given
	thresholdSet bool // --threshold was given

	// Stop ends the run after the current sample (Ctrl-C); Progress, when
	// not nil, receives a progress line (a terminal's stderr).
	Stop     <-chan struct{}
	Progress io.Writer
}

// Limits of the flags, checked before anything is measured.
const (
	maxSamples = 100000
)

// Smoke settings: every experiment, 3 short samples, so CI learns in
// seconds that benchy and the experiments still work. Not for numbers.
const (
	smokeSamples    = 3
	smokeSampleTime = time.Millisecond
	smokeWarmup     = 2 * time.Millisecond
	smokeWindow     = 100 * time.Millisecond
	clockWindow     = 20 * time.Millisecond // effective clock measurement
	smokeClockWin   = 10 * time.Millisecond // shorter reads the clock low now and then
	probeWindow     = 5 * time.Millisecond  // the clock around each experiment
	smokeProbeWin   = 3 * time.Millisecond
)

func init() { commands = append(commands, newRunCmd) }

func newRunCmd(g *globalOptions) *cobra.Command {
	opts := &runOptions{g: g}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Measure the built-in experiments pinned to one CPU",
		Long: `run measures each experiment on one CPU: it pins the measured thread,
keeps Go's other threads off that CPU, turns the collector off, warms up,
calibrates the iterations per sample and takes many samples. It prints the
state of the machine, min/median/p90/max per op, and what to believe.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.CPUSet = cmd.Flags().Changed("cpu")
			opts.benchSet = cmd.Flags().Changed("bench")
			opts.thresholdSet = cmd.Flags().Changed("threshold")
			if opts.Smoke {
				if !cmd.Flags().Changed("samples") {
					opts.Samples = smokeSamples
				}
				if !cmd.Flags().Changed("sample-time") {
					opts.SampleTime = smokeSampleTime
				}
				if !cmd.Flags().Changed("warmup") {
					opts.Warmup = smokeWarmup
				}
				if !cmd.Flags().Changed("window") {
					opts.Window = smokeWindow
				}
			}
			stop, done := make(chan struct{}), make(chan struct{})
			sig := make(chan os.Signal, 1)
			signal.Notify(sig, os.Interrupt)
			defer func() {
				signal.Stop(sig)
				close(done)
			}()
			go func() {
				// The first Ctrl-C stops after the current sample and
				// writes what was measured; a second one ends at once,
				// leaving no temporary file behind.
				for n := 0; ; n++ {
					select {
					case <-done:
						return
					case <-sig:
					}
					if n == 0 {
						close(stop)
						continue
					}
					removePendingTemp()
					fmt.Fprintln(g.Stderr, "benchy: interrupted twice: exiting without writing a result")
					os.Exit(ExitInterrupted)
				}
			}()
			opts.Stop = stop
			if isTerminal(g.Stderr) {
				opts.Progress = g.Stderr
			}
			return runRun(opts, g.Stdout)
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.CPU, "cpu", -1, "pin the measured thread to CPU `N` (default: benchy chooses)")
	f.Lookup("cpu").DefValue = "0" // read as "no default shown": the help says who chooses
	f.StringVar(&opts.Bench, "bench", ".", "run the experiments whose name matches `REGEXP`")
	f.IntVar(&opts.Samples, "samples", 31, "samples per experiment (1-100000)")
	f.DurationVar(&opts.Warmup, "warmup", 100*time.Millisecond, "warm-up time per experiment")
	f.DurationVar(&opts.SampleTime, "sample-time", 10*time.Millisecond, "least duration of one sample")
	f.DurationVar(&opts.Window, "window", time.Second, "busy window of the machine header")
	f.Int64Var(&opts.Iters, "iters", 0, "fixed iterations per sample (default: calibrated)")
	f.BoolVar(&opts.GC, "gc", false, "leave the garbage collector on while measuring")
	f.BoolVar(&opts.NoIsolate, "no-isolate", false, "let Go's other threads run on the measured CPU")
	f.BoolVar(&opts.NoAsm, "no-asm", false, "do not check the machine code of each measured loop")
	f.BoolVar(&opts.Smoke, "smoke", false, "quick check for CI: 3 samples of ~1ms, numbers not to be trusted")
	f.StringVar(&opts.Format, "format", "text", "output format: "+strings.Join(report.Formats, ", "))
	f.StringVarP(&opts.Out, "out", "o", "", "write the result to `FILE` (atomically) instead of stdout")
	f.StringVar(&opts.SamplesFile, "samples-file", "", "also write every raw sample as CSV to `FILE`")
	f.StringVar(&opts.Strict, "strict", "", "exit 3 when a result is not believable; --strict=warn also when doubtful")
	f.Lookup("strict").NoOptDefVal = "error"
	f.StringVar(&opts.Compare, "compare", "", "compare experiments `A,B[,C...]` in interleaved rounds, A the baseline")
	f.StringVar(&opts.Threshold, "threshold", "2%", "with --compare: smallest change claimed as a difference (`PCT`)")
	return cmd
}

// validate checks every flag before anything is measured.
func (o *runOptions) validate() (_ *regexp.Regexp, err error) {
	if o.Samples < 1 || o.Samples > maxSamples {
		return nil, Usagef("--samples %d: must be between 1 and %d", o.Samples, maxSamples)
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--warmup", o.Warmup}, {"--sample-time", o.SampleTime}, {"--window", o.Window}} {
		if d.v <= 0 {
			return nil, Usagef("%s %v: must be a positive duration, e.g. 100ms", d.flag, d.v)
		}
	}
	if o.Window > maxWindow {
		return nil, Usagef("--window %v: must be at most %v", o.Window, maxWindow)
	}
	if o.Iters < 0 {
		return nil, Usagef("--iters %d: must be positive (or 0 to calibrate)", o.Iters)
	}
	if err := checkFormat(o.Format, report.Formats); err != nil {
		return nil, err
	}
	if o.Strict != "" && o.Strict != "error" && o.Strict != "warn" {
		return nil, Usagef("--strict=%s: valid values are error (the default) and warn", o.Strict)
	}
	if o.threshold, err = parseFraction("--threshold", o.Threshold); err != nil {
		return nil, err
	}
	if o.Compare == "" && o.thresholdSet {
		return nil, Usagef("--threshold applies to --compare: name the experiments to compare, e.g. --compare concat/quadratic,concat/builder")
	}
	if o.Compare != "" && o.benchSet {
		return nil, Usagef("--compare and --bench both choose experiments: use one")
	}
	re, err := regexp.Compile(o.Bench)
	if err != nil {
		return nil, Usagef("--bench %q: not a Go regular expression: %v", o.Bench, err)
	}
	if err := checkWritable("--out", o.Out); err != nil {
		return nil, err
	}
	if err := checkWritable("--samples-file", o.SamplesFile); err != nil {
		return nil, err
	}
	if !o.g.Live() {
		return nil, Usagef("run measures this machine: --sysroot is only for reading a machine (benchy machine)")
	}
	return re, nil
}

// selectWorkloads returns the experiments whose name matches re.
func selectWorkloads(re *regexp.Regexp) ([]harness.Workload, error) {
	var ws []harness.Workload
	for _, w := range workload.All() {
		if re.MatchString(w.Name) {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return nil, Usagef("--bench %q matches no experiment (see benchy list)", re.String())
	}
	return ws, nil
}

// compareWorkloads looks up the experiments named in --compare. A name
// given twice (an A/A run, to see the noise floor) is measured twice, the
// second copy named "NAME#2" so the result keeps them apart.
func compareWorkloads(list string) ([]harness.Workload, error) {
	names := strings.Split(list, ",")
	if len(names) < 2 {
		return nil, Usagef("--compare %q: name at least two experiments, e.g. --compare concat/quadratic,concat/builder", list)
	}
	seen := map[string]int{}
	var ws []harness.Workload
	for _, name := range names {
		name = strings.TrimSpace(name)
		w, ok := workload.Lookup(name)
		if !ok {
			return nil, Usagef("--compare: no experiment %q (see benchy list)", name)
		}
		seen[name]++
		if n := seen[name]; n > 1 {
			w.Name = fmt.Sprintf("%s#%d", name, n)
		}
		ws = append(ws, w)
	}
	return ws, nil
}

// runRun measures and writes the result. It returns an error whose exit
// code says how the run went (see exit.go).
func runRun(o *runOptions, stdout io.Writer) error {
	re, err := o.validate()
	if err != nil {
		return err
	}
	var ws []harness.Workload
	if o.Compare != "" {
		ws, err = compareWorkloads(o.Compare)
	} else {
		ws, err = selectWorkloads(re)
	}
	if err != nil {
		return err
	}

	start := time.Now().UTC()
	snap, err := machine.Read(o.g.Sysroot, machine.ReadOptions{Live: true, Window: o.Window})
	if err != nil {
		return fmt.Errorf("read the machine: %w", err)
	}
	cpu, choice, err := pickCPU(snap, o.CPU, o.CPUSet)
	if err != nil {
		return err
	}
	// Go re-derives GOMAXPROCS from the affinity mask unless it is set
	// explicitly; set it, so pinning does not change the program.
	gomaxprocs := runtime.GOMAXPROCS(0)
	runtime.GOMAXPROCS(gomaxprocs)

	r := &report.Result{
		Schema:     report.SchemaVersion,
		Tool:       "benchy " + Version,
		Command:    o.g.Args,
		Start:      start,
		CPU:        cpu,
		CPUChoice:  choice,
		GOMAXPROCS: gomaxprocs,
		Settings: report.Settings{
			Bench: o.Bench, Samples: o.Samples, Warmup: o.Warmup, SampleTime: o.SampleTime,
			Iters: o.Iters, GC: o.GC, Isolate: !o.NoIsolate, Smoke: o.Smoke, Window: o.Window,
		},
		GOOS:        runtime.GOOS,
		GOARCH:      runtime.GOARCH,
		GoVersion:   runtime.Version(),
		Before:      snap,
		Environment: machine.Check(snap, cpu),
	}
	if model, ok := snap.CPUModel.Get(); ok {
		r.CPUModel = model
	}
	for _, c := range snap.CPUs {
		if gov, ok := c.Governor.Get(); ok && c.CPU == cpu {
			r.Governor = gov
		}
	}

	clockWin, probeWin := clockWindow, probeWindow
	if o.Smoke {
		clockWin, probeWin = smokeClockWin, smokeProbeWin
	}
	var clock harness.ClockInfo
	var before, after clockReading
	if err := harness.Pinned(cpu, !o.NoIsolate, func() error {
		clock = harness.MeasureClock()
		before = readClock(o.g.Sysroot, cpu, clockWin)
		return nil
	}); err != nil {
		return fmt.Errorf("pin to cpu %d: %w", cpu, err)
	}
	r.Clock = report.Clock{NowCostNs: clock.NowCostNs, GranularityNs: float64(clock.Granularity.Nanoseconds())}

	var counterReport counters.Report
	hopts := harness.Options{
		CPU: cpu, Samples: o.Samples, Warmup: o.Warmup, SampleTime: o.SampleTime, Iters: o.Iters,
		GC: o.GC, Isolate: !o.NoIsolate, Clock: clock, Stop: o.Stop,
		CounterDelta: counters.Delta,
		Probe: func() harness.Probe {
			return harness.Probe{ClockHz: counters.MeasureClock(probeWin), RefNs: harness.ReferenceLoopNs(probeWin)}
		},
		OpenCounters: func() (harness.CounterSource, error) {
			src, rep := counters.Open()
			counterReport = rep
			return src, nil
		},
	}
	if o.Progress != nil {
		p := newProgress(o.Progress, ws, o)
		hopts.Progress = p.update
		defer p.clear()
	}

	statBefore, statErr := machine.ReadStat(o.g.Sysroot)
	var outs []harness.Outcome
	if o.Compare != "" {
		r.Settings.Bench = ""
		r.Settings.Threshold = o.threshold
		for _, w := range ws {
			r.Settings.Compare = append(r.Settings.Compare, w.Name)
		}
		outs = harness.Interleave(ws, hopts)
	} else {
		outs = harness.Run(ws, hopts)
	}
	statAfter, statErr2 := machine.ReadStat(o.g.Sysroot)
	if statErr == nil && statErr2 == nil {
		r.BusyDuring = machine.Busy(statBefore, statAfter)
	}

	harness.Pinned(cpu, !o.NoIsolate, func() error {
		after = readClock(o.g.Sysroot, cpu, clockWin)
		return nil
	})
	r.After, _ = machine.Read(o.g.Sysroot, machine.ReadOptions{Live: true})
	r.End = time.Now().UTC()
	r.Counters = counterReport
	r.MaxFreqHz, r.MaxFreqSource = maxFreq(snap, cpu)
	r.EffectiveClock = effectiveClock(before, after, r.MaxFreqHz)

	failed := false
	for i, out := range outs {
		e := experimentOf(out)
		if out.Err != nil {
			failed = true
		}
		if !o.NoAsm {
			e.Findings = append(e.Findings, asmFindings(ws[i])...)
		}
		r.Experiments = append(r.Experiments, e)
		if out.Interrupted {
			r.Interrupted = true
		}
	}
	if len(outs) < len(ws) || harness.Stopped(o.Stop) {
		r.Interrupted = true
	}
	report.Analyze(r)

	if err := writeResult(o, r, stdout); err != nil {
		return err
	}
	switch {
	case r.Interrupted:
		return &ExitError{Code: ExitInterrupted, Msg: "interrupted: the result holds what was measured"}
	case failed:
		return &ExitError{Code: ExitFailed, Msg: "some experiments failed (see the result)"}
	}
	return strictError(r, o.Strict)
}

// pickCPU validates --cpu or lets the machine package choose.
func pickCPU(s *machine.Snapshot, cpu int, set bool) (int, string, error) {
	if set {
		if err := machine.ValidateCPU(s, cpu); err != nil {
			return 0, "", &UsageError{Msg: err.Error()}
		}
		return cpu, fmt.Sprintf("--cpu %d", cpu), nil
	}
	cpu, why, err := machine.ChooseCPU(s)
	if err != nil {
		return 0, "", fmt.Errorf("choose a cpu: %w", err)
	}
	return cpu, why, nil
}

// experimentOf turns a harness outcome into the result's raw record; the
// derived parts are filled by report.Analyze.
func experimentOf(o harness.Outcome) report.Experiment {
	w := o.Workload
	e := report.Experiment{
		Name: w.Name, Description: w.Description, Units: w.Units, Unit: w.Unit,
		FloorCycles: w.Floor(), ReadsMemory: w.ReadsMemory,
		Iters: o.Iters, Samples: o.Samples,
	}
	if e.Samples == nil {
		e.Samples = []harness.Sample{}
	}
	if o.Err != nil {
		e.Error = o.Err.Error()
	}
	e.GC = report.GCStats{Cycles: o.GCCycles, AllocsPerOp: o.AllocsPerOp, BytesPerOp: o.BytesPerOp}
	if o.Before.ClockHz > 0 && o.After.ClockHz > 0 {
		e.Clock = &report.EffectiveClock{BeforeHz: o.Before.ClockHz, AfterHz: o.After.ClockHz, Source: "dependent-add chain"}
	}
	if o.Before.RefNs > 0 && o.After.RefNs > 0 {
		e.Reference = &report.Reference{BeforeNs: o.Before.RefNs, AfterNs: o.After.RefNs}
	}
	return e
}

// asmFindings checks the machine code of w's measured loop.
func asmFindings(w harness.Workload) []finding.Finding {
	l, err := asm.Inspect(w.Loop)
	if err != nil {
		return []finding.Finding{{Code: "asm-unknown", Severity: finding.Info,
			Message: "could not read the machine code of the loop: " + err.Error()}}
	}
	s := l.Summary()
	fs := []finding.Finding{{Code: "asm", Severity: finding.Info, Message: s.Line}}
	if w.ReadsMemory && !s.LoopLoads {
		fs = append(fs, finding.Finding{Code: "no-load-in-loop", Severity: finding.Warn,
			Message:  "the workload reads its input from memory, but its measured loop has no memory load: the work was removed, whatever the time says",
			Evidence: map[string]any{"summary": s.Line}})
	}
	return fs
}

// writeResult writes the result to stdout or --out, and the raw samples to
// --samples-file, each atomically.
func writeResult(o *runOptions, r *report.Result, stdout io.Writer) error {
	if o.SamplesFile != "" {
		if err := writeFileAtomic(o.SamplesFile, func(w io.Writer) error {
			return report.Write(w, r, "csv")
		}); err != nil {
			return fmt.Errorf("write --samples-file: %w", err)
		}
	}
	if o.Out == "" {
		return report.Write(stdout, r, o.Format)
	}
	if err := writeFileAtomic(o.Out, func(w io.Writer) error {
		return report.Write(w, r, o.Format)
	}); err != nil {
		return fmt.Errorf("write --out: %w", err)
	}
	fmt.Fprintf(o.g.Stderr, "benchy: wrote %s\n", o.Out)
	return nil
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return Usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// clockReading is the measured CPU's clock, read on the pinned thread
// right after benchy's own dependent-add chain has kept it busy: read
// idle, a CPU whose governor follows the load would report its lowest
// frequency, and before and after would not compare.
type clockReading struct {
	chainHz    float64 // from the dependent-add chain; 0 if it failed
	cpufreqKHz int64   // scaling_cur_freq just after it; 0 if unknown
}

func readClock(root string, cpu int, window time.Duration) clockReading {
	c := clockReading{chainHz: counters.MeasureClock(window)}
	if khz, err := machine.ReadCurFreqKHz(root, cpu); err == nil && khz > 0 {
		c.cpufreqKHz = khz
	}
	return c
}

// effectiveClock says what clock the measured CPU ran at before and after
// the samples: cpufreq's scaling_cur_freq, the kernel's own figure, bounded
// by the maximum (some drivers report more); where there is none (most
// VMs), benchy's dependent-add chain. Both are read under load. A cycle
// counter, when there is one, is used per sample by the report.
func effectiveClock(before, after clockReading, maxHz float64) report.EffectiveClock {
	if before.cpufreqKHz > 0 && after.cpufreqKHz > 0 {
		b, a := float64(before.cpufreqKHz)*1e3, float64(after.cpufreqKHz)*1e3
		if maxHz > 0 {
			b, a = min(b, maxHz), min(a, maxHz)
		}
		return report.EffectiveClock{BeforeHz: b, AfterHz: a, Source: "scaling_cur_freq under load"}
	}
	if before.chainHz > 0 && after.chainHz > 0 {
		return report.EffectiveClock{BeforeHz: before.chainHz, AfterHz: after.chainHz, Source: "dependent-add chain"}
	}
	return report.EffectiveClock{Source: "unknown: no cpufreq and the add chain could not be timed"}
}

// maxFreq is the highest clock the CPU may run at, from cpuinfo_max_freq.
func maxFreq(s *machine.Snapshot, cpu int) (float64, string) {
	if khz, ok := s.MaxFreqKHz(cpu); ok && khz > 0 {
		return float64(khz) * 1e3, "cpuinfo_max_freq"
	}
	return 0, "unknown: no cpuinfo_max_freq for cpu " + fmt.Sprint(cpu)
}
