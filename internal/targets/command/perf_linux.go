package command

import (
	"errors"
	"slices"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/result"
)

const taskClock = result.CounterTaskClock

// childEvent is a perf event counted over each run.
type childEvent struct {
	name   string
	typ    uint32
	config uint64
	hw     bool // needs a PMU
}

// childEvents are what perf counts of a run. Context switches and page
// faults are not among them: wait4's rusage has them, split finer (minor
// and major, voluntary and involuntary), for no file descriptor.
var childEvents = []childEvent{
	{result.CounterTaskClock, unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_TASK_CLOCK, false},
	{result.CounterMigrations, unix.PERF_TYPE_SOFTWARE, unix.PERF_COUNT_SW_CPU_MIGRATIONS, false},
	{result.CounterCycles, unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_CPU_CYCLES, true},
	{result.CounterInstructions, unix.PERF_TYPE_HARDWARE, unix.PERF_COUNT_HW_INSTRUCTIONS, true},
}

// childCounters are perf events opened on the forking thread, disabled,
// with inherit and enable_on_exec: each child gets its own copy, enabled
// when it execs, so the count covers the run from its exec to its exit
// (its threads and children too) and nothing of the forking thread. An
// exited child's count is added to the parent event before waitid sees
// the exit, so reading before the fork and after the exit gives the run's.
//
// One more event, a dummy that is not inherited, keeps the count right
// when the child runs on the forking thread's CPU. When every event of a
// thread is inherited, the kernel marks the child's perf context a clone
// of the thread's, and on a switch between the two on one CPU it swaps
// the contexts instead of switching them: the vfork child then execs
// holding the thread's own events, and enable_on_exec enables those
// (seen on Linux 6.18: most pinned runs counted 0). A context with an
// event that is not inherited is never cloned.
type childCounters struct {
	fds   []int
	names []string
	hw    []bool
	guard int      // the dummy event's fd; -1 when none
	buf   [24]byte // value, time enabled, time running
}

func openChildCounters(rep *result.CounterReport) *childCounters {
	c := &childCounters{guard: -1}
	paranoid := counters.Paranoid()
	guard := unix.PerfEventAttr{Type: unix.PERF_TYPE_SOFTWARE, Config: unix.PERF_COUNT_SW_DUMMY,
		Size: uint32(unsafe.Sizeof(unix.PerfEventAttr{})), Bits: unix.PerfBitDisabled | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv}
	fd, err := unix.PerfEventOpen(&guard, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil {
		for _, e := range childEvents {
			rep.SetUnavailable(e.name, "perf could not open the dummy event that keeps inherited counts right ("+counters.PerfReason(err, false, paranoid)+")")
		}
		return c
	}
	c.guard = fd
	for _, e := range childEvents {
		attr := unix.PerfEventAttr{
			Type:        e.typ,
			Config:      e.config,
			Size:        uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
			Bits:        unix.PerfBitDisabled | unix.PerfBitInherit | unix.PerfBitEnableOnExec,
			Read_format: unix.PERF_FORMAT_TOTAL_TIME_ENABLED | unix.PERF_FORMAT_TOTAL_TIME_RUNNING,
		}
		fd, err := unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
		userOnly := false
		if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) {
			// As `perf stat` falls back to ":u" where the kernel may not
			// be counted (perf_event_paranoid >= 2).
			attr.Bits |= unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv
			fd, err = unix.PerfEventOpen(&attr, 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
			userOnly = err == nil
		}
		if err != nil {
			rep.SetUnavailable(e.name, counters.PerfReason(err, e.hw, paranoid))
			continue
		}
		c.fds = append(c.fds, fd)
		c.names = append(c.names, e.name)
		c.hw = append(c.hw, e.hw)
		rep.Opened = append(rep.Opened, e.name)
		if userOnly {
			rep.SetNote(e.name, "user space only: perf_event_paranoid="+paranoid+" forbids counting the kernel")
		}
	}
	if c.has(taskClock) {
		rep.SetNote(taskClock, "perf, inherited by each run from its exec to its exit, its threads and children included")
	}
	return c
}

func (c *childCounters) has(name string) bool { return slices.Contains(c.names, name) }

// read returns every event's value, time enabled and time running; an
// event that cannot be read is left zero, and delta leaves it out.
func (c *childCounters) read() [][3]uint64 {
	vals := make([][3]uint64, len(c.fds))
	for i, fd := range c.fds {
		n, err := unix.Read(fd, c.buf[:])
		if err != nil || n != len(c.buf) {
			continue
		}
		vals[i] = *(*[3]uint64)(unsafe.Pointer(&c.buf[0]))
	}
	return vals
}

// delta is each event's count over the run. A hardware count is left out
// when the event was not on the PMU all the time it was enabled (the
// kernel multiplexed it), since it then covers only part of the run.
func (c *childCounters) delta(before, after [][3]uint64) map[string]int64 {
	d := make(map[string]int64, len(c.fds)+8)
	for i, name := range c.names {
		b, a := before[i], after[i]
		if a[1] < b[1] || a[0] < b[0] || a[1] == 0 {
			continue // unread, or not of one event
		}
		if c.hw[i] && a[2]-b[2] != a[1]-b[1] {
			continue
		}
		d[name] = int64(a[0] - b[0])
	}
	return d
}

func (c *childCounters) close() {
	for _, fd := range c.fds {
		unix.Close(fd)
	}
	if c.guard >= 0 {
		unix.Close(c.guard)
	}
	c.fds, c.names, c.guard = nil, nil, -1
}
