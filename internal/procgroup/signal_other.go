//go:build !unix

package procgroup

import "syscall"

// Signal does nothing where there are no process groups: no run is
// started in one there.
func Signal(pgid int, sig syscall.Signal) {}
