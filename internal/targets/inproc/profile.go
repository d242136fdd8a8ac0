package inproc

import (
	"reflect"
	"runtime"
	"time"

	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/result"
)

// profiled is what --profile keeps of one experiment while it is sampled:
// the CPU profile runs from its first sample to its close, its measured
// calls labelled (profiles.Measure), and the allocation profile is the
// heap profile at its close less that at its first sample, of the
// allocations made under its loop.
type profiled struct {
	began         bool
	before, after []byte
	ops           int64
	err           error
}

// beginProfile starts the profiles at the first sample. The heap snapshot
// collects garbage (outside any timing): with --profile the first sample
// follows a collection.
func (t *Target) beginProfile() {
	if t.opts.Profile == nil || t.prof.began {
		return
	}
	t.prof.began = true
	t.prof.before, t.prof.err = profiles.HeapSnapshot()
	t.opts.Profile.Session.Begin(t.w.Name)
}

// endProfile ends the profiles after the last sample, before anything else
// runs the loop.
func (t *Target) endProfile() {
	if !t.prof.began {
		return
	}
	t.opts.Profile.Session.End(t.w.Name)
	if t.prof.err == nil {
		t.prof.after, t.prof.err = profiles.HeapSnapshot()
	}
}

// measured runs n iterations as a measured call: timed, and labelled for
// the CPU profile when profiling.
func (t *Target) measured(n int64) (d time.Duration) {
	if !t.prof.began {
		return t.timed(n)
	}
	t.prof.ops += n
	profiles.Measure(t.w.Name, func() { d = t.timed(n) })
	return d
}

// Profile is what --profile recorded of the experiment: nil without it.
func (t *Target) Profile() *result.Profile {
	if t.opts.Profile == nil {
		return nil
	}
	if !t.prof.began {
		return &result.Profile{Error: "no sample was taken"}
	}
	rec := t.opts.Profile
	cpu, err := rec.Session.CPU(t.w.Name)
	if err != nil {
		return &result.Profile{Error: "CPU profile: " + err.Error()}
	}
	sum := rec.Dir.Record(t.w.Name, cpu, nil, t.prof.ops)
	if t.prof.err != nil {
		sum.Error = "allocation profile: " + t.prof.err.Error()
		return sum
	}
	ps, err := profiles.ParseAll([][]byte{t.prof.before, t.prof.after})
	if err == nil {
		alloc, err := profiles.Delta(ps[:1], ps[1:], loopName(t.w.Loop))
		if err == nil && alloc != nil {
			a := rec.Dir.Record(t.w.Name, nil, alloc, t.prof.ops)
			sum.Alloc, sum.AllocBytesPerOp, sum.AllocTop, sum.Error = a.Alloc, a.AllocBytesPerOp, a.AllocTop, a.Error
		}
		if err != nil {
			sum.Error = "allocation profile: " + err.Error()
		}
	}
	return sum
}

// loopName is the symbol of the loop function, the frame every allocation
// of the measured calls is made under.
func loopName(f func(int)) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}
