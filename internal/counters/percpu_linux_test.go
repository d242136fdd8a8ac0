package counters

import (
	"os/exec"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
)

// A child the process starts, pinned to one CPU, is counted on that CPU
// once it has ended: as much as its own CPU time (getrusage of the
// children), and little on the others (the process's own threads). After
// Close, Read fails rather than say nothing was counted.
func TestPerCPUCountsChildren(t *testing.T) {
	cpus, ok := sysread.AllowedCPUs().Get()
	if !ok {
		t.Fatal("no affinity")
	}
	pinned := cpus[len(cpus)-1]
	var got map[int]time.Duration
	var child time.Duration
	onLockedThread(t, func() {
		// Listed here, so the thread that starts the child is among
		// them: one made between the listing and the opening would
		// not be counted, nor its children.
		tids, err := harness.Threads()
		if err != nil {
			t.Fatal(err)
		}
		p, err := OpenPerCPU(tids, cpus)
		if err != nil {
			t.Skipf("per-CPU counters refused here: %v", err)
		}
		defer p.Close()
		var all, one unix.CPUSet
		if err := unix.SchedGetaffinity(0, &all); err != nil {
			t.Fatal(err)
		}
		one.Set(pinned)
		if err := unix.SchedSetaffinity(0, &one); err != nil {
			t.Fatal(err)
		}
		defer unix.SchedSetaffinity(0, &all)
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
		p.Close()
		if _, err := p.Read(); err == nil {
			t.Error("Read after Close did not fail")
		}
	})
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

// A thread missed, or counted twice, shows against getrusage.
func TestPerCPUAgree(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		count, rus time.Duration
		want       bool
	}{
		{500 * ms, 500 * ms, true},
		{460 * ms, 500 * ms, true},   // 8% short
		{440 * ms, 500 * ms, false},  // a thread missed
		{1000 * ms, 500 * ms, false}, // counted twice
		{15 * ms, 0, true},           // the opening's own work
		{30 * ms, 0, false},
	} {
		if got := agree(c.count, c.rus); got != c.want {
			t.Errorf("agree(%v, %v) = %v, want %v", c.count, c.rus, got, c.want)
		}
	}
}

// More counters than MaxPerCPUCounters are refused before any opens.
func TestPerCPUTooMany(t *testing.T) {
	tids := make([]int, MaxPerCPUCounters)
	if _, err := OpenPerCPU(tids, []int{0, 1}); err == nil {
		t.Error("1024 counters opened")
	}
}
