package harness

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Pinned runs f on a new goroutine locked to its own OS thread, and pins
// that thread to cpu with sched_setaffinity. With isolate, every other
// thread of the process first loses cpu from its affinity mask, so Go's own
// threads (GC workers, sysmon, idle Ps) do not run on the measured CPU.
//
// The order matters. runtime.LockOSThread starts the runtime's template
// thread, from which threads created while a goroutine is locked are
// cloned; it must exist, and be isolated, before this thread narrows its own
// mask, or a new thread could inherit the single-CPU mask. Afterwards the
// thread gets its old mask back before it returns to the runtime's pool; if
// that fails, the goroutine exits still locked, which makes the runtime
// retire the thread rather than reuse it pinned.
func Pinned(cpu int, isolate bool, f func() error) error {
	if cpu < 0 || cpu >= 8*int(unsafe.Sizeof(unix.CPUSet{})) {
		return fmt.Errorf("cpu %d is out of range", cpu)
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		var old unix.CPUSet
		if err := unix.SchedGetaffinity(0, &old); err != nil {
			done <- fmt.Errorf("read the thread's affinity: %w", err)
			return
		}
		err := pinAndRun(cpu, isolate, f)
		if unix.SchedSetaffinity(0, &old) == nil {
			runtime.UnlockOSThread()
		}
		done <- err
	}()
	return <-done
}

func pinAndRun(cpu int, isolate bool, f func() error) error {
	if isolate {
		if err := isolateOthers(cpu); err != nil {
			return err
		}
	}
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pin to cpu %d: sched_setaffinity: %w", cpu, err)
	}
	var got unix.CPUSet
	if err := unix.SchedGetaffinity(0, &got); err != nil {
		return fmt.Errorf("check pin to cpu %d: sched_getaffinity: %w", cpu, err)
	}
	if got.Count() != 1 || !got.IsSet(cpu) {
		return fmt.Errorf("pin to cpu %d did not hold: the thread may run on %d CPUs", cpu, got.Count())
	}
	if now, err := CurrentCPU(); err == nil && now != cpu {
		// The kernel moves the thread at the next scheduling point; yield
		// once so the first sample does not pay for the move.
		runtime.Gosched()
	}
	return recovered(f)
}

// isolateOthers removes cpu from the affinity mask of every other thread of
// this process. A thread whose mask would become empty (it may only run on
// cpu) is left alone: the kernel would refuse, and the run is still valid.
//
// A thread created during a pass, by a thread not yet changed, inherits the
// old mask; so passes repeat until one changes nothing (a few at most).
func isolateOthers(cpu int) error {
	const maxPasses = 5
	for range maxPasses {
		changed, err := isolatePass(cpu)
		if err != nil || !changed {
			return err
		}
	}
	return nil
}

func isolatePass(cpu int) (changed bool, err error) {
	var setErr error
	err = otherThreadsOn(cpu, func(tid int, set *unix.CPUSet) error {
		set.Clear(cpu)
		if set.Count() == 0 {
			return nil
		}
		if err := unix.SchedSetaffinity(tid, set); err != nil && err != unix.ESRCH {
			setErr = fmt.Errorf("keep thread %d off cpu %d: sched_setaffinity: %w", tid, cpu, err)
			return setErr
		}
		changed = true
		return nil
	})
	switch {
	case setErr != nil:
		return false, setErr
	case err != nil: // the threads could not be listed
		return false, fmt.Errorf("keep other threads off cpu %d: %w", cpu, err)
	}
	return changed, nil
}

// Unisolate gives cpu back to every other thread of this process: the
// isolation of Pinned takes it from them for good, and a run that
// measures again on another CPU would otherwise keep Go's threads off
// both, where two CPUs are all there are, off every CPU they may use.
func Unisolate(cpu int) {
	self := unix.Gettid()
	tids, err := Threads()
	if err != nil {
		return
	}
	for _, tid := range tids {
		var set unix.CPUSet
		if tid == self || unix.SchedGetaffinity(tid, &set) != nil || set.IsSet(cpu) {
			continue
		}
		set.Set(cpu)
		unix.SchedSetaffinity(tid, &set) // a thread that exited is gone
	}
}

// otherThreadsOn calls f with every other thread of this process that may
// run on cpu, and its affinity; a thread that exited meanwhile is skipped.
// It stops at f's first error.
func otherThreadsOn(cpu int, f func(tid int, set *unix.CPUSet) error) error {
	self := unix.Gettid()
	tids, err := Threads()
	if err != nil {
		return err
	}
	for _, tid := range tids {
		if tid == self {
			continue
		}
		var set unix.CPUSet
		if unix.SchedGetaffinity(tid, &set) != nil || !set.IsSet(cpu) {
			continue
		}
		if err := f(tid, &set); err != nil {
			return err
		}
	}
	return nil
}

// CurrentCPU returns the CPU the calling thread is running on (getcpu(2)).
func CurrentCPU() (int, error) {
	var cpu uint32
	_, _, errno := unix.Syscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(cpu), nil
}

// CanPin says this system can pin a thread to a CPU.
const CanPin = true

// OthersOn counts the other threads of this process that may still run on
// cpu: 0 after a successful isolation, more when the process may only run
// there (taskset -c 0, a one-CPU cpuset), so isolation was not possible.
func OthersOn(cpu int) int {
	n := 0
	otherThreadsOn(cpu, func(int, *unix.CPUSet) error { n++; return nil })
	return n
}

// Threads lists the threads of this process (/proc/self/task).
func Threads() ([]int, error) {
	entries, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return nil, err
	}
	var tids []int
	for _, e := range entries {
		if tid, err := strconv.Atoi(e.Name()); err == nil {
			tids = append(tids, tid)
		}
	}
	return tids, nil
}

// threadCPU is the CPU time of the calling thread
// (CLOCK_THREAD_CPUTIME_ID); 0 when it cannot be read.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
