package gotest

import (
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// StartOffCPU starts cmd from a thread that may not run on cpu, so every
// thread of the test process inherits a mask without it: the helper then
// pins the benchmark's thread to cpu, and Go's other threads (the GC
// workers, sysmon, testing's goroutines) stay off it from the start. A
// thread's affinity is no privilege: the helper may pin to cpu though it
// inherited a mask without it. Where cpu is the only CPU allowed, the
// mask is left as it is.
func StartOffCPU(cpu int) func(*exec.Cmd) error {
	return startWith(func(old unix.CPUSet) unix.CPUSet {
		old.Clear(cpu)
		return old
	})
}

// startWith starts cmd from a thread of its own whose affinity is mask of
// the thread's affinity, so the process inherits it; the thread gets its
// old affinity back after. Where the affinity cannot be read, or mask
// leaves no CPU, cmd starts as it is.
func startWith(mask func(old unix.CPUSet) unix.CPUSet) func(*exec.Cmd) error {
	return func(cmd *exec.Cmd) error {
		done := make(chan error, 1)
		go func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var old unix.CPUSet
			if err := unix.SchedGetaffinity(0, &old); err != nil {
				done <- cmd.Start()
				return
			}
			if set := mask(old); set.Count() > 0 && unix.SchedSetaffinity(0, &set) == nil {
				defer unix.SchedSetaffinity(0, &old)
			}
			done <- cmd.Start()
		}()
		return <-done
	}
}

// startupCPUs is the affinity benchy started with, read before anything
// pinned or isolated a thread of it.
var startupCPUs, startupErr = func() (unix.CPUSet, error) {
	var set unix.CPUSet
	return set, unix.SchedGetaffinity(0, &set)
}()

// StartAnywhere starts cmd from a thread allowed every CPU benchy started
// with, as go test's process is: benchy's own threads may have lost the
// measured CPU since (harness.isolateOthers), and a child inherits the
// affinity of the thread that starts it. It also returns how many CPUs
// that is, go test's default GOMAXPROCS here (0 when unknown).
func StartAnywhere() (func(*exec.Cmd) error, int) {
	if startupErr != nil {
		return nil, 0
	}
	set := startupCPUs
	return startWith(func(unix.CPUSet) unix.CPUSet { return set }), set.Count()
}
