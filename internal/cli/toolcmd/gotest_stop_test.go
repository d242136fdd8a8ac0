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

	"github.com/benchy-dev/benchy/internal/cli/clitest"
)

// proc is a process as /proc/PID/stat describes it.
type proc struct {
	pid, ppid, pgrp int
	zombie          bool
	args            string // the command line, spaces between the arguments
}

// procs lists the processes of the machine.
func procs() []proc {
	entries, _ := os.ReadDir("/proc")
	var ps []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
		if len(f) < 3 {
			continue
		}
		p := proc{pid: pid, zombie: f[0] == "Z"}
		p.ppid, _ = strconv.Atoi(f[1])
		p.pgrp, _ = strconv.Atoi(f[2])
		cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		p.args = strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " ")
		ps = append(ps, p)
	}
	return ps
}

// waitChild waits for a child of pid whose command line holds want, and
// returns it; it fails the test when pid ends first.
func waitChild(t *testing.T, pid int, want string) proc {
	t.Helper()
	for {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err != nil {
			t.Fatalf("benchy ended before it started %q", want)
		}
		for _, p := range procs() {
			if p.ppid == pid && strings.Contains(p.args, want) {
				return p
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// groupLeft lists the live processes of process group pgrp, after giving
// a SIGKILL a moment to be delivered.
func groupLeft(pgrp int) []proc {
	var left []proc
	for range 250 {
		left = nil
		for _, p := range procs() {
			if p.pgrp == pgrp && !p.zombie {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return left
}

// killGroup ends what a failed test left of a group the test itself
// made benchy start.
func killGroup(t *testing.T, pgrp int) {
	if left := groupLeft(pgrp); len(left) > 0 {
		t.Errorf("%d processes of go test -c's group outlived benchy, e.g. %s", len(left), left[0].args)
		syscall.Kill(-pgrp, syscall.SIGKILL)
	}
}

// benchyTmp lists benchy's temporary directories in tmp.
func benchyTmp(tmp string) []string {
	m, _ := filepath.Glob(filepath.Join(tmp, "benchy-gotest-*"))
	return m
}

// startGotest starts benchy gotest in dir in a process group of its own
// (as a shell starts a job), with TMPDIR a directory of the test's.
func startGotest(t *testing.T, dir, tmp string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(benchyBinary(t), append(append([]string{"gotest"}, quick...), args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stdout, &stderr
}

func processExit(t *testing.T, err error) int {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// quickModule is a module of one benchmark, its own git repository.
func quickModule(t *testing.T) string {
	t.Helper()
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n",
		"work.go":      "package work\n\n// Work sums xs.\nfunc Work(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n",
		"work_test.go": againstBench})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "one pass")
	return dir
}

// A stop while the test binary builds (go test -c -a: long enough to be
// caught at it) ends the build's whole process group, exits as the signal
// says with one line (not a build error), and leaves no temporary
// directory: Ctrl-C (INT to the job's group, so it reaches go test -c only
// through benchy), TERM and HUP to benchy alone, and TERM twice.
func TestGotestStopWhileBuilding(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts builds")
	}
	dir := quickModule(t)
	for _, tt := range []struct {
		name  string
		sig   syscall.Signal
		group bool // to benchy's whole group, as a terminal's Ctrl-C
		twice bool
	}{
		{"ctrl-c", syscall.SIGINT, true, false},
		{"TERM", syscall.SIGTERM, false, false},
		{"HUP", syscall.SIGHUP, false, false},
		{"TERM twice", syscall.SIGTERM, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			cmd, stdout, stderr := startGotest(t, dir, tmp, "--", "-a")
			build := waitChild(t, cmd.Process.Pid, "test -c")
			defer killGroup(t, build.pid)
			target := cmd.Process.Pid
			if tt.group {
				target = -target
			}
			syscall.Kill(target, tt.sig)
			if tt.twice {
				syscall.Kill(target, tt.sig)
			}
			code := processExit(t, cmd.Wait())
			last := clitest.LastLine(stderr.String())
			wantLine := "while building the test binaries: nothing was measured"
			if tt.twice && strings.Contains(last, "twice") {
				wantLine = "twice: exiting without writing a result"
			}
			if code != 128+int(tt.sig) || !strings.Contains(last, wantLine) || strings.Contains(stderr.String(), "does not build") || stdout.Len() > 0 {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit %d and %q", code, stdout, stderr, 128+int(tt.sig), wantLine)
			}
			if left := groupLeft(build.pid); len(left) > 0 {
				t.Errorf("go test -c's group outlived benchy: %d processes, e.g. %s", len(left), left[0].args)
			}
			if left := benchyTmp(tmp); len(left) > 0 {
				t.Errorf("temporary directories left: %q", left)
			}
		})
	}
}

// A SIGKILL during an --against build leaves the worktree behind; the next
// --against removes it and says so in one line, and the go command the
// killed benchy started is told to stop (its parent-death signal). The
// next --against names a package the module lacks: the worktrees are
// removed first, before anything is built, and it builds nothing (that a
// run goes on to measure is every other --against test's).
func TestGotestAgainstRemovesStaleWorktree(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts builds")
	}
	dir := quickModule(t)
	tmp := t.TempDir()
	cmd, _, _ := startGotest(t, dir, tmp, "--against", "HEAD", "--", "-a")
	build := waitChild(t, cmd.Process.Pid, "test -c")
	defer killGroup(t, build.pid)
	cmd.Process.Kill()
	cmd.Wait()
	if wt := gitIn(t, dir, "worktree", "list"); strings.Count(wt, "\n") != 2 {
		t.Fatalf("after a SIGKILL, worktrees:\n%s", wt)
	}
	stale := benchyTmp(tmp)
	if len(stale) != 1 {
		t.Fatalf("temporary directories: %q", stale)
	}
	again, _, stderr := startGotest(t, dir, tmp, "--against", "HEAD", "--format", "json", "./nosuch")
	code := processExit(t, again.Wait())
	want := "benchy: removed 1 worktree that an earlier benchy gotest --against left behind when it was killed: " + filepath.Join(stale[0], "old-tree")
	if code != 2 || !strings.Contains(stderr.String(), want+"\n") || !strings.Contains(clitest.LastLine(stderr.String()), "nosuch") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 for ./nosuch, after %q", code, stderr, want)
	}
	if wt := gitIn(t, dir, "worktree", "list"); strings.Count(wt, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wt)
	}
	if _, err := os.Stat(stale[0]); !os.IsNotExist(err) {
		t.Errorf("the killed run's directory is left: %v", err)
	}
	// The killed benchy's go test -c got SIGINT from the kernel: it
	// stops (once the compiles under way are done).
	for i := 0; i < 1200 && slices.ContainsFunc(procs(), func(p proc) bool { return p.pid == build.pid && !p.zombie }); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if slices.ContainsFunc(procs(), func(p proc) bool { return p.pid == build.pid && !p.zombie }) {
		t.Errorf("the killed benchy's go test -c (%d) runs on", build.pid)
	}
}

// A stop during the calibration ends it before the next benchmark: the
// signal's exit and one line, nothing written, no temporary directory.
func TestGotestStopWhileCalibrating(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	bench := "func Benchmark%s(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink = Work(data)\n\t}\n}\n"
	src := "package work\n\nimport \"testing\"\n\nvar sink int\n\nvar data = make([]int, 2000)\n\n"
	for _, n := range []string{"A", "B", "C", "D"} {
		src += strings.ReplaceAll(bench, "%s", n)
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n",
		"work.go":      "package work\n\n// Work sums xs.\nfunc Work(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n",
		"work_test.go": src})
	tmp := t.TempDir()
	cmd, stdout, stderr := startGotest(t, dir, tmp, "--sample-time", "1s")
	waitChild(t, cmd.Process.Pid, "-test.bench=^BenchmarkA$")
	cmd.Process.Signal(syscall.SIGTERM)
	code := processExit(t, cmd.Wait())
	want := "benchy: terminated (SIGTERM) before anything was measured: no result"
	if code != 143 || clitest.LastLine(stderr.String()) != want || stdout.Len() > 0 {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 143 and %q", code, stdout, stderr, want)
	}
	if left := benchyTmp(tmp); len(left) > 0 {
		t.Errorf("temporary directories left: %q", left)
	}
}
