package procgroup

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid is a process that has not exited (a zombie
// has: it only waits to be reaped).
func alive(pid int) bool {
	state, _, ok := Of(pid)
	return ok && state != 'Z' && state != 'X'
}

// startGroup starts script with sh as the leader of a new process group;
// the script writes the pid of a sleep it leaves running to a file, which
// startGroup waits for and reads.
func startGroup(t *testing.T, script string) (*exec.Cmd, int) {
	t.Helper()
	child := filepath.Join(t.TempDir(), "child")
	cmd := exec.Command("sh", "-c", "sleep 60 & echo $! > "+child+".tmp; mv "+child+".tmp "+child+"; "+script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait() // an error once the test waited
	})
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(child); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("%s: %q", child, b)
			}
			return cmd, pid
		}
		if time.Now().After(deadline) {
			t.Fatal("the script did not start its child")
		}
	}
}

// What the leader of a reaped group left running is killed and counted.
func TestKillLeftovers(t *testing.T) {
	cmd, sleeper := startGroup(t, "exit 0")
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if !alive(sleeper) {
		t.Fatalf("the child %d ended before it was looked for", sleeper)
	}
	if n := KillLeftovers(cmd.Process.Pid); n != 1 || alive(sleeper) {
		t.Errorf("KillLeftovers killed %d, child alive %v; want 1 killed", n, alive(sleeper))
	}
	if n := KillLeftovers(cmd.Process.Pid); n != 0 {
		t.Errorf("KillLeftovers of an empty group killed %d", n)
	}
}

// A group led by a live process is not a reaped run's: KillLeftovers
// leaves it alone (its number may have been given to someone else).
func TestLeftoversOfALiveGroupAreNotKilled(t *testing.T) {
	cmd, sleeper := startGroup(t, "wait")
	if n := KillLeftovers(cmd.Process.Pid); n != 0 || !alive(cmd.Process.Pid) || !alive(sleeper) {
		t.Errorf("KillLeftovers of a live group killed %d (leader alive %v, its child %v)", n, alive(cmd.Process.Pid), alive(sleeper))
	}
}

// Signal reaches the whole group: the leader and what it started.
func TestSignalReachesTheGroup(t *testing.T) {
	cmd, sleeper := startGroup(t, "wait")
	Signal(cmd.Process.Pid, syscall.SIGKILL)
	if err := cmd.Wait(); err == nil {
		t.Fatal("the leader exited cleanly: it was not signalled")
	}
	for deadline := time.Now().Add(time.Minute); alive(sleeper); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the leader's child %d is still alive", sleeper)
		}
	}
}
