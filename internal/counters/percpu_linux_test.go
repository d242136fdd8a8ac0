package counters

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A child the process starts, pinned to one CPU, is counted on that CPU
// once it has ended: as much as its own CPU time (getrusage of the
// children), and little on the others (the process's own threads).
func TestPerCPUCountsChildren(t *testing.T) {
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		t.Fatal(err)
	}
	var cpus []int
	for c := 0; c < 1024; c++ {
		if allowed.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	pinned := cpus[len(cpus)-1]
	var got map[int]time.Duration
	var child time.Duration
	onLockedThread(t, func() {
		p, err := OpenPerCPU()
		if err != nil {
			t.Skipf("per-CPU counters refused here: %v", err)
		}
		defer p.Close()
		var one unix.CPUSet
		one.Set(pinned)
		if err := unix.SchedSetaffinity(0, &one); err != nil {
			t.Fatal(err)
		}
		defer unix.SchedSetaffinity(0, &allowed)
		var before, after syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_CHILDREN, &before)
		// A busy shell loop: its CPU time, not its wall time, is what
		// is compared, so a busy machine only makes it take longer.
		cmd := exec.Command("sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done")
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		syscall.Getrusage(syscall.RUSAGE_CHILDREN, &after)
		child = time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
		if got, err = p.Read(); err != nil {
			t.Fatal(err)
		}
	})
	if child <= 0 {
		t.Skip("the child's CPU time was not measured")
	}
	var others time.Duration
	for c, d := range got {
		if c != pinned {
			others += d
		}
	}
	t.Logf("child %v; counted on cpu %d %v, on the others %v", child, pinned, got[pinned], others)
	// getrusage rounds to the tick on some kernels: allow a quarter.
	if got[pinned] < child*3/4 || got[pinned] > child*5/4+20*time.Millisecond {
		t.Errorf("cpu %d counted %v of a child that ran %v there", pinned, got[pinned], child)
	}
	if others > got[pinned]/4 {
		t.Errorf("the other CPUs counted %v, the pinned one %v", others, got[pinned])
	}
}
