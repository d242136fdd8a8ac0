package cli

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/benchy-dev/benchy/internal/result"
)

// decimalInt is an integer flag read in base 10 only: pflag's own reads
// "010" as octal 8 and "0x1" as hex 1, which no one means on a command
// line of sample counts and CPU numbers.
type decimalInt[T int | int64] struct{ p *T }

func (d decimalInt[T]) String() string {
	if d.p == nil {
		return "0"
	}
	return strconv.FormatInt(int64(*d.p), 10)
}

func (d decimalInt[T]) Set(s string) error {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a whole number in decimal", s)
	}
	*d.p = T(v)
	return nil
}

func (d decimalInt[T]) Type() string { return "int" }

// IntFlag binds a decimal int flag.
func IntFlag[T int | int64](f *pflag.FlagSet, p *T, name string, value T, usage string) {
	*p = value
	f.Var(decimalInt[T]{p}, name, usage)
}

// Upper bounds of the durations and counts a command takes: past them a
// typo (a --warmup of 290 years) would hold the machine, and Ctrl-C would
// wait for one sample at the most.
const (
	maxSamples    = 100000
	maxWarmup     = 10 * time.Minute
	MaxSampleTime = 10 * time.Second
)

// CheckDuration fails a duration flag outside (0, limit].
func CheckDuration(flag string, v, limit time.Duration) error {
	if v <= 0 {
		return Usagef("%s %v: must be a positive duration, e.g. 100ms", flag, v)
	}
	if v > limit {
		return Usagef("%s %v: must be at most %v", flag, v, limit)
	}
	return nil
}

// checkCPU refuses a --cpu (given when set) that is not a CPU number.
func checkCPU(set bool, cpu int) error {
	if set && cpu < 0 {
		return Usagef("--cpu %d: must be a CPU number (0 or more)", cpu)
	}
	return nil
}

// CheckSamples refuses a --samples outside 1..maxSamples.
func CheckSamples(n int) error {
	if n < 1 || n > maxSamples {
		return Usagef("--samples %d: must be between 1 and %d", n, maxSamples)
	}
	return nil
}

// CheckLive refuses --sysroot for a command that measures this machine.
func CheckLive(g *GlobalOptions, command string) error {
	if !g.Live() {
		return Usagef("%s measures this machine: --sysroot is only for reading a machine (benchy machine)", command)
	}
	return nil
}

// PrecisionOptions are --target-ci and --max-time: sample until the 95%
// interval of the median is within ±PCT, or the time runs out.
type PrecisionOptions struct {
	TargetCI string
	MaxTime  time.Duration
	targetCI float64
}

// defaultMaxTime bounds the sampling --target-ci asks for, in wall time,
// per experiment (or per group measured in interleaved rounds).
const defaultMaxTime = 30 * time.Second

func (p *PrecisionOptions) Bind(f *pflag.FlagSet) {
	f.StringVar(&p.TargetCI, "target-ci", "", "sample until the 95% interval of the median is within ±`PCT` (e.g. 1%); in a comparison, the interval of each ratio to the baseline, judged each time the rounds double")
	f.DurationVar(&p.MaxTime, "max-time", defaultMaxTime, "with --target-ci: stop sampling after `D` of wall time (per experiment; interleaved ones share it)")
}

// validate reads the flags; changed says whether --max-time was given.
func (p *PrecisionOptions) validate(changed bool) error {
	if p.TargetCI == "" {
		if changed {
			return Usagef("--max-time bounds --target-ci: give --target-ci PCT too")
		}
		return nil
	}
	v, err := parseFractionBelow("--target-ci", p.TargetCI, math.Inf(1)) // the bounds are said below
	if err != nil {
		return err
	}
	if v <= 0 || v >= 1 {
		return Usagef("--target-ci %s: must be more than 0%% and less than 100%%", p.TargetCI)
	}
	p.targetCI = v
	return CheckDuration("--max-time", p.MaxTime, maxWarmup)
}

// Settings records the precision asked in the result's settings.
func (p *PrecisionOptions) Settings(st *result.Settings) {
	if p.targetCI > 0 {
		st.TargetCI, st.MaxTime = p.targetCI, p.MaxTime
	}
}

// onOff is a flag that is "on" or "off" ("true" and "false" too). It
// always takes its value (--gc off): a bare flag followed by a word would
// leave the word as an argument.
type onOff struct{ p *bool }

func (v onOff) String() string {
	if v.p != nil && *v.p {
		return "on"
	}
	return "off"
}

func (v onOff) Set(s string) error {
	switch s {
	case "on", "true":
		*v.p = true
	case "off", "false":
		*v.p = false
	default:
		return fmt.Errorf("%q: valid: on, off", s)
	}
	return nil
}

func (onOff) Type() string { return "on|off" }

// onOffFlag binds an on/off flag to p with its default.
func onOffFlag(f *pflag.FlagSet, p *bool, name string, value bool, usage string) {
	*p = value
	f.Var(onOff{p}, name, usage)
}

// CPUOptions are the flags of every command that measures on a CPU: the
// CPU to pin to, and the busy window read before, bound and checked once.
type CPUOptions struct {
	CPU    int
	CPUSet bool // --cpu was given (set by validate)
	Window time.Duration
	flags  *pflag.FlagSet
}

// Bind adds --cpu and --window; what is what is pinned ("the benchmarks").
func (c *CPUOptions) Bind(f *pflag.FlagSet, what string) {
	c.flags = f
	IntFlag(f, &c.CPU, "cpu", -1, "pin "+what+" to CPU `N` (default: benchy chooses)")
	f.Lookup("cpu").DefValue = ""
	f.DurationVar(&c.Window, "window", time.Second, "busy window of the machine header, at most 60s")
}

// Validate refuses a bad --cpu or --window, and notes whether --cpu was
// given.
func (c *CPUOptions) Validate() error {
	c.CPUSet = c.flags != nil && c.flags.Changed("cpu")
	if err := CheckDuration("--window", c.Window, maxWindow); err != nil {
		return err
	}
	return checkCPU(c.CPUSet, c.CPU)
}

// ThresholdOption is --threshold, the smallest change a comparison claims,
// as every command that compares takes it.
type ThresholdOption struct {
	Threshold string
	Value     float64 // parsed by validate
	flags     *pflag.FlagSet
}

func (t *ThresholdOption) Bind(f *pflag.FlagSet, def, usage string) {
	t.flags = f
	f.StringVar(&t.Threshold, "threshold", def, usage)
}

// given says whether --threshold was given.
func (t *ThresholdOption) given() bool { return t.flags != nil && t.flags.Changed("threshold") }

func (t *ThresholdOption) Validate() (err error) {
	t.Value, err = ParseFraction("--threshold", t.Threshold)
	return err
}
