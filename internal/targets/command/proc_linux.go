package command

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/procgroup"
	"github.com/benchy-dev/benchy/internal/result"
)

// rusageNames are the counters every run has from wait4.
var rusageNames = []string{
	CounterUserNs, CounterSysNs, CounterMaxRSS, result.CounterMinorFaults, CounterMajorFaults,
	result.CounterVoluntaryCS, result.CounterInvoluntaryCS,
}

// addRusage adds wait4's counters to rep, and task-clock from them when
// perf could not count it. noStarter says why the runs are forked
// directly ("": the starter starts them), so that max-rss-kb has a floor,
// CounterRSSFloor, which every run records then.
func addRusage(rep *result.CounterReport, perfTaskClock bool, noStarter string) {
	rep.Opened = append(rep.Opened, rusageNames...)
	if noStarter == "" {
		rep.SetNote(CounterMaxRSS, fmt.Sprintf("the program's own peak RSS (wait4 ru_maxrss, over its process tree): it is started by a program of %d bytes, whose few pages are all it inherits of the process that started it", len(starterImage(starterMachine, starterCode))))
	} else {
		rep.Opened = append(rep.Opened, CounterRSSFloor)
		rep.SetNote(CounterRSSFloor, "the runs are forked directly, without the starter: "+noStarter)
	}
	for _, name := range []string{result.CounterVoluntaryCS, result.CounterInvoluntaryCS} {
		rep.SetNote(name, "over the run's process tree (wait4): a program's own threads taking turns on the pinned CPU count as switches too")
	}
	if perfTaskClock {
		return
	}
	why := rep.Unavailable[taskClock]
	delete(rep.Unavailable, taskClock)
	rep.Opened = append(rep.Opened, taskClock)
	rep.SetNote(taskClock, "user-ns + sys-ns from wait4, since perf could not count it ("+why+")")
}

// rusageCounts adds a reaped run's rusage to m (its descendants that it
// waited for included), and task-clock when perf did not count it.
func rusageCounts(ru *unix.Rusage, m map[string]int64) {
	user, sys := ru.Utime.Nano(), ru.Stime.Nano()
	m[CounterUserNs] = user
	m[CounterSysNs] = sys
	m[CounterMaxRSS] = ru.Maxrss // KiB on Linux
	m[result.CounterMinorFaults] = ru.Minflt
	m[CounterMajorFaults] = ru.Majflt
	m[result.CounterVoluntaryCS] = ru.Nvcsw
	m[result.CounterInvoluntaryCS] = ru.Nivcsw
	if _, ok := m[taskClock]; !ok {
		m[taskClock] = user + sys
	}
}

// zombieCPU reads where an exited, not yet reaped, child ran: the CPU it
// last ran on (field 39 of /proc/PID/stat) and its affinity
// (Cpus_allowed_list in /proc/PID/status). The CPU is -1 when unknown.
func zombieCPU(pid int) (cpu int, allowed string) {
	cpu = -1
	if f := procgroup.StatFields(pid); len(f) > 39-3 {
		if n, err := strconv.Atoi(f[39-3]); err == nil {
			cpu = n
		}
	}
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status"); err == nil {
		allowed = statusField(b, "Cpus_allowed_list")
	}
	return cpu, allowed
}

// resetPeakRSS makes this process's peak RSS its current RSS (clear_refs
// type 5, Linux 4.0). A vfork child inherits the forking process's peak
// as its own at exec; reset just before the fork, what it inherits is
// what the forker holds then, not the most it ever held. It fails
// harmlessly where /proc is read-only: the floor is then the peak.
func resetPeakRSS() bool {
	f, err := os.OpenFile("/proc/self/clear_refs", os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	_, err = f.Write([]byte("5"))
	f.Close()
	return err == nil
}

// rssFloor is the least peak RSS, in KiB, a run forked now inherits from
// this process: its current RSS once the peak is reset, else its peak.
// It reads /proc/self/statm, a few numbers, so it costs microseconds
// before every fork (outside the timed window).
func rssFloor() int64 {
	if !resetPeakRSS() {
		return vmHWM("/proc/self/status")
	}
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize()) >> 10
}

// vmHWM is the peak RSS in KiB that the status file at path reports
// (VmHWM); 0 when unknown.
func vmHWM(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseInt(strings.TrimSuffix(statusField(b, "VmHWM"), " kB"), 10, 64)
	return n
}

// statusField is the value of "key:" in a /proc status file.
func statusField(b []byte, key string) string {
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && k == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
