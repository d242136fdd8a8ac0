//go:build unix

package procgroup

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Signal sends sig to every process of group pgid, the group a run leads
// (Setpgid): a stop or a timeout reaches the run and whatever it started,
// not the run alone. A group that is gone is no error: the run ended
// first.
func Signal(pgid int, sig syscall.Signal) {
	unix.Kill(-pgid, sig)
}
