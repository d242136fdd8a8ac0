package counters

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// PerCPU counts, on each CPU apart, the CPU time of this process from the
// moment it is opened: of its threads and of every process they start,
// which perf's task-clock with inherit follows, one counter per thread and
// CPU. benchy gotest opens it when its busy window opens and builds
// meanwhile, so that its own work (its threads, go list, go test -c and
// their compilers, git) can be taken out of how busy each CPU was.
//
// A read of an inherited counter sums the tasks it follows that still run
// and those that ended. task-clock counts the time a task runs, kernel
// time included, whatever the exclude bits say: they are set so that
// perf_event_paranoid 2 allows the counters.
//
// A thread made while the counters are being opened may be missed, or,
// made by a thread already counted and then opened too, counted twice.
// Read tells either from getrusage, which sums this process's threads and
// its waited-for children exactly, and fails rather than return such a
// count: over-counting would hide other tasks' work in the window.
type PerCPU struct {
	cpus []int
	fds  [][]int // per thread, per CPU (the order of cpus)
	base []time.Duration
	rus  time.Duration // getrusage of self and children at open
}

// MaxPerCPUCounters bounds the counters PerCPU opens (threads × CPUs): a
// process's descriptors are limited (often to 1024), and a machine with
// that many CPUs reads its busy over a window of its own.
const MaxPerCPUCounters = 512

// Read's tolerance for a count that disagrees with getrusage: 10%, and
// 20 ms for the little work of the opening itself.
const (
	perCPUSlack   = 0.10
	perCPUSlackNs = 20 * time.Millisecond
)

// OpenPerCPU opens the counters of the threads tids (this process's, all
// of them: harness.Threads) on cpus (the CPUs it may run on; its children
// start with its affinity); a thread made later by one of them is
// followed (inherit).
func OpenPerCPU(tids, cpus []int) (*PerCPU, error) {
	if n := len(tids) * len(cpus); n > MaxPerCPUCounters {
		return nil, fmt.Errorf("%d threads on %d CPUs need %d counters, more than %d", len(tids), len(cpus), n, MaxPerCPUCounters)
	}
	p := &PerCPU{cpus: cpus}
	for _, tid := range tids {
		var fds []int
		for _, cpu := range cpus {
			attr := unix.PerfEventAttr{
				Type:   unix.PERF_TYPE_SOFTWARE,
				Config: unix.PERF_COUNT_SW_TASK_CLOCK,
				Size:   uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
				Bits:   unix.PerfBitInherit | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
			}
			fd, err := unix.PerfEventOpen(&attr, tid, cpu, -1, unix.PERF_FLAG_FD_CLOEXEC)
			if errors.Is(err, unix.ESRCH) {
				break // the thread ended: nothing of it to count
			}
			if err != nil {
				closeCounters(fds)
				p.Close()
				return nil, fmt.Errorf("perf_event_open task-clock of thread %d on cpu %d: %w", tid, cpu, err)
			}
			fds = append(fds, fd)
		}
		if len(fds) < len(cpus) {
			closeCounters(fds)
			continue
		}
		p.fds = append(p.fds, fds)
	}
	base, err := p.counts()
	if err != nil {
		p.Close()
		return nil, err
	}
	p.base, p.rus = base, processCPU()
	return p, nil
}

// Read returns the time counted on each CPU since the counters opened,
// of the children that have ended and of the threads and children still
// running; an error when the count does not agree with getrusage.
func (p *PerCPU) Read() (map[int]time.Duration, error) {
	counts, err := p.counts()
	if err != nil {
		return nil, err
	}
	out := make(map[int]time.Duration, len(p.cpus))
	var total time.Duration
	for i, cpu := range p.cpus {
		out[cpu] = max(0, counts[i]-p.base[i])
		total += out[cpu]
	}
	if rus := processCPU() - p.rus; !agree(total, rus) {
		return nil, fmt.Errorf("the counters found %v of this process's CPU time where getrusage has %v: a thread was missed or counted twice", total, rus)
	}
	return out, nil
}

// agree reports whether a count agrees with getrusage's time.
func agree(count, rus time.Duration) bool {
	slack := max(time.Duration(perCPUSlack*float64(rus)), perCPUSlackNs)
	return count >= rus-slack && count <= rus+slack
}

// counts reads every counter, summed per CPU (in the order of cpus).
func (p *PerCPU) counts() ([]time.Duration, error) {
	if p.fds == nil {
		return nil, errors.New("per-CPU counters closed")
	}
	sums := make([]time.Duration, len(p.cpus))
	var buf [8]byte
	for _, fds := range p.fds {
		for i, fd := range fds {
			n, err := readCounter(fd, buf[:])
			if err != nil || n != len(buf) {
				return nil, fmt.Errorf("read task-clock on cpu %d: %d bytes, %v", p.cpus[i], n, err)
			}
			sums[i] += time.Duration(binary.NativeEndian.Uint64(buf[:]))
		}
	}
	return sums, nil
}

// processCPU is the CPU time of this process's threads and of its
// children that were waited for (getrusage).
func processCPU() time.Duration {
	var self, children unix.Rusage
	unix.Getrusage(unix.RUSAGE_SELF, &self)
	unix.Getrusage(unix.RUSAGE_CHILDREN, &children)
	return time.Duration(unix.TimevalToNsec(self.Utime) + unix.TimevalToNsec(self.Stime) +
		unix.TimevalToNsec(children.Utime) + unix.TimevalToNsec(children.Stime))
}

// Close closes the counters; Read fails after it.
func (p *PerCPU) Close() error {
	var errs []error
	for _, fds := range p.fds {
		errs = append(errs, closeCounters(fds))
	}
	p.fds = nil
	return errors.Join(errs...)
}
