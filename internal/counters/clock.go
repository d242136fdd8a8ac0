package counters

import (
	"math"
	"time"

	"github.com/benchy-dev/benchy/internal/sink"
)

// addsPerTurn is how many dependent adds addChain makes per turn of its
// loop. Sixteen adds make the 16-cycle dependency chain the critical path
// of each turn; the loop counter and the branch run beside it, so their
// cost is hidden even on cores that take a branch only every other cycle.
const addsPerTurn = 16

// clockRep is the length of one timed run of the chain: long against the
// cost of reading the clock (tens of ns), short enough that many runs fit
// between timer interrupts and a few of them are never interrupted.
const clockRep = 200 * time.Microsecond

// minClockRuns is the least number of timed runs MeasureClock takes: the
// fastest of several is the clock even when a few were interrupted.
const minClockRuns = 8

// addA and addB are what the chain adds. They are variables so that the
// pure-Go version cannot fold or merge the adds.
var addA, addB uint64 = 1, 1

// MeasureClock returns the effective clock of the CPU the calling thread
// runs on, in Hz, measured for about d: it times a chain of dependent
// integer adds, which every modern core executes at one add per cycle (the
// latency of an add is one cycle, and each add needs the result of the one
// before), in runs of about 200 µs, and keeps the fastest run. Interrupts,
// preemption and frequency ramps only slow a run, so the fastest is the
// closest to the clock. Give d at least 20 ms, so a CPU that was idle has
// time to ramp up. On amd64 and arm64 the chain is written in assembly; on
// other architectures it is Go and the result is approximate (see
// chain_generic.go). Call it on the pinned thread.
func MeasureClock(d time.Duration) (hz float64) {
	turns := calibrateChain()
	deadline := time.Now().Add(d)
	for runs := 1; ; runs++ {
		start := time.Now()
		sink.Keep(addChain(turns, addA, addB))
		el := time.Since(start)
		if el > 0 {
			hz = max(hz, float64(turns*addsPerTurn)/el.Seconds())
		}
		// At least minClockRuns runs, however short d: a thread preempted
		// for the whole window would otherwise return one slow run.
		if runs >= minClockRuns && !time.Now().Before(deadline) && hz > 0 {
			return hz
		}
	}
}

// calibrateChain returns the number of turns that take about clockRep.
func calibrateChain() uint64 {
	turns := uint64(1 << 10)
	for {
		start := time.Now()
		sink.Keep(addChain(turns, addA, addB))
		el := time.Since(start)
		if el >= clockRep || turns >= math.MaxUint64/4 {
			return turns
		}
		if el <= 0 {
			turns *= 4
			continue
		}
		// Aim at clockRep, growing at most 4x a step in case the first
		// run was cut short by a slow clock read.
		next := uint64(float64(turns) * float64(clockRep) / float64(el))
		turns = min(max(next, turns+1), turns*4)
	}
}
