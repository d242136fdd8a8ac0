package counters

import (
	"errors"
	"fmt"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/result"
)

// part is one kind of counter in a source.
type part interface {
	read(into map[string]int64) error
	close() error
}

// source reads every part, on the thread it was opened on.
type source struct {
	tid   int
	parts []part
}

// Open opens every counter it can for the calling OS thread and reports
// what it opened and why the rest could not be.
//
// Call it on the goroutine that measures, after runtime.LockOSThread and
// pinning: perf_event_open with pid 0 and cpu -1 counts the calling thread
// on any CPU, getrusage(RUSAGE_THREAD) reports the calling thread, and
// /proc/thread-self is the calling thread. Read must be called on the same
// thread, and returns an error on any other; Close may be called anywhere.
//
// Open does not fail: getrusage always works on Linux, so the Source counts
// at least voluntary-cs, involuntary-cs and minor-faults. The sched file's
// nr_migrations is read only when perf's cpu-migrations cannot be.
//
// Open before warming up, not just before the first sample: on Linux 6.18
// the first context switch after perf_event_open was missed by
// context-switches (getrusage counted it).
func Open() (Source, result.CounterReport) {
	return open(unix.PerfEventOpen, "/proc/sys/kernel/perf_event_paranoid", "/proc/thread-self/sched", "/proc/thread-self/schedstat")
}

func open(perfOpen openFunc, paranoidPath, schedPath, schedstatPath string) (Source, result.CounterReport) {
	rep := result.CounterReport{Opened: []string{}}
	s := &source{tid: unix.Gettid()}
	paranoid := readParanoid(paranoidPath)
	if g := openGroup(perfOpen, softwareEvents, false, paranoid, &rep); g != nil {
		s.parts = append(s.parts, g)
	}
	if g := openGroup(perfOpen, hardwareEvents, true, paranoid, &rep); g != nil {
		s.parts = append(s.parts, g)
	}

	ru := rusagePart{}
	if err := ru.read(map[string]int64{}); err != nil {
		for _, name := range []string{result.CounterVoluntaryCS, result.CounterInvoluntaryCS, result.CounterMinorFaults} {
			rep.SetUnavailable(name, err.Error())
		}
	} else {
		s.parts = append(s.parts, ru)
		rep.AddOpened(result.CounterVoluntaryCS)
		rep.AddOpened(result.CounterInvoluntaryCS)
		rep.AddOpened(result.CounterMinorFaults)
	}

	// The on-CPU time of each sample is what separates a sample the thread
	// ran through from one it was preempted in; where perf's task-clock
	// cannot be opened, the thread's own CPU clock gives it.
	if !slices.Contains(rep.Opened, result.CounterTaskClock) {
		s.parts = append(s.parts, threadCPUPart{})
		rep.AddOpened(result.CounterThreadCPU)
	} else {
		rep.SetUnavailable(result.CounterThreadCPU, "not read: "+result.CounterTaskClock+" counts the same time")
	}

	if slices.Contains(rep.Opened, result.CounterMigrations) {
		// Reading the sched file costs 10-15 µs (the kernel formats ~40
		// lines), and that cost would land inside every counted window.
		rep.SetUnavailable(result.CounterNrMigrations, "not read: "+result.CounterMigrations+" counts the same migrations for less")
	} else if sp, err := openSched(schedPath); err != nil {
		rep.SetUnavailable(result.CounterNrMigrations, err.Error())
	} else {
		s.parts = append(s.parts, sp)
		rep.AddOpened(result.CounterNrMigrations)
	}

	// The time off the CPU has two parts: the thread waited runnable while
	// another task ran (run delay: interference), or it blocked on its own
	// (the collector, a lock, Go's scheduler handing it its goroutine).
	// Only the run delay tells them apart.
	if sp, err := openSchedstat(schedstatPath); err != nil {
		rep.SetUnavailable(result.CounterRunDelay, err.Error())
	} else {
		s.parts = append(s.parts, sp)
		rep.AddOpened(result.CounterRunDelay)
	}
	return s, rep
}

func (s *source) Read() (map[string]int64, error) {
	if tid := unix.Gettid(); tid != s.tid {
		return nil, fmt.Errorf("counters read on thread %d but opened on thread %d: they count thread %d", tid, s.tid, s.tid)
	}
	m := make(map[string]int64, 16)
	for _, p := range s.parts {
		if err := p.read(m); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (s *source) Close() error {
	var errs []error
	for _, p := range s.parts {
		errs = append(errs, p.close())
	}
	s.parts = nil
	return errors.Join(errs...)
}

// rusagePart reads getrusage(RUSAGE_THREAD): no privilege, no PMU needed.
type rusagePart struct{}

func (rusagePart) read(into map[string]int64) error {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return fmt.Errorf("getrusage(RUSAGE_THREAD): %w", err)
	}
	into[result.CounterVoluntaryCS] = int64(ru.Nvcsw)
	into[result.CounterInvoluntaryCS] = int64(ru.Nivcsw)
	into[result.CounterMinorFaults] = int64(ru.Minflt)
	return nil
}

func (rusagePart) close() error { return nil }

// threadCPUPart reads clock_gettime(CLOCK_THREAD_CPUTIME_ID): the ns the
// calling thread has run, with no privilege and no perf.
type threadCPUPart struct{}

func (threadCPUPart) read(into map[string]int64) error {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return fmt.Errorf("clock_gettime(CLOCK_THREAD_CPUTIME_ID): %w", err)
	}
	into[result.CounterThreadCPU] = ts.Nano()
	return nil
}

func (threadCPUPart) close() error { return nil }

// threadFilePart rereads one of the calling thread's files and parses one
// counter from it. The file is opened once, through /proc/thread-self, so
// it stays the opening thread's file.
type threadFilePart struct {
	fd      int
	buf     []byte
	file    string // for errors: "sched"
	counter string
	parse   func([]byte) (int64, error)
}

// schedBufSize bounds one read of the sched file (about 2 KiB on 6.x);
// nr_migrations is among its first lines, so a longer file loses nothing.
const schedBufSize = 8 << 10

// schedstatBufSize holds the schedstat file, one short line. The kernel
// formats it quickly: a reading of all counters went from 1.23 to 1.86 µs
// with it (BenchmarkRead), twice per sample, outside the timed region.
const schedstatBufSize = 96

func openSched(path string) (*threadFilePart, error) {
	return openThreadFile(path, "sched", result.CounterNrMigrations, schedBufSize, parseSched)
}

func openSchedstat(path string) (*threadFilePart, error) {
	return openThreadFile(path, "schedstat", result.CounterRunDelay, schedstatBufSize, parseSchedstat)
}

// openThreadFile opens the file and reads it once, so that a file that
// cannot be parsed is refused now rather than at every sample.
func openThreadFile(path, file, counter string, bufSize int, parse func([]byte) (int64, error)) (*threadFilePart, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	p := &threadFilePart{fd: fd, buf: make([]byte, bufSize), file: file, counter: counter, parse: parse}
	if err := p.read(map[string]int64{}); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return p, nil
}

func (p *threadFilePart) read(into map[string]int64) error {
	n, err := unix.Pread(p.fd, p.buf, 0)
	if err != nil {
		return fmt.Errorf("read %s: %w", p.file, err)
	}
	v, err := p.parse(p.buf[:n])
	if err != nil {
		return err
	}
	into[p.counter] = v
	return nil
}

func (p *threadFilePart) close() error { return unix.Close(p.fd) }
