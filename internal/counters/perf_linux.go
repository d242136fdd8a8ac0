package counters

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/result"
)

// event is one perf event to open; alt, when not nil, is tried when the
// event itself cannot be opened.
type event struct {
	name   string
	typ    uint32
	config uint64
	alt    *event
}

// softwareEvents are counted by the kernel itself and exist on every
// machine, VMs included.
var softwareEvents = []event{
	{name: result.CounterTaskClock, typ: unix.PERF_TYPE_SOFTWARE, config: unix.PERF_COUNT_SW_TASK_CLOCK},
	{name: result.CounterContextSwitches, typ: unix.PERF_TYPE_SOFTWARE, config: unix.PERF_COUNT_SW_CONTEXT_SWITCHES},
	{name: result.CounterMigrations, typ: unix.PERF_TYPE_SOFTWARE, config: unix.PERF_COUNT_SW_CPU_MIGRATIONS},
	{name: result.CounterPageFaults, typ: unix.PERF_TYPE_SOFTWARE, config: unix.PERF_COUNT_SW_PAGE_FAULTS},
}

// hardwareEvents need a PMU, which most VMs do not expose.
var hardwareEvents = []event{
	{name: result.CounterCycles, typ: unix.PERF_TYPE_HARDWARE, config: unix.PERF_COUNT_HW_CPU_CYCLES},
	{name: result.CounterInstructions, typ: unix.PERF_TYPE_HARDWARE, config: unix.PERF_COUNT_HW_INSTRUCTIONS},
	{name: result.CounterRefCycles, typ: unix.PERF_TYPE_HARDWARE, config: unix.PERF_COUNT_HW_REF_CPU_CYCLES,
		alt: &event{name: BusCycles, typ: unix.PERF_TYPE_HARDWARE, config: unix.PERF_COUNT_HW_BUS_CYCLES}},
	{name: result.CounterBranchMisses, typ: unix.PERF_TYPE_HARDWARE, config: unix.PERF_COUNT_HW_BRANCH_MISSES},
}

// openFunc is unix.PerfEventOpen; tests replace it to script failures.
type openFunc func(attr *unix.PerfEventAttr, pid, cpu, groupFd, flags int) (int, error)

// perfGroup is one perf_event group: a leader and its siblings, read with
// one read(2) so every count in it covers exactly the same stretch of the
// thread. Software and hardware events are separate groups, so a machine
// without a PMU still gets the software counts.
type perfGroup struct {
	fds   []int    // leader first
	names []string // in the order the kernel reports them: leader, then siblings as added
	times bool     // the read format carries time enabled and running
	buf   []byte
}

// openGroup opens events as one group counting the calling thread
// (pid 0, cpu -1: this thread, on whatever CPU it runs). The first event
// that opens leads the group; an event that fails is recorded in rep with
// the reason and the others are still tried. It returns nil when no event
// opened.
func openGroup(open openFunc, events []event, isHardware bool, paranoid string, rep *result.CounterReport) *perfGroup {
	g := &perfGroup{times: isHardware}
	format := uint64(unix.PERF_FORMAT_GROUP)
	if isHardware {
		format |= unix.PERF_FORMAT_TOTAL_TIME_ENABLED | unix.PERF_FORMAT_TOTAL_TIME_RUNNING
	}
	userOnly := false
	try := func(e event) error {
		leader := -1
		if len(g.fds) > 0 {
			leader = g.fds[0]
		}
		attr := unix.PerfEventAttr{
			Type:        e.typ,
			Config:      e.config,
			Size:        uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
			Read_format: format,
		}
		if userOnly {
			attr.Bits = unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv
		}
		fd, err := open(&attr, 0, -1, leader, unix.PERF_FLAG_FD_CLOEXEC)
		if isHardware && !userOnly && (errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM)) {
			// perf_event_paranoid >= 2 forbids counting the kernel but
			// allows user space, as `perf stat` falls back to ":u". The
			// whole group then counts user space only, so its counts agree.
			attr.Bits = unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv
			if fd, err = open(&attr, 0, -1, leader, unix.PERF_FLAG_FD_CLOEXEC); err == nil {
				userOnly = true
			}
		}
		if err != nil {
			return err
		}
		g.fds = append(g.fds, fd)
		g.names = append(g.names, e.name)
		rep.AddOpened(e.name)
		if userOnly {
			rep.SetNote(e.name, fmt.Sprintf("user space only: perf_event_paranoid=%s forbids counting the kernel", paranoid))
		}
		return nil
	}
	for _, e := range events {
		err := try(e)
		if err == nil {
			continue
		}
		rep.SetUnavailable(e.name, PerfReason(err, isHardware, paranoid))
		if e.alt != nil {
			if err := try(*e.alt); err != nil {
				rep.SetUnavailable(e.alt.name, PerfReason(err, isHardware, paranoid))
			}
		}
	}
	if len(g.fds) == 0 {
		return nil
	}
	words := 1 + len(g.fds)
	if g.times {
		words += 2
	}
	g.buf = make([]byte, 8*words)
	return g
}

