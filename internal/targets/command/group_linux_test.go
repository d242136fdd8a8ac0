package command

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/procgroup"
	"github.com/benchy-dev/benchy/internal/result"
)

// alive reports whether pid is a process that has not exited (a zombie
// has: it only waits to be reaped).
func alive(pid int) bool {
	state, _, ok := procgroup.Of(pid)
	return ok && state != 'Z' && state != 'X'
}

// pidsIn reads the pids a command line wrote to path, one a line.
func pidsIn(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s: %q", path, b)
		}
		pids = append(pids, pid)
	}
	return pids
}

// What a run leaves running in its process group is killed as it ends
// and reported as an error on the experiment, saying how many; what the
// prepare leaves is killed and noted; what the setup starts is left
// running, for the runs (a server), until the cleanup stops it.
func TestLeftoversAreKilled(t *testing.T) {
	for _, tc := range []struct {
		name string
		exec func() Executor
	}{{"helper", func() Executor { return testSpawner(t) }}, {"local", func() Executor { return NewLocalSpawner() }}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			runs, prepares, setups := filepath.Join(dir, "runs"), filepath.Join(dir, "prepares"), filepath.Join(dir, "setups")
			cfg := Config{
				Command: "sleep 60 & echo $! >> " + runs + "; sleep 60 & echo $! >> " + runs,
				Shell:   true, Executor: tc.exec(),
				Prepare: "sleep 60 & echo $! >> " + prepares,
				Setup:   "sleep 60 & echo $! >> " + setups,
			}
			opts := pinned(t, 2) // and one warm-up: three runs
			tg, out := measure(t, context.Background(), cfg, opts)
			if out.Err != nil || len(out.Samples) != 2 {
				t.Fatalf("error %v, %d samples", out.Err, len(out.Samples))
			}
			for _, path := range []string{runs, prepares} {
				for _, pid := range pidsIn(t, path) {
					if alive(pid) {
						syscall.Kill(pid, syscall.SIGKILL)
						t.Errorf("%s: process %d left running", filepath.Base(path), pid)
					}
				}
			}
			for _, pid := range pidsIn(t, setups) {
				if !alive(pid) {
					t.Errorf("the setup's server %d was killed", pid)
				}
				syscall.Kill(pid, syscall.SIGKILL)
			}
			fs := tg.Check()
			if len(fs) != 1 || fs[0].Code != result.CodeLeftProcesses || fs[0].Severity != finding.Error {
				t.Fatalf("findings %v, want one left-processes error", fs)
			}
			ev := fs[0].Evidence
			if ev["runs"] != 3 || ev["processes"] != 6 || ev["prepare_processes"] != 3 {
				t.Errorf("evidence %v, want 3 runs leaving 6 processes, 3 left by the prepare", ev)
			}
			if !strings.Contains(fs[0].Message, "3 runs (1, 2, 3) left 6 processes") {
				t.Errorf("message %q", fs[0].Message)
			}
		})
	}
}

// A run that leaves nothing behind has no finding.
func TestNoLeftoversNoFinding(t *testing.T) {
	tg, out := measure(t, context.Background(), Config{Command: "true"}, pinned(t, 2))
	if out.Err != nil || tg.Check() != nil {
		t.Errorf("error %v, findings %v", out.Err, tg.Check())
	}
}

// A cleanup is a child like the others: a stop while it runs ends it (it
// ignores SIGTERM: SIGKILL follows), and one that starts after a stop has
// cleanupGrace, then is ended too; either way its group is gone and the
// target says why the cleanup did not finish.
func TestCleanupIsStopped(t *testing.T) {
	defer func(g time.Duration) { cleanupGrace = g }(cleanupGrace)
	cleanupGrace = 100 * time.Millisecond
	for _, tc := range []struct {
		name    string
		command string // runs until stopped in the second case
		want    string
	}{
		{"during the cleanup", "true", "benchy was stopped while it ran"},
		{"after a stop", "exec sleep 60", "still running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			started, cleaning := filepath.Join(dir, "started"), filepath.Join(dir, "cleaning")
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			opts := pinned(t, 2)
			opts.WarmupRuns = 0
			cfg := Config{Command: "touch " + started + "; " + tc.command, Shell: true,
				Cleanup: "trap '' TERM; echo $$ > " + cleaning + ".tmp; mv " + cleaning + ".tmp " + cleaning + "; sleep 60"}
			done := make(chan *Target, 1)
			go func() { tg, _ := measure(t, ctx, cfg, opts); done <- tg }()
			mark := started
			if tc.name == "during the cleanup" {
				mark = cleaning
			}
			if !waitFor(mark, func() bool { return len(done) > 0 }) {
				t.Fatal("ended before the stop")
			}
			stop()
			tg := <-done
			if err := tg.CleanupErr(); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "did not finish") {
				t.Errorf("CleanupErr %v, want it to say %q", err, tc.want)
			}
			pid := pidsIn(t, cleaning)[0]
			if members, _ := procgroup.Members(pid); alive(pid) || len(members) > 0 {
				t.Errorf("the cleanup's group %d is still running: %v", pid, members)
			}
		})
	}
}

// Abort kills the run in progress of a local spawner at once (for a
// benchy about to exit on a second signal): nothing it started outlives
// benchy.
func TestAbortKillsTheRun(t *testing.T) {
	s := NewLocalSpawner()
	defer s.Close()
	started := filepath.Join(t.TempDir(), "started")
	p, err := Resolve("echo $$ > "+started+".tmp; mv "+started+".tmp "+started+"; trap '' TERM; sleep 60", true)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- harness.Pinned(lastCPU(t), true, func() error {
			if _, err := s.Open(); err != nil {
				return err
			}
			_, err := s.Exec(context.Background(), p.job("", false))
			return err
		})
	}()
	if !waitFor(started, func() bool { return len(done) > 0 }) {
		t.Fatalf("the run ended before it started: %v", <-done)
	}
	s.Abort()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Exec after Abort: %v, want context.Canceled", err)
	}
	if pid := pidsIn(t, started)[0]; alive(pid) {
		t.Errorf("the run %d is still running", pid)
	}
}
