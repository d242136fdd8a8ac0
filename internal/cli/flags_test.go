package cli

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/cli/clitest"
)

// parse runs cmd on args with its run function replaced (runF).
func parse(t *testing.T, cmd *cobra.Command, args ...string) {
	t.Helper()
	clitest.Parse(t, cmd, args...)
}

func testGlobals() *GlobalOptions {
	return &GlobalOptions{Stdout: io.Discard, Stderr: io.Discard, Sysroot: "/"}
}

// What run's flags become: the shared --cpu group (CPUSet only when
// given), --smoke's defaults only for what was not given, --gc as a word.
func TestRunFlags(t *testing.T) {
	var got *runOptions
	capture := func(o *runOptions) error { got = o; return nil }
	parse(t, newRunCmd(testGlobals(), capture), "--cpu", "1", "--smoke", "--samples", "7", "--gc", "off", "--compare", "a,b", "--threshold", "1%")
	if err := got.CPUOptions.Validate(); err != nil {
		t.Fatal(err)
	}
	if got.CPU != 1 || !got.CPUSet || got.Samples != 7 || got.SampleTime != smokeSampleTime || got.Window != smokeWindow || got.GC {
		t.Errorf("cpu %d set %v, samples %d, sample time %v, window %v, gc %v", got.CPU, got.CPUSet, got.Samples, got.SampleTime, got.Window, got.GC)
	}
	if err := got.ThresholdOption.Validate(); err != nil || got.Value != 0.01 || !got.ThresholdOption.given() {
		t.Errorf("threshold %v (given %v): %v", got.Value, got.ThresholdOption.given(), err)
	}
	parse(t, newRunCmd(testGlobals(), capture))
	if err := got.CPUOptions.Validate(); err != nil || got.CPUSet || got.CPU != -1 || got.Window != time.Second || !got.GC || got.Samples != 31 {
		t.Errorf("defaults: cpu %d set %v, window %v, gc %v, samples %d (%v)", got.CPU, got.CPUSet, got.Window, got.GC, got.Samples, err)
	}
	// --gomaxprocs: 1 by default, as taskset -c CPU go test; the plan
	// measures at what was given.
	if p := got.plan(nil); got.GOMAXPROCS != 1 || p.GOMAXPROCS != 1 {
		t.Errorf("default GOMAXPROCS %d, plan's %d; want 1", got.GOMAXPROCS, p.GOMAXPROCS)
	}
	parse(t, newRunCmd(testGlobals(), capture), "--gomaxprocs", "3")
	if p := got.plan(nil); p.GOMAXPROCS != 3 {
		t.Errorf("--gomaxprocs 3: the plan's %d", p.GOMAXPROCS)
	}
}

// exec: the commands are the arguments; the shared group as in run.
func TestExecFlags(t *testing.T) {
	var got *execOptions
	parse(t, newExecCmd(testGlobals(), func(o *execOptions) error { got = o; return nil }), "--cpu", "0", "--runs", "5", "true", "false")
	if !slices.Equal(got.Commands, []string{"true", "false"}) || got.Runs != 5 || !got.runsSet || got.CPU != 0 {
		t.Errorf("commands %q, runs %d (set %v), cpu %d", got.Commands, got.Runs, got.runsSet, got.CPU)
	}
	if err := got.CPUOptions.Validate(); err != nil || !got.CPUSet {
		t.Errorf("--cpu 0 not noted as given (%v)", err)
	}
}

// TestHelpFitsEightyColumns: every command's --help, written where there
// is no terminal, fits 80 columns (pflag alone writes each flag on one
// line, and run's --help had 26 lines wider than that).
func TestHelpFitsEightyColumns(t *testing.T) {
	root := newRootCmd(testGlobals())
	cmds := append([]*cobra.Command{root}, root.Commands()...)
	for _, c := range root.Commands() {
		cmds = append(cmds, c.Commands()...)
	}
	for _, c := range cmds {
		var out bytes.Buffer
		c.SetOut(&out)
		if err := c.Usage(); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(out.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s --help: a line of %d columns: %q", c.CommandPath(), n, line)
			}
		}
	}
}

// -v is the root's persistent flag: `benchy -v CMD` and `benchy CMD -v`
// both reach every command that writes a result, as go and git read
// their flags; a command with nothing more to show refuses it in one
// line that names those that take it.
func TestVerboseBeforeOrAfterTheCommand(t *testing.T) {
	type command struct {
		name string
		make func(g *GlobalOptions, got *OutputOptions) *cobra.Command
		args []string
	}
	commands := []command{
		{"run", func(g *GlobalOptions, got *OutputOptions) *cobra.Command {
			return newRunCmd(g, func(o *runOptions) error { *got = o.OutputOptions; return nil })
		}, nil},
		{"exec", func(g *GlobalOptions, got *OutputOptions) *cobra.Command {
			return newExecCmd(g, func(o *execOptions) error { *got = o.OutputOptions; return nil })
		}, []string{"true"}},
		{"report", func(g *GlobalOptions, got *OutputOptions) *cobra.Command {
			return newReportCmd(g, func(o *reportOptions) error { *got = o.OutputOptions; return nil })
		}, []string{"../../testdata/report/fixture.json"}},
	}
	for _, c := range commands {
		for _, tt := range []struct {
			where string
			args  []string
			want  bool
		}{
			{"before", append([]string{"-v", c.name}, c.args...), true},
			{"after", append(append([]string{c.name}, c.args...), "-v"), true},
			{"long, before", append([]string{"--verbose", c.name}, c.args...), true},
			{"absent", append([]string{c.name}, c.args...), false},
		} {
			t.Run(c.name+"/"+tt.where, func(t *testing.T) {
				g := testGlobals()
				var got OutputOptions
				root := newRoot(g, c.make(g, &got))
				root.SetArgs(tt.args)
				if err := root.Execute(); err != nil {
					t.Fatalf("benchy %q: %v", tt.args, err)
				}
				if got.Formats == nil {
					t.Fatalf("benchy %q: the command did not run", tt.args)
				}
				if got.verbose() != tt.want {
					t.Errorf("benchy %q: verbose %v, want %v", tt.args, got.verbose(), tt.want)
				}
			})
		}
	}
	for _, args := range [][]string{{"-v", "list"}, {"list", "-v"}} {
		g := testGlobals()
		root := newRoot(g, newListCmd(g, func(*listOptions) error { t.Errorf("benchy %q ran", args); return nil }),
			newRunCmd(g, nil), newReportCmd(g, nil))
		root.SetArgs(args)
		err := root.Execute()
		if ExitCode(err) != ExitUsage || err.Error() != "-v/--verbose: list has nothing more to show; -v is for report, run" {
			t.Errorf("benchy %q: exit %d, %v", args, ExitCode(err), err)
		}
	}
}
