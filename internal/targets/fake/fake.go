// Package fake is a harness.Target that takes no time: every run of n
// iterations "lasts" n times a fixed cost, so the harness's scheduling,
// calibration and warm-up are tested without timing. It records every call
// in order, can fail or panic at a chosen sample, and reads the CPU it runs
// on, so pinning is tested for real.
package fake

import (
	"errors"
	"fmt"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
)

// Target is a fake target. Set its fields before the harness uses it.
type Target struct {
	// ID names the target.
	ID string
	// PerIter is what one iteration "costs"; 0 means 1 ns.
	PerIter time.Duration
	// FailAt and PanicAt, when > 0, make the sample of that number
	// (1-based) fail with an error or panic.
	FailAt, PanicAt int
	// OpenErr, when not nil, is returned by Open.
	OpenErr error
	// Noise, when > 0, spreads the samples' times: sample k lasts its cost
	// times 1 + Noise·u with u a fixed pattern in [-1, 1], so a test sees
	// a noisy series without randomness.
	Noise float64
	// Calls logs every call ("open", "time 10", "sample 100", "between",
	// "close completed"), in order; Log, when not nil, receives the same
	// entries prefixed by ID, so several targets share one log.
	Calls []string
	Log   *[]string

	samples int
}

// New returns a fake target named id whose iterations cost perIter.
func New(id string, perIter time.Duration) *Target {
	return &Target{ID: id, PerIter: perIter}
}

func (t *Target) log(format string, args ...any) {
	entry := fmt.Sprintf(format, args...)
	t.Calls = append(t.Calls, entry)
	if t.Log != nil {
		*t.Log = append(*t.Log, t.ID+": "+entry)
	}
}

func (t *Target) cost(n int64) time.Duration {
	per := t.PerIter
	if per <= 0 {
		per = time.Nanosecond
	}
	return time.Duration(n) * per
}

// Name is ID.
func (t *Target) Name() string { return t.ID }

// Open logs "open" and returns OpenErr.
func (t *Target) Open() error {
	t.log("open")
	return t.OpenErr
}

// Time logs "time N" and returns N times PerIter.
func (t *Target) Time(n int64) (time.Duration, error) {
	t.log("time %d", n)
	return t.cost(n), nil
}

// ErrFail is the error of the sample FailAt.
var ErrFail = errors.New("fake failure")

// Sample logs "sample N" and returns a sample of N iterations lasting N
// times PerIter, on the CPU the calling thread is on.
func (t *Target) Sample(n int64) ([]result.Sample, error) {
	t.samples++
	t.log("sample %d", n)
	switch t.samples {
	case t.FailAt:
		return nil, ErrFail
	case t.PanicAt:
		panic("fake panic")
	}
	cpu, err := harness.CurrentCPU()
	if err != nil {
		cpu = -1
	}
	ns := t.cost(n).Nanoseconds()
	if t.Noise > 0 {
		u := float64((t.samples*7919)%201-100) / 100 // a fixed pattern in [-1, 1]
		ns = int64(float64(ns) * (1 + t.Noise*u))
	}
	return []result.Sample{{Iters: n, Ns: ns, CPU: cpu}}, nil
}

// Between logs "between".
func (t *Target) Between() { t.log("between") }

// Close logs "close completed", "close stopped" or "close failed" and
// returns the number of samples as GCCycles, so a test sees that the
// totals reach the outcome.
func (t *Target) Close(end harness.End) harness.Totals {
	t.log("close %s", map[harness.End]string{harness.EndCompleted: "completed", harness.EndStopped: "stopped", harness.EndFailed: "failed"}[end])
	return harness.Totals{GCCycles: uint32(t.samples)}
}
