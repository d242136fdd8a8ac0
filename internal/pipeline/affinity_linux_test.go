package pipeline

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// onEveryCPU locks the test's goroutine to its thread and lets that
// thread run on every CPU again, until the test ends. A run with its CPU
// isolated takes that CPU from every other thread of the process for
// good (harness.Pinned); in the test binary those threads go on running
// later tests, and a test that reads which CPUs it may use would read
// what an earlier test left.
func onEveryCPU(t *testing.T) {
	t.Helper()
	runtime.LockOSThread()
	t.Cleanup(runtime.UnlockOSThread)
	var all unix.CPUSet
	for c := range runtime.NumCPU() {
		all.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &all); err != nil {
		t.Fatalf("sched_setaffinity: %v", err)
	}
}
