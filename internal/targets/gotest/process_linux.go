package gotest

import (
	"context"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/procgroup"
)

// runGroup runs cmd (started by start) in a process group of its own, so
// that a terminal's Ctrl-C reaches benchy, which stops, and not the test
// process behind its back, and waits for it on every path. When ctx is
// cancelled or limit has passed, the group is sent SIGTERM, then SIGKILL
// after killGrace. When the process has ended, whatever it left running in
// its group is killed (a program a benchmark started, spinning on the
// measured CPU); the process is reaped only after that, so the group is
// still its own. Should benchy itself be killed, the kernel kills the
// process (Pdeathsig).
func runGroup(ctx context.Context, cmd *exec.Cmd, start func(*exec.Cmd) error, limit time.Duration) (end processEnd, err error) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := start(cmd); err != nil {
		return processEnd{}, err
	}
	pid := cmd.Process.Pid
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		var info unix.Siginfo
		for unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
		}
	}()
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	select {
	case <-exited:
	case <-ctx.Done():
		end.stopped = true
	case <-deadline.C:
		end.timedOut = true
	}
	if end.stopped || end.timedOut {
		procgroup.Signal(pid, unix.SIGTERM)
		select {
		case <-exited:
		case <-time.After(killGrace):
			procgroup.Signal(pid, unix.SIGKILL)
			<-exited
		}
	}
	procgroup.Signal(pid, unix.SIGKILL) // what it left behind; it is a zombie still, the leader of its group
	return end, cmd.Wait()
}
