// Package procgroup signals and kills the process groups of the programs
// benchy starts: every program benchy starts and waits for (a timed run of
// exec, a run under callgrind, go test and git for gotest) leads a group
// of its own (Setpgid), so that a stop reaches what it started too
// (Signal), and what it started and did not wait for can be found, killed
// and reported once it was reaped (KillLeftovers), not left to outlive
// benchy or to run on the measured CPU.
package procgroup

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// leftoverWait bounds how long KillLeftovers waits for what it killed to
// die (SIGKILL cannot be ignored: it is only a matter of the victims
// getting the CPU, which the helper, pinned to the same one, yields).
const leftoverWait = time.Second

// KillLeftovers kills what a run left running: the processes still in
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
func KillLeftovers(pgid int) int {
	if unix.Kill(-pgid, 0) == unix.ESRCH {
		return 0 // the common case: one system call
	}
	killed := map[int]bool{}
	deadline := time.Now().Add(leftoverWait)
	for {
		members, foreign := Members(pgid)
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

// Members lists the live processes of process group pgid (zombies
// are dead: they wait only for their parent to reap them); foreign says
// the group is led by a process whose pid is pgid, so it is not the
// group of a reaped run.
func Members(pgid int) (members []int, foreign bool) {
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
		state, group, ok := Of(pid)
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

// Of reads the state ('R', 'S', 'Z', ...) and the process group of pid
// from /proc/PID/stat.
func Of(pid int) (state byte, pgid int, ok bool) {
	f := StatFields(pid)
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
	if _, g, ok := Of(pid); !ok || g != pgid {
		return false
	}
	return unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) == nil
}

// StatFields returns the fields of /proc/PID/stat from the third on
// (state, ppid, pgrp, ...); nil when it cannot be read. The command name,
// field 2, is in parentheses and may hold anything, parentheses and
// spaces included: the fields are counted from the last ')'.
func StatFields(pid int) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}
