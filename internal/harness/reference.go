package harness

import (
	"slices"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// The reference loop is the cheapest loop that still does work: a store
// to memory, an increment, a compare and a taken branch per
// iteration, about one cycle on current cores. Its speed depends on how
// much of the core the thread gets, not only on the clock: when another
// hardware thread of the same core (on a virtual machine: the host's) is
// busy, it slows down while a dependent-add chain, bound by latency, does
// not. Timed around every workload, it tells a number measured on a core
// shared that way from the others.

// referenceLoop stores into sink n times. Each caller gives a sink of its
// own: the probe of every CPU runs the loop at once, and one shared
// variable would be a data race, and a cache line the CPUs fight over,
// slowing the very loops that measure them.
//
//go:noinline
func referenceLoop(n int, sink *int) {
	for i := range n {
		*sink = i
	}
}

// refPiece is the length of one timed run of the reference loop: long
// against the clock's cost, short enough for many runs in a probe.
const refPiece = 100 * time.Microsecond

// minRefPieces is the least number of pieces timed: with 9, the median is
// that of an uninterrupted piece even when four were interrupted.
const minRefPieces = 9

// ReferenceLoopNs times the reference loop for about d, in pieces of about
// 100 µs, and returns the median time per iteration in ns. The median, not
// the fastest piece: a core shared for part of the time must show it.
func ReferenceLoopNs(d time.Duration) float64 {
	return referenceMedian(referenceIters(), d)
}

// referenceIters is how many iterations of the reference loop last a
// piece (refPiece) on this thread's CPU.
func referenceIters() int {
	var sink int
	return int(CalibrateConfirmed(func(n int64) time.Duration {
		start := time.Now()
		referenceLoop(int(n), &sink)
		return time.Since(start)
	}, refPiece))
}

// referenceMedian times pieces of n iterations for about d (at least
// minRefPieces) and returns the median ns per iteration.
func referenceMedian(n int, d time.Duration) float64 {
	var per []float64
	var sink int
	deadline := time.Now().Add(d)
	for len(per) < minRefPieces || time.Now().Before(deadline) {
		start := time.Now()
		referenceLoop(n, &sink)
		per = append(per, float64(time.Since(start).Nanoseconds())/float64(n))
	}
	slices.Sort(per)
	return per[len(per)/2]
}

// The speed check beside every sample: three pieces of the reference
// loop, of samplePiece each, timed right after the sample on its thread.
// The fastest is the core's speed then: a host that shares the core slows
// all three, while a preemption (which disturbed already tells) lands in
// one piece, and under load often in two. Three pieces of 20 µs, against a
// sample of 10 ms, cost under 1% of the sampling; a host that shares the
// core does so for stretches of seconds, so a piece beside each sample
// sees it, where the probes before and after the experiment see only its
// ends.
const (
	samplePiece  = 20 * time.Microsecond
	samplePieces = 3
)

// speedCheck times the reference loop beside every sample.
type speedCheck struct {
	n    int // iterations of one piece
	sink int
}

// newSpeedCheck calibrates the pieces on this thread's CPU.
func newSpeedCheck() *speedCheck {
	n := referenceIters() * int(samplePiece) / int(refPiece)
	return &speedCheck{n: max(n, 1)}
}

// mark sets RefNs of every sample of a batch (a batch is taken at once,
// so one check is its speed); a nil check marks nothing.
func (c *speedCheck) mark(batch []result.Sample) {
	if c == nil || len(batch) == 0 {
		return
	}
	var per [samplePieces]float64
	for i := range per {
		start := time.Now()
		referenceLoop(c.n, &c.sink)
		per[i] = float64(time.Since(start).Nanoseconds()) / float64(c.n)
	}
	for i := range batch {
		batch[i].RefNs = slices.Min(per[:])
	}
}

// Probe is what the CPU delivered right before or after a workload's
// samples, measured on the pinned thread.
type Probe struct {
	// ClockHz is the clock from a dependent-add chain; 0 when not measured.
	ClockHz float64
	// RefNs is ReferenceLoopNs; 0 when not measured.
	RefNs float64
}
