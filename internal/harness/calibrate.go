package harness

import (
	"math"
	"time"
)

// MinSampleGranules is how many clock steps a sample must last at least:
// at 1000 steps the clock's own rounding is at most 0.1% of the sample.
const MinSampleGranules = 1000

// MaxIters bounds the iterations of one sample, so a loop the compiler
// emptied (~0 ns per op) cannot make calibration grow without end.
const MaxIters = 1 << 32

// SampleTarget is the least duration of one sample: the requested sample
// time, but never fewer than MinSampleGranules steps of the clock.
func SampleTarget(sampleTime time.Duration, granularity time.Duration) time.Duration {
	if floor := MinSampleGranules * granularity; sampleTime < floor {
		return floor
	}
	return sampleTime
}

// nextIters predicts how many iterations reach target, from a run of
// prevIters that took prevNs. It is testing.B's rule, written out:
func nextIters(prevIters int64, prevNs int64, target time.Duration) int64 {
	n := int64(0)
	if prevNs <= 0 {
		// The run was below the clock's resolution: grow by the cap.
		n = prevIters * 100
	} else {
		// Multiply first, then divide, to keep precision; aim 20% past
		// the target so the next run likely reaches it.
		n = int64(float64(target.Nanoseconds()) * 1.2 * float64(prevIters) / float64(prevNs))
	}
	// Grow at most 100x the last run, so one fast outlier cannot
	// overshoot by orders of magnitude ...
	n = min(n, 100*prevIters)
	// ... and at least by one, so calibration always ends.
	n = max(n, prevIters+1)
	return min(n, MaxIters)
}

// Calibrate finds the iterations per sample whose run lasts at least
// target. run(n) runs n iterations and returns how long they took; it is a
// parameter so calibration is tested with a fake clock.
func Calibrate(run func(n int64) time.Duration, target time.Duration) int64 {
	n := int64(1)
	for {
		d := run(n)
		if d >= target || n >= MaxIters {
			return n
		}
		n = nextIters(n, d.Nanoseconds(), target)
	}
}

// confirmRuns is how many runs at the calibrated count check it: a single
// calibration run can be slower than the samples that follow (a cold
// cache, a clock still ramping up), which would leave every sample short.
const confirmRuns = 2

// Confirm returns the iterations that reach target given fastestNs, the
// fastest of the confirming runs of n iterations: n itself when that run
// reached the target, else n scaled up with the same 20% headroom.
func Confirm(n int64, fastestNs int64, target time.Duration) int64 {
	if fastestNs >= target.Nanoseconds() || n >= MaxIters {
		return n
	}
	return nextIters(n, fastestNs, target)
}

// CalibrateConfirmed is Calibrate, then Confirm until the fastest of
// confirmRuns runs at the count reaches target. One slow run stops
// Calibrate early: a thread just pinned waits for its CPU's current task
// (on a loaded machine, for milliseconds), so its first run of one
// iteration can already last the target, which would leave every piece
// timed afterwards one iteration long, the clock's cost and not the loop.
func CalibrateConfirmed(run func(n int64) time.Duration, target time.Duration) int64 {
	n := Calibrate(run, target)
	for {
		fastest := time.Duration(math.MaxInt64)
		for range confirmRuns {
			fastest = min(fastest, run(n))
		}
		next := Confirm(n, fastest.Nanoseconds(), target)
		if next == n {
			return n
		}
		n = next
	}
}