func (g *perfGroup) read(into map[string]int64) error {
	n, err := readCounter(g.fds[0], g.buf)
	if err != nil {
		return fmt.Errorf("read perf group %s: %w", strings.Join(g.names, ","), err)
	}
	r, err := parseGroup(g.buf[:n], len(g.names), g.times)
	if err != nil {
		return fmt.Errorf("read perf group %s: %w", strings.Join(g.names, ","), err)
	}
	for i, name := range g.names {
		into[name] = int64(r.values[i])
	}
	if g.times {
		into[HardwareEnabled] = int64(r.enabled)
		into[HardwareRunning] = int64(r.running)
	}
	return nil
}

func (g *perfGroup) close() error { return closeCounters(g.fds) }

// readCounter reads a perf counter's descriptor, again when a signal
// interrupted the read.
func readCounter(fd int, buf []byte) (int, error) {
	n, err := unix.Read(fd, buf)
	for err == unix.EINTR {
		n, err = unix.Read(fd, buf)
	}
	return n, err
}

// closeCounters closes perf counters' descriptors, every one of them
// whatever fails.
func closeCounters(fds []int) error {
	var errs []error
	for _, fd := range fds {
		if err := unix.Close(fd); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// PerfReason turns a perf_event_open error into the words a person needs:
// what is missing, and the errno to search for. paranoid is Paranoid's.
func PerfReason(err error, isHardware bool, paranoid string) string {
	var errno unix.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	name := unix.ErrnoName(errno)
	switch errno {
	case unix.ENOENT:
		if isHardware {
			return "no hardware PMU: " + name
		}
		return "event not in this kernel: " + name
	case unix.EACCES:
		return "perf_event_paranoid=" + paranoid + ": " + name
	case unix.EPERM:
		// Also what a seccomp filter (e.g. a container's) answers.
		return "perf_event_paranoid=" + paranoid + " or a seccomp filter: " + name
	case unix.ENOSYS:
		return "perf_event_open not in this kernel: " + name
	case unix.EOPNOTSUPP:
		// Linux's ENOTSUP is the same number; the kernel says EOPNOTSUPP.
		return "not supported by the PMU: EOPNOTSUPP"
	case unix.ENODEV:
		return "no PMU for this event: " + name
	case unix.EMFILE:
		return "out of file descriptors: " + name
	}
	return errno.Error() + ": " + name
}

// readParanoid returns /proc/sys/kernel/perf_event_paranoid's value, or
// "unknown (why)".
// Paranoid is this machine's perf_event_paranoid, for PerfReason.
func Paranoid() string { return readParanoid("/proc/sys/kernel/perf_event_paranoid") }

func readParanoid(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	v := strings.TrimSpace(string(b))
	if _, err := strconv.Atoi(v); err != nil {
		return fmt.Sprintf("unknown (%s holds %.20q)", path, v)
	}
	return v
}
