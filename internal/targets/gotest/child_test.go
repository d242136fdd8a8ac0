//go:build linux

package gotest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// shell starts sh -c script, which writes the pid of a process it leaves
// running in the background to the file it is given as $1.
func shell(t *testing.T, script string) (*exec.Cmd, string) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	return exec.Command("sh", "-c", script, "sh", pidFile), pidFile
}

// waitPid waits for the file to hold a pid and returns it.
func waitPid(t *testing.T, path string) int {
	t.Helper()
	for range 1000 {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the command never started its background process")
	return 0
}

// goneSoon reports whether pid has ended (a zombie has ended too), waiting a
// while for the kernel to deliver a SIGKILL.
func goneSoon(pid int) bool {
	for range 500 {
		if gone(pid) {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

// A stop ends the command's whole process group, its grandchildren too (go
// test -c's compilers), and run says it was stopped, not how the command
// failed.
func TestChildrenStopEndsTheGroup(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ch := NewChildren(ctx)
	cmd, pidFile := shell(t, `sleep 60 & echo $! > "$1"; wait`)
	errc := make(chan error, 1)
	go func() { errc <- ch.run(cmd) }()
	grandchild := waitPid(t, pidFile)
	stop()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("run: %v, want context.Canceled", err)
	}
	if !goneSoon(grandchild) {
		syscall.Kill(grandchild, syscall.SIGKILL)
		t.Errorf("the grandchild %d outlived the stop", grandchild)
	}
	if cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setpgid {
		t.Error("the command was not in a process group of its own")
	}
}

// A command that ignores SIGINT is killed after the grace.
func TestChildrenStopKillsWhatIgnoresInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the grace")
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ch := NewChildren(ctx)
	cmd, pidFile := shell(t, `trap '' INT; echo $$ > "$1"; while :; do sleep 1; done`)
	errc := make(chan error, 1)
	go func() { errc <- ch.run(cmd) }()
	pid := waitPid(t, pidFile)
	stop()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("run: %v, want context.Canceled", err)
	}
	if !goneSoon(pid) {
		t.Errorf("%d outlived the stop", pid)
	}
}

// Kill ends every running group at once (a second signal exits benchy
// without waiting); the command ends killed.
func TestChildrenKill(t *testing.T) {
	ch := NewChildren(context.Background())
	cmd, pidFile := shell(t, `sleep 60 & echo $! > "$1"; wait`)
	errc := make(chan error, 1)
	go func() { errc <- ch.run(cmd) }()
	grandchild := waitPid(t, pidFile)
	ch.Kill()
	var ee *exec.ExitError
	if err := <-errc; !errors.As(err, &ee) || ee.ProcessState.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Errorf("run after Kill: %v, want killed", err)
	}
	if !goneSoon(grandchild) {
		syscall.Kill(grandchild, syscall.SIGKILL)
		t.Errorf("the grandchild %d outlived Kill", grandchild)
	}
	if len(ch.running) != 0 { // every command reaped
		t.Errorf("still running: %v", ch.running)
	}
}

// After a stop nothing starts; without one a command runs to its end, its
// output and its exit status as cmd.Run gives them.
func TestChildrenRun(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	stop()
	dir := t.TempDir()
	if err := NewChildren(ctx).run(exec.Command("touch", filepath.Join(dir, "ran"))); !errors.Is(err, context.Canceled) {
		t.Errorf("stopped: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("a command started after the stop")
	}
	var ch Children // the zero value: nothing stops it
	var out bytes.Buffer
	cmd := exec.Command("sh", "-c", "echo hello; exit 3")
	cmd.Stdout = &out
	var ee *exec.ExitError
	if err := ch.run(cmd); !errors.As(err, &ee) || ee.ExitCode() != 3 || out.String() != "hello\n" {
		t.Errorf("run: %v, output %q; want exit 3 and hello", err, out.String())
	}
	if err := ch.run(exec.Command("/nonexistent/command")); err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("a command that cannot start: %v", err)
	}
}
