//go:build !linux

package procgroup

// KillLeftovers kills nothing where /proc does not list a group's members:
// it reports none.
func KillLeftovers(pgid int) int { return 0 }

// Of reports nothing where /proc does not describe a process: ok is false.
func Of(pid int) (state byte, pgid int, ok bool) { return 0, 0, false }
