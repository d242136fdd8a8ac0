package command

import (
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// leftoverWait bounds how long killLeftovers waits for what it killed to
// die (SIGKILL cannot be ignored: it is only a matter of the victims
// getting the CPU, which the helper, pinned to the same one, yields).
const leftoverWait = time.Second

// killLeftovers kills what a run left running: the processes still in
// its process group once the run, the group's leader, was reaped, and it
// returns how many it killed. Every run starts as the leader of a group
// of its own (Setpgid), and what it starts stays in that group unless it
// leaves it (setsid or setpgid, as a daemon does: those are not seen; a
// cgroup would hold them, and benchy does not make one).
//
// The group's number cannot be given to a new process while any process
// is in the group, so a group still there after the reap is the run's.
// The one exception is a group whose leader's pid is the number: a new
// process that took the number once the run's group had emptied, left
// alone. Each process is killed through a pidfd opened before its group
// is read again, so a pid reused meanwhile is never signalled.
func killLeftovers(pgid int) int {
	if unix.Kill(-pgid, 0) == unix.ESRCH {
		return 0 // the common case: one system call
	}
	killed := map[int]bool{}
	deadline := time.Now().Add(leftoverWait)
	for {
		members, foreign := groupMembers(pgid)
		if foreign || len(members) == 0 {
			break
		}
		for _, pid := range members {
			if killMember(pid, pgid) {
				killed[pid] = true
			}
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return len(killed)
}

// groupMembers lists the live processes of process group pgid (zombies
// are dead: they wait only for their parent to reap them); foreign says
// the group is led by a process whose pid is pgid, so it is not the
// group of a reaped run.
func groupMembers(pgid int) (members []int, foreign bool) {
	d, err := os.Open("/proc")
	if err != nil {
		return nil, false
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		state, group, ok := procGroup(pid)
		if !ok || group != pgid {
			continue
		}
		if pid == pgid {
			return nil, true
		}
		if state != 'Z' && state != 'X' {
			members = append(members, pid)
		}
	}
	return members, false
}

// procGroup reads the state and the process group of pid from
// /proc/PID/stat.
func procGroup(pid int) (state byte, pgid int, ok bool) {
	f := statFields(pid)
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	g, err := strconv.Atoi(f[2])
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], g, true
}

// killMember sends SIGKILL to pid if it is still in group pgid, and
// reports whether it did.
func killMember(pid, pgid int) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err == unix.ENOSYS {
		// Before Linux 5.3: the group, which groupMembers has just
		// found to be the run's, is signalled as a whole.
		return unix.Kill(-pgid, unix.SIGKILL) == nil
	}
	if err != nil {
		return false // gone
	}
	defer unix.Close(fd)
	if _, g, ok := procGroup(pid); !ok || g != pgid {
		return false
	}
	return unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil
}
