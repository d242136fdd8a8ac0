//go:build unix

package pipeline

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// sigName is the name of s: SIGKILL.
func sigName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return s.String()
}
