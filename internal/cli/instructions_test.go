package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/callgrind"
	"github.com/benchy-dev/benchy/internal/result"
)

func TestMeasureFlagRefused(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--measure", "cycles"}, `--measure "cycles": must be time or instructions`},
		{[]string{"exec", "--measure", "wall", "true"}, `--measure "wall": must be time or instructions`},
		{[]string{"run", "--cache-sim"}, "give --measure instructions too"},
		{[]string{"exec", "--measure", "instructions", "--prepare", "sync", "true"}, "without --setup, --prepare or --cleanup"},
	} {
		var out, errb bytes.Buffer
		code := testMain(tt.args, &out, &errb)
		if code != ExitUsage || !strings.Contains(errb.String(), tt.want) || strings.Count(strings.TrimSpace(errb.String()), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", tt.args, code, errb.String(), tt.want)
		}
	}
}

// Without valgrind, --measure instructions is refused before anything is
// measured, naming what to install.
func TestMeasureWithoutValgrind(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for _, args := range [][]string{{"run", "--measure", "instructions"}, {"exec", "--measure", "instructions", "/bin/true"}} {
		var out, errb bytes.Buffer
		code := testMain(args, &out, &errb)
		if code != ExitUsage || !strings.Contains(errb.String(), "valgrind is not installed") || !strings.Contains(errb.String(), "apt-get install valgrind") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		if out.Len() > 0 {
			t.Errorf("%v: measured: %s", args, out.String())
		}
	}
}

// run --measure instructions: the real binary counts the loop of
// sum/sink in a process of its own (count-loop), exactly as the loop's
// code says: the same count at every N.
func TestRunMeasureInstructions(t *testing.T) {
	if _, err := callgrind.Path(); err != nil {
		t.Skip("valgrind is not installed (apt-get install valgrind)")
	}
	bin := benchyBinary(t)
	out := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(bin, "run", "--bench", "^sum/sink$", "--smoke", "--measure", "instructions", "--out", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r result.Result
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Experiments {
		c := e.Count
		if c == nil || c.Error != "" || c.Counter != result.CounterCallgrind || len(c.Samples) != 4 || !c.Sloped() {
			t.Fatalf("%s: count %+v", e.Name, c)
		}
		per, _ := c.PerOp(result.EventInstructions)
		switch e.Name {
		case "sum/sink":
			// 4096 words, a load and an add each at least.
			if per < 8192 || per > 4096*8 || c.Symbol == "" {
				t.Errorf("sum/sink: %.0f instructions per op, symbol %q", per, c.Symbol)
			}
			if c.Spread(result.EventInstructions) > 0.001 {
				t.Errorf("sum/sink: spread %v of a loop that neither allocates nor calls", c.Spread(result.EventInstructions))
			}
		}
	}
	// The count goes to gobench output, for benchstat.
	gb, err := exec.Command(bin, "report", out, "--format", "gobench").Output()
	if err != nil || !strings.Contains(string(gb), "instructions/op") {
		t.Errorf("gobench: %v\n%s", err, gb)
	}
}

// A program valgrind cannot run fails its count in one line, exit 1, and
// the time is still written.
func TestExecCountFails(t *testing.T) {
	if _, err := callgrind.Path(); err != nil {
		t.Skip("valgrind is not installed (apt-get install valgrind)")
	}
	bin := benchyBinary(t)
	out := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(bin, "exec", "--runs", "3", "-i", "--measure", "instructions", "--out", out, "sh -c 'exit 3'")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != ExitFailed {
		t.Fatalf("exit %v: %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "instructions not counted") || !strings.Contains(stderr.String(), "exit status 3") {
		t.Errorf("stderr %q", stderr.String())
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the time was not written: %v", err)
	}
}
