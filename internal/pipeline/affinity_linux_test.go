package pipeline

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/harness"
)

// onEveryCPU lets every thread of the test binary run on every CPU again.
// A run with its CPU isolated takes that CPU from every other thread of
// the process for good (harness.Pinned); in the test binary those
// threads go on running later tests, and a test that reads which CPUs it
// may use would read what an earlier test left.
func onEveryCPU(t *testing.T) {
	t.Helper()
	var all unix.CPUSet
	for c := range runtime.NumCPU() {
		all.Set(c)
	}
	tids, err := harness.Threads()
	if err != nil {
		t.Fatal(err)
	}
	for _, tid := range tids {
		if err := unix.SchedSetaffinity(tid, &all); err != nil && err != unix.ESRCH {
			t.Fatalf("sched_setaffinity of thread %d: %v", tid, err)
		}
	}
}
