package pipeline

import "syscall"

// childAttr puts a child of benchy in a process group of its own, so a
// Ctrl-C at the terminal reaches benchy alone, which passes it on once;
// and has the kernel kill the child when the thread that started it dies,
// so not even a SIGKILL to benchy leaves it running.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
