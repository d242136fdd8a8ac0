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
)

// parse runs cmd on args with its run function replaced (runF), as the
// root would, and fails the test on an error.
func parse(t *testing.T, cmd *cobra.Command, args ...string) {
	t.Helper()
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

func testGlobals() *globalOptions {
	return &globalOptions{Stdout: io.Discard, Stderr: io.Discard, Sysroot: "/"}
}

// What run's flags become: the shared --cpu group (CPUSet only when
// given), --smoke's defaults only for what was not given, --gc as a word.
func TestRunFlags(t *testing.T) {
	var got *runOptions
	capture := func(o *runOptions) error { got = o; return nil }
	parse(t, newRunCmd(testGlobals(), capture), "--cpu", "1", "--smoke", "--samples", "7", "--gc", "off", "--compare", "a,b", "--threshold", "1%")
	if err := got.cpuOptions.validate(); err != nil {
		t.Fatal(err)
	}
	if got.CPU != 1 || !got.CPUSet || got.Samples != 7 || got.SampleTime != smokeSampleTime || got.Window != smokeWindow || got.GC {
		t.Errorf("cpu %d set %v, samples %d, sample time %v, window %v, gc %v", got.CPU, got.CPUSet, got.Samples, got.SampleTime, got.Window, got.GC)
	}
	if err := got.thresholdOption.validate(); err != nil || got.threshold != 0.01 || !got.thresholdOption.given() {
		t.Errorf("threshold %v (given %v): %v", got.threshold, got.thresholdOption.given(), err)
	}
	parse(t, newRunCmd(testGlobals(), capture))
	if err := got.cpuOptions.validate(); err != nil || got.CPUSet || got.CPU != -1 || got.Window != time.Second || !got.GC || got.Samples != 31 {
		t.Errorf("defaults: cpu %d set %v, window %v, gc %v, samples %d (%v)", got.CPU, got.CPUSet, got.Window, got.GC, got.Samples, err)
	}
}

// gotest: packages before "--", go build flags after it; the shared
// group as in run.
func TestGotestFlags(t *testing.T) {
	var got *gotestOptions
	parse(t, newGotestCmd(testGlobals(), func(o *gotestOptions) error { got = o; return nil }),
		"./a", "./b", "--against", "HEAD", "--window", "2s", "--", "-tags", "purego")
	if !slices.Equal(got.Packages, []string{"./a", "./b"}) || !slices.Equal(got.BuildFlags, []string{"-tags", "purego"}) ||
		got.Against != "HEAD" || got.Window != 2*time.Second || got.Samples != gotestSamples {
		t.Errorf("packages %q, build flags %q, against %q, window %v, samples %d", got.Packages, got.BuildFlags, got.Against, got.Window, got.Samples)
	}
	parse(t, newGotestCmd(testGlobals(), func(o *gotestOptions) error { got = o; return nil }))
	if !slices.Equal(got.Packages, []string{"."}) {
		t.Errorf("default packages %q, want .", got.Packages)
	}
}

// exec: the commands are the arguments; the shared group as in run.
func TestExecFlags(t *testing.T) {
	var got *execOptions
	parse(t, newExecCmd(testGlobals(), func(o *execOptions) error { got = o; return nil }), "--cpu", "0", "--runs", "5", "true", "false")
	if !slices.Equal(got.Commands, []string{"true", "false"}) || got.Runs != 5 || !got.runsSet || got.CPU != 0 {
		t.Errorf("commands %q, runs %d (set %v), cpu %d", got.Commands, got.Runs, got.runsSet, got.CPU)
	}
	if err := got.cpuOptions.validate(); err != nil || !got.CPUSet {
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
