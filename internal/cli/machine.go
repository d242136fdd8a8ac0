package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/fit"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
	"github.com/benchy-dev/benchy/internal/render"
)

func init() {
	commands = append(commands, func(g *GlobalOptions) *cobra.Command { return newMachineCmd(g, nil) })
}

// maxWindow bounds --window: a longer busy window only delays the answer.
const maxWindow = 60 * time.Second

// machineOptions are the inputs of `benchy machine`.
type machineOptions struct {
	Root   string
	Live   bool
	CPU    int // -1: choose
	Window time.Duration
	Format string // text or json
	// Strict is "" (never), "error" (plain --strict) or "warn": the
	// least severity of a finding that makes the command exit 3, as on
	// every command.
	Strict string

	// Now and Runtime fix the time and the Go facts in golden tests.
	Now     func() time.Time
	Runtime *machine.Runtime
}

// newMachineCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newMachineCmd(g *GlobalOptions, runF func(*machineOptions) error) *cobra.Command {
	opts := &machineOptions{}
	cmd := &cobra.Command{
		Use:   "machine",
		Short: "Show the state of the machine and whether it is fit to measure on",
		Long: `machine reads /proc and /sys, shows the load, the CPU a benchmark would
run on, how busy every CPU was over a window, the frequency settings, and
the findings that make numbers measured here doubtful.

With --strict it exits 3 when a finding is an error; --strict warn also
when one is a warning (the check for a CI runner that must be quiet).`,
		Example: `  benchy machine
  benchy machine --cpu 2 --strict warn
  benchy machine --sysroot testdata/machines/laptop-hybrid --cpu 9`,
		Args: func(cmd *cobra.Command, args []string) error {
			if args = StrictArgs(cmd, &opts.Strict, args, g.Args); len(args) > 0 {
				return Usagef("machine takes no arguments, got %q", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Root, opts.Live = g.Sysroot, g.Live()
			if !cmd.Flags().Changed("cpu") {
				opts.CPU = -1
			} else if err := checkCPU(true, opts.CPU); err != nil {
				return err
			}
			if opts.Window <= 0 || opts.Window > maxWindow {
				return Usagef("--window %v: must be more than 0 and at most %v", opts.Window, maxWindow)
			}
			if err := CheckFormat(opts.Format, textOrJSON); err != nil {
				return err
			}
			if err := checkStrict(cmd, opts.Strict); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return machineRun(opts, g.Stdout)
		},
	}
	f := cmd.Flags()
	IntFlag(f, &opts.CPU, "cpu", -1, "judge the machine for CPU `N` (default: the CPU benchy would choose)")
	f.Lookup("cpu").DefValue = ""
	f.DurationVar(&opts.Window, "window", time.Second, "measure every CPU's busy over `D` (0 < D <= 60s)")
	f.StringVar(&opts.Format, "format", "text", "output `format`: text or json")
	addStrictFlag(f, &opts.Strict, "exit 3 when a finding is an error; --strict warn also when one is a warning")
	return cmd
}

// machineRun reads the machine, picks or validates the CPU, and writes the
// header and findings (text) or the whole report (json) to w.
func machineRun(opts *machineOptions, w io.Writer) error {
	if err := sysread.ValidateRoot(opts.Root); err != nil {
		return Usagef("--sysroot %v", err)
	}
	ropts := sysread.ReadOptions{Live: opts.Live, Window: opts.Window, Now: opts.Now, Runtime: opts.Runtime}
	if opts.Live && harness.CanPin {
		ropts.Probe = harness.ProbeSpeeds // the choice a run would make
	}
	s, err := sysread.Read(context.Background(), opts.Root, ropts)
	if err != nil {
		return Usagef("%v", err)
	}
	cpu, why := opts.CPU, fmt.Sprintf("--cpu %d", opts.CPU)
	if cpu < 0 {
		if cpu, why, err = fit.ChooseCPU(s); err != nil && !opts.Live {
			return Usagef("--sysroot %s: cannot choose a CPU: %v", opts.Root, err) // a damaged tree is bad input
		} else if err != nil {
			return fmt.Errorf("cannot choose a CPU: %w", err)
		}
	} else if err := fit.ValidateCPU(s, cpu); err != nil {
		return Usagef("%v", err)
	}
	fs := fit.Check(s, cpu)

	rep := render.MachineReport{CPU: cpu, CPUChoice: why, Machine: s, Findings: fs}
	if err := render.WriteMachineReport(w, opts.Format, rep, textWidth); err != nil {
		return err
	}
	if level, strict := strictLevel(opts.Strict); strict {
		var codes []string
		for _, f := range fs {
			if f.Severity >= level {
				codes = append(codes, f.Code)
			}
		}
		if len(codes) > 0 {
			return &StrictError{Msg: fmt.Sprintf("--strict=%s: this machine is not fit to measure on: %s", level, strings.Join(codes, ", "))}
		}
	}
	return nil
}
