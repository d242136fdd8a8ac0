package counters

import (
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
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
type PerCPU struct {
	cpus []int
	fds  [][]int // per thread, per CPU (the order of cpus)
	seen map[int]bool
}

// MaxPerCPUCounters bounds the counters PerCPU opens (threads × CPUs): a
// process's descriptors are limited (often to 1024), and a machine with
// that many CPUs reads its busy over a window of its own.
const MaxPerCPUCounters = 512

// OpenPerCPU opens the counters on every CPU this process may run on (its
// children start with its affinity), for every thread it has; a thread
// made later by one of them is followed (inherit), and the threads are
// listed twice so that one made while the first were opened is not
// missed.
func OpenPerCPU() (*PerCPU, error) {
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		return nil, fmt.Errorf("sched_getaffinity: %w", err)
	}
	p := &PerCPU{seen: map[int]bool{}}
	for cpu := 0; cpu < len(allowed)*64; cpu++ {
		if allowed.IsSet(cpu) {
			p.cpus = append(p.cpus, cpu)
		}
	}
	for range 2 {
		if err := p.openThreads(); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// openThreads opens the counters of the threads not yet counted.
func (p *PerCPU) openThreads() error {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, e := range entries {
		tid, err := strconv.Atoi(e.Name())
		if err != nil || p.seen[tid] {
			continue
		}
		if (len(p.fds)+1)*len(p.cpus) > MaxPerCPUCounters {
			return fmt.Errorf("%d threads on %d CPUs need more than %d counters", len(entries), len(p.cpus), MaxPerCPUCounters)
		}
		var fds []int
		for _, cpu := range p.cpus {
			attr := unix.PerfEventAttr{
				Type:   unix.PERF_TYPE_SOFTWARE,
				Config: unix.PERF_COUNT_SW_TASK_CLOCK,
				Size:   uint32(unsafe.Sizeof(unix.PerfEventAttr{})),
				Bits:   unix.PerfBitInherit | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv,
			}
			fd, err := unix.PerfEventOpen(&attr, tid, cpu, -1, unix.PERF_FLAG_FD_CLOEXEC)
			if err == unix.ESRCH {
				break // the thread ended: nothing of it to count
			}
			if err != nil {
				for _, fd := range fds {
					unix.Close(fd)
				}
				return fmt.Errorf("perf_event_open task-clock of thread %d on cpu %d: %w", tid, cpu, err)
			}
			fds = append(fds, fd)
		}
		p.seen[tid] = true
		if len(fds) == len(p.cpus) {
			p.fds = append(p.fds, fds)
		} else {
			for _, fd := range fds {
				unix.Close(fd)
			}
		}
	}
	return nil
}

// Read returns the time counted on each CPU so far.
func (p *PerCPU) Read() (map[int]time.Duration, error) {
	out := make(map[int]time.Duration, len(p.cpus))
	var buf [8]byte
	for _, fds := range p.fds {
		for i, fd := range fds {
			n, err := unix.Read(fd, buf[:])
			for err == unix.EINTR {
				n, err = unix.Read(fd, buf[:])
			}
			if err != nil || n != len(buf) {
				return nil, fmt.Errorf("read task-clock on cpu %d: %d bytes, %v", p.cpus[i], n, err)
			}
			out[p.cpus[i]] += time.Duration(binary.NativeEndian.Uint64(buf[:]))
		}
	}
	return out, nil
}

// Close closes the counters.
func (p *PerCPU) Close() error {
	var first error
	for _, fds := range p.fds {
		for _, fd := range fds {
			if err := unix.Close(fd); err != nil && first == nil {
				first = err
			}
		}
	}
	p.fds = nil
	return first
}
