package harness

import (
	"errors"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// Target is one thing the harness measures: a Go loop in this process, a
// program started as a child, a benchmark of a Go test binary. The harness
// calls every method on the pinned thread, in this order: Open once, Time
// any number of times (warm-up and calibration), Sample once per recorded
// sample with Between after each, and Close once. It never times anything
// itself: a target knows what a sample of its kind is.
type Target interface {
	// Name is the experiment's name in the result.
	Name() string
	// Open prepares the target before warm-up: setup, counters, the
	// collector. An error fails the target, and nothing else is called.
	Open() error
	// Time runs n iterations and returns how long they took. Warm-up and
	// calibration use it; nothing it does is recorded.
	Time(n int64) (time.Duration, error)
	// Sample takes a recorded sample of n iterations: its time, the
	// counters over it, and the CPU it ended on. A target whose samples
	// come in batches (a test binary run as one process takes several)
	// returns the whole batch; the harness counts every sample.
	Sample(n int64) ([]result.Sample, error)
	// Between runs after every recorded sample, outside any timing (an
	// in-process target collects garbage there when the heap grew large).
	Between()
	// Close ends the target after its last sample and returns what it
	// measured besides the samples; end says how the sampling ended, so
	// a stopped run skips what is slow and a failed one what may fail
	// again.
	Close(end End) Totals
}

// Iterated is a target that chooses its own iterations per sample (a Go
// test binary, calibrated by testing's own ramp): the harness uses
// Iters instead of calibrating, when it is positive.
type Iterated interface {
	Iters() int64
}

// End says how a target's sampling ended.
type End int

const (
	EndCompleted End = iota // every sample was taken
	EndStopped              // a stop ended it early: what is slow is skipped
	EndFailed               // warm-up, calibration or a sample failed or panicked, or never began
)

// ending is how a sampling phase ended: completed says it ran to its end
// (every sample, or until a stop request); done is the run's ctx.Done().
func ending(completed bool, done <-chan struct{}) End {
	switch {
	case !completed:
		return EndFailed
	case closed(done):
		return EndStopped
	}
	return EndCompleted
}

// ErrRefused is what a target's Open wraps when it cannot be measured as
// asked (a call too short to time alone): the command's usage, not a
// failure of the experiment.
var ErrRefused = errors.New("refused")

// Totals are what a target measured besides its samples. Each field's
// zero value means "not measured" together with its flag.
type Totals struct {
	// GCCycles counts the collections that ran on their own inside
	// samples; ForcedGC the ones run between samples to bound the heap.
	GCCycles uint32
	ForcedGC uint32
	// AllocsMeasured says AllocsPerOp and BytesPerOp were measured: heap
	// allocations and bytes per op, from one untimed run.
	AllocsMeasured bool
	AllocsPerOp    float64
	BytesPerOp     float64
}
