package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// A program valgrind cannot run fails its count in one line, exit 1, and
// the time is still written.
func TestExecCountFails(t *testing.T) {
	t.Parallel()
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

// Ctrl-C while the instructions are counted exits 130, as every
// interrupted command does (it was 1, the stopped count taken for a
// failed one), with the timed runs written and the result marked
// interrupted; nothing the counted run started is left running.
func TestExecCountInterrupted(t *testing.T) {
	t.Parallel()
	if _, err := callgrind.Path(); err != nil {
		t.Skip("valgrind is not installed (apt-get install valgrind)")
	}
	dir := t.TempDir()
	out, counting := filepath.Join(dir, "r.json"), filepath.Join(dir, "counting")
	// Under valgrind (its preload in the environment) the command says so
	// and sleeps; timed, it returns at once.
	line := `case "$LD_PRELOAD" in *vgpreload*) echo $$ > ` + counting + `.tmp; mv ` + counting + `.tmp ` + counting + `; sleep 60;; esac`
	cmd := exec.Command(benchyBinary(t), "exec", "--window", "10ms", "--runs", "3", "--measure", "instructions", "--out", out, "--shell", line)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	exited := startUntil(t, cmd, counting, "the counting began")
	cmd.Process.Signal(syscall.SIGINT)
	err := <-exited
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitInterrupted {
		t.Errorf("exit %v, want 130; stderr %s", err, stderr.String())
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatalf("no result: %v", err)
	}
	e := r.Experiments[0]
	if !r.Interrupted || len(e.Samples) != 3 || e.Count == nil || e.Count.Error != "counting stopped" {
		t.Errorf("interrupted %v, %d samples, count %+v; want the 3 runs kept, marked interrupted, the count stopped", r.Interrupted, len(e.Samples), e.Count)
	}
	b, _ := os.ReadFile(counting)
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 0 && procAlive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Errorf("the counted run %d is still running", pid)
	}
}
