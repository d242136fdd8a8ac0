package workload

import (
	"time"

	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// The tail family is the lesson of `run --latency`: two functions with the
// same median call, one of which takes 100 times as long now and then. The
// time per op of a loop (an average over thousands of calls) says they
// differ by a fifth; the percentiles of single calls say where.

// tailSlowEvery is how often tail/rare-slow takes its slow path: one call
// in 500, so 0.2% of the calls are slow and p99.9 lands among them. (With
// one in 1,000, exactly 0.1% would be, and the nearest-rank p99.9 would be
// the last fast call.)
const tailSlowEvery = 500

// tailSlowFactor is how many times the usual work the slow path does.
const tailSlowFactor = 100

// tail/stall's planted stall: every tailStallEvery of wall time, one call
// spins for tailStallFor. At 1,000 calls a second that is one call in 200
// (0.5%: a closed loop's p99 is a usual call, its p99.9 the stall) and
// the 5 calls due during it wait 1 to 5 ms (2.5% of the calls: the open
// loop's p99 is about 3 ms). Every 100 ms would make the stalled calls
// exactly 1%, where a nearest-rank p99 falls on one side or the other by
// chance.
const (
	tailStallEvery = 200 * time.Millisecond
	tailStallFor   = 5 * time.Millisecond
)

// tailStallNext is when tail/stall next stalls.
var tailStallNext time.Time

// tailCalls counts tail/rare-slow's calls; a package variable, so the
// compiler cannot know which call is slow.
var tailCalls uint64

var (
	tailSteady = inproc.Workload{
		Name:        "tail/steady",
		Description: "a 4096-value sum per call, every call alike: with --latency, p99.9 is close to the median",
		Units:       sumLen, Unit: "add", ReadsMemory: true,
		Loop: tailSteadyLoop,
		Call: tailSteadyCall,
	}
	tailRareSlow = inproc.Workload{
		Name:        "tail/rare-slow",
		Description: "tail/steady, but 1 call in 500 does 100 sums: the time per op is a fifth higher; with --latency, the median matches tail/steady and p99.9 is 100x",
		Units:       sumLen, Unit: "add", ReadsMemory: true, // the usual call; the floor holds
		Loop: tailRareSlowLoop,
		Call: tailRareSlowCall,
	}
	tailStall = inproc.Workload{
		Name:        "tail/stall",
		Description: "tail/steady, but every 200 ms one call spins 5 ms: a closed loop counts one slow call; with --latency --rate 1000/s, the open loop's p99 counts the calls due behind it",
		Units:       sumLen, Unit: "add", ReadsMemory: true, // the usual call
		Loop: tailStallLoop,
		Call: tailStallCall,
	}
)

// tailStallCall sums, first spinning tailStallFor when a stall is due (on
// the wall clock: a stall that comes with time, as a collector's or a
// timer's, not with the calls).
func tailStallCall() {
	if now := time.Now(); !now.Before(tailStallNext) {
		tailStallNext = now.Add(tailStallEvery)
		for time.Since(now) < tailStallFor {
			sink.Keep(sum(sumData))
		}
	}
	sink.Keep(sum(sumData))
}

func tailStallLoop(n int) {
	for i := 0; i < n; i++ {
		tailStallCall()
	}
}

func tailSteadyCall() { sink.Keep(sum(sumData)) }

func tailSteadyLoop(n int) {
	for i := 0; i < n; i++ {
		sink.Keep(sum(sumData))
	}
}

func tailRareSlowCall() {
	for range tailReps() {
		sink.Keep(sum(sumData))
	}
}

// tailReps counts a call of tail/rare-slow and says how many sums it does:
// tailSlowFactor every tailSlowEvery calls, else one.
func tailReps() int {
	tailCalls++
	if tailCalls%tailSlowEvery == 0 {
		return tailSlowFactor
	}
	return 1
}

func tailRareSlowLoop(n int) {
	for i := 0; i < n; i++ {
		tailRareSlowCall()
	}
}
