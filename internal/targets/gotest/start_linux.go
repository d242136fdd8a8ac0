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
			off := old
			off.Clear(cpu)
			if off.Count() > 0 && unix.SchedSetaffinity(0, &off) == nil {
				defer unix.SchedSetaffinity(0, &old)
			}
			done <- cmd.Start()
		}()
		return <-done
	}
}
