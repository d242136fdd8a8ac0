//go:build linux

package toolcmd

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"

	"github.com/benchy-dev/benchy/internal/cli"
)

// gotestEnv runs benchy gotest with quick settings and env added, and
// returns the result it wrote to --out (nil when none), its stderr and
// its exit code.
func gotestEnv(t *testing.T, env []string, args ...string) (*result.Result, string, int) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	out := filepath.Join(t.TempDir(), "r.json")
	cmd := exec.Command(benchyBinary(t), append(append(append([]string{"gotest"}, quick...), "--out", out), args...)...)
	cmd.Dir = gotestData
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(out)
	if err != nil {
		return nil, stderr.String(), code
	}
	return r, stderr.String(), code
}

func experimentNames(r *result.Result) []string {
	var out []string
	for _, e := range r.Experiments {
		out = append(out, e.Name)
	}
	return out
}

// reportAccepts checks that benchy report reads the file benchy wrote.
func reportAccepts(t *testing.T, r *result.Result) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "again.json")
	var b bytes.Buffer
	if err := render.Write(&b, r, "json"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, b.Bytes(), 0o600)
	if _, stderr, code := runBinary(t, "report", file); code != 0 {
		t.Errorf("benchy report refuses the result: exit %d\n%s", code, stderr)
	}
}

// A benchmark that prints is measured, one that prints another's result
// line and failure forges nothing, and benchy report reads the file.
func TestGotestOutputIsNotAResult(t *testing.T) {
	t.Parallel()
	r, stderr, code := gotestEnv(t, nil, "./output")
	if r == nil || code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := experimentNames(r); !slices.Equal(got, []string{"Prints", "Forger", "Real", "Metrics"}) {
		t.Errorf("experiments %q, want Prints, Forger, Real, Metrics", got)
	}
	for _, e := range r.Experiments {
		if e.Error != "" || len(e.Samples) != 4 || e.GC.AllocsPerOp != 0 {
			t.Errorf("%s: error %q, %d samples, %v allocs/op; want none, 4, 0", e.Name, e.Error, len(e.Samples), e.GC.AllocsPerOp)
		}
	}
	reportAccepts(t, r)
}

// os.Exit(0) and a panic in a benchmark fail it, with why and where.
func TestGotestExitAndPanic(t *testing.T) {
	t.Parallel()
	r, stderr, code := gotestEnv(t, nil, "./ends", "--bench", "^Benchmark(ExitZero|Panics|OK)$")
	if r == nil || code != cli.ExitFailed {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	want := map[string]string{
		"ExitZero": "BenchmarkExitZero called os.Exit(0) at ends_test.go:",
		"Panics":   "BenchmarkPanics panicked at ends_test.go:29: the table is empty",
		"OK":       "",
	}
	for _, e := range r.Experiments {
		if w, ok := want[e.Name]; !ok || w == "" && e.Error != "" || !strings.Contains(e.Error, w) {
			t.Errorf("%s: error %q, want %q", e.Name, e.Error, w)
		}
	}
	if len(r.Experiments) != 3 {
		t.Errorf("experiments %q", experimentNames(r))
	}
}

// Packages that share their last element keep their benchmarks apart, and
// the result is one benchy report reads; under GOMAXPROCS=1 names ending
// as testing's suffix does stay apart.
func TestGotestNames(t *testing.T) {
	t.Parallel()
	r, stderr, code := gotestEnv(t, []string{"GOMAXPROCS=1"}, "./a/util", "./b/util", "./procs")
	if r == nil || code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := experimentNames(r); !slices.Equal(got, []string{"a/util.X", "b/util.X", "procs.Size/n-16", "procs.Size/n-1024"}) {
		t.Errorf("experiments %q", got)
	}
	reportAccepts(t, r)
}

// A signal to benchy alone, while a benchmark never returns, ends the
// test binary, in the calibration (Ctrl-C's SIGINT) and in a sample run
// (SIGTERM): benchy exits as the signal says, and the test binary is
// gone, not left running. Every stop signal is one stop to benchy
// (cli.WatchSignals): the exit of each, SIGHUP's 129 among them, with no
// child left running, is internal/cli's TestRunProcessesPassesOnSignals'
// and TestSignalsStopTheRun's.
func TestGotestSignalEndsTheTestBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	for _, tt := range []struct {
		sig   syscall.Signal
		code  int
		phase string
	}{
		{syscall.SIGINT, 130, "always"}, {syscall.SIGTERM, 143, "sampling"},
	} {
		t.Run(tt.sig.String()+" "+tt.phase, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			cmd := exec.Command(benchyBinary(t), append(append([]string{"gotest"}, quick...), "./ends", "--bench", "^BenchmarkHangs$")...)
			cmd.Dir = gotestData
			cmd.Env = append(os.Environ(), "BENCHY_TESTDATA_HANG="+tt.phase, "BENCHY_TESTDATA_PIDFILE="+pidfile)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pid := 0
			for i := 0; pid == 0 && i < 1200; i++ {
				if b, err := os.ReadFile(pidfile); err == nil {
					pid, _ = strconv.Atoi(string(b))
				}
				time.Sleep(50 * time.Millisecond)
			}
			if pid == 0 {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("the benchmark did not start in 60s: %s", stderr.String())
			}
			cmd.Process.Signal(tt.sig)
			err := cmd.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != tt.code {
				t.Errorf("exit %v, want %d: %s", err, tt.code, stderr.String())
			}
			if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && !strings.Contains(string(b), ") Z") {
				syscall.Kill(pid, syscall.SIGKILL)
				t.Errorf("the test binary (%d) is still running after benchy ended", pid)
			}
		})
	}
}
