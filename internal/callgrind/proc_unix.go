//go:build unix

package callgrind

import (
	"os/exec"
	"syscall"
)

// ownGroup puts valgrind and the program in a process group of their own,
// so that a stop ends both.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}
