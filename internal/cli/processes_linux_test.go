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
	"time"

	"github.com/benchy-dev/benchy/internal/procgroup"
	"github.com/benchy-dev/benchy/internal/result"
)

// The processes of run --processes are followed through /proc: which are
// benchy's children, and whether one still runs. No test here asserts a
// time: the waits only bound how long a broken benchy can hang the test.

// processesRun starts benchy run --processes with args, in a temporary
// directory of its own (for its files and its CPU locks), and returns
// the command, the directory and where the result goes.
func processesRun(t *testing.T, args ...string) (*exec.Cmd, string, string, *bytes.Buffer) {
	t.Helper()
	tmp := t.TempDir()
	out := filepath.Join(tmp, "r.json")
	args = append([]string{"run", "--bench", "^sum/sink$", "--sample-time", "1ms", "--warmup", "1ms", "--window", "10ms", "--no-asm", "--out", out}, args...)
	cmd := exec.Command(benchyBinary(t), args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "XDG_RUNTIME_DIR=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, tmp, out, &stderr
}

// waitFor polls cond until it holds, failing the test after a generous
// bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// childrenOf lists the processes whose parent is pid.
func childrenOf(pid int) []int {
	var kids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := procgroup.StatFields(child); len(f) > 1 && f[1] == strconv.Itoa(pid) {
			kids = append(kids, child)
		}
	}
	return kids
}

// cpuTime is the CPU time process pid has used, user and system (in the
// clock ticks of /proc, USER_HZ, 100 a second on Linux).
func cpuTime(pid int) time.Duration {
	f := procgroup.StatFields(pid)
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+sys) * time.Second / 100
}

// processOf waits for the k-th process cmd starts for run --processes,
// the one given k.spec.json, and returns it. Not merely the first child
// seen: benchy runs other programs too (git, to name the source).
func processOf(t *testing.T, cmd *exec.Cmd, k int) int {
	t.Helper()
	spec := []byte("/" + strconv.Itoa(k) + ".spec.json\x00")
	var pid int
	waitFor(t, "process "+strconv.Itoa(k+1), func() bool {
		for _, kid := range childrenOf(cmd.Process.Pid) {
			if args, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(kid), "cmdline")); bytes.Contains(args, spec) {
				pid = kid
			}
		}
		return pid != 0
	})
	return pid
}

// firstMeasuring waits until the first process of cmd measures: it has taken
// the CPU lock in tmp, so it watches the stop signals; and until it has
// used 300 ms of CPU, so it has samples to keep. CPU time, not the clock:
// a process starts, warms up (1 ms here) and calibrates on about 80 ms of
// CPU, and on a loaded machine it may get little CPU in a second.
// It returns that process.
func firstMeasuring(t *testing.T, cmd *exec.Cmd, tmp string) int {
	t.Helper()
	kid := processOf(t, cmd, 0)
	locks := filepath.Join(tmp, "benchy-"+strconv.Itoa(os.Getuid()))
	waitFor(t, "the CPU lock", func() bool {
		entries, _ := os.ReadDir(locks)
		return len(entries) > 0
	})
	waitFor(t, "samples to keep", func() bool {
		if !procAlive(kid) {
			t.Fatalf("the first process ended before it used 300 ms of CPU")
		}
		return cpuTime(kid) >= 300*time.Millisecond
	})
	return kid
}

func exitOf(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}

// noTemporaries fails the test when benchy left its directory of
// process results in tmp.
func noTemporaries(t *testing.T, tmp string) {
	t.Helper()
	if left, _ := filepath.Glob(filepath.Join(tmp, "benchy-processes-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// A process killed as the out-of-memory killer does keeps what the
// processes before it measured: the result is written, marked
// interrupted, every experiment saying which process failed and how, and
// the exit is 1.
func TestRunProcessesKeepsWhatFinished(t *testing.T) {
	t.Parallel()
	// 300 samples of 1 ms a process: the second lasts long enough (a
	// third of a second at least) to be seen and killed while it runs.
	cmd, tmp, out, stderr := processesRun(t, "--processes", "3", "--samples", "900")
	second := processOf(t, cmd, 1)
	if err := syscall.Kill(second, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	if code := exitOf(err); code != ExitFailed {
		t.Fatalf("exit %v, want %d: %s", err, ExitFailed, stderr)
	}
	const how = "process 2 of 3 was killed by SIGKILL"
	if !strings.Contains(stderr.String(), how) {
		t.Errorf("stderr does not say %q: %s", how, stderr)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatalf("no result: %v", err)
	}
	if !r.Interrupted {
		t.Error("the result is not marked interrupted")
	}
	for _, e := range r.Experiments {
		if !strings.Contains(e.Error, how) {
			t.Errorf("%s: error %q, want it to say %q", e.Name, e.Error, how)
		}
		if len(e.Samples) != 300 {
			t.Errorf("%s: %d samples, want the 300 of the first process", e.Name, len(e.Samples))
		}
		for _, s := range e.Samples {
			if s.Process != 0 {
				t.Fatalf("%s: a sample of process %d", e.Name, s.Process)
			}
		}
	}
	noTemporaries(t, tmp)
}

// A stop signal to benchy is passed on to the running process, which
// keeps what it measured; the result is marked interrupted, the exit is
// the signal's, and no process is left running.
func TestRunProcessesPassesOnSignals(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}, {syscall.SIGHUP, 129}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			cmd, tmp, out, stderr := processesRun(t, "--processes", "2", "--samples", "100000")
			kid := firstMeasuring(t, cmd, tmp)
			cmd.Process.Signal(tt.sig)
			err := cmd.Wait()
			if code := exitOf(err); code != tt.code {
				t.Fatalf("exit %v, want %d: %s", err, tt.code, stderr)
			}
			if procAlive(kid) {
				t.Errorf("process %d runs on after benchy exited", kid)
			}
			r, err := result.Load(out)
			if err != nil {
				t.Fatalf("no result: %v", err)
			}
			if !r.Interrupted {
				t.Error("the result is not marked interrupted")
			}
			for _, e := range r.Experiments {
				if e.Error != "" || len(e.Samples) == 0 {
					t.Errorf("%s: %d samples, error %q; want the first process's samples", e.Name, len(e.Samples), e.Error)
				}
			}
			noTemporaries(t, tmp)
		})
	}
}

// However benchy stops, no process of run --processes outlives it: a
// second signal kills the running one before benchy exits, and a SIGKILL
// to benchy takes it along.
func TestRunProcessesLeavesNoProcess(t *testing.T) {
	t.Parallel()
	t.Run("second signal", func(t *testing.T) {
		cmd, tmp, _, stderr := processesRun(t, "--processes", "2", "--samples", "100000")
		kid := firstMeasuring(t, cmd, tmp)
		cmd.Process.Signal(syscall.SIGTERM)
		time.Sleep(20 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		if code := exitOf(err); code != 143 {
			t.Fatalf("exit %v, want 143: %s", err, stderr)
		}
		if procAlive(kid) {
			t.Errorf("process %d runs on after benchy exited", kid)
		}
		noTemporaries(t, tmp)
	})
	t.Run("SIGKILL", func(t *testing.T) {
		cmd, tmp, _, _ := processesRun(t, "--processes", "2", "--samples", "100000")
		kid := firstMeasuring(t, cmd, tmp)
		cmd.Process.Kill()
		cmd.Wait()
		waitFor(t, "the process to end with benchy", func() bool { return !procAlive(kid) })
	})
}
