package gotest

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// ownGroup puts the command in a process group of its own, which gets
// SIGINT should benchy die first.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGINT
}

// reap waits for the command to end, calls ended while it is a zombie (its
// pid is not reused before it is reaped), then reaps it.
func reap(cmd *exec.Cmd, ended func()) error {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
	ended()
	return cmd.Wait()
}
