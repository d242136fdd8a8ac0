package gotest

import (
	"fmt"
	"math"
	"slices"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// A benchmark whose loop changes its own input (sorts it in place, fills
// a cache, drains a buffer) does the real work in its first iteration
// only: testing's N=1 call pays it, and every later iteration does
// something cheaper. These bound the N=1 call of an honest benchmark:
// ConsumedRatio times what the later calls give for one iteration (a
// cold call pays for its caches and branch history, and a setup timed in
// every call for its first run: a few times at most; testdata/gotest's
// consumed.SortSetup, 2.9×), and ConsumedNs beyond it: the first call of
// a process runs cold code, and on a 2-vCPU VM at a load of 18 honest
// N=1 calls of tiny ops took up to 240 µs (bufio's
// ReaderWriteToOptimal, 258 ns per op later; html's UnescapeNone, 138
// µs). A loop that consumes less than a millisecond of work is not
// caught.
//
// The first call also maps the memory the later ones reuse: each page
// fault it took beyond the later calls' may have cost FaultNs, which is
// taken off its time before it is judged. slices' Index_Large allocates
// 4 MB in its timer: its N=1 call took 13 ms with 1,040 faults, its later
// calls 3.8 µs per op with 50-80 (13 µs a fault, and 16 µs for the 33 of
// Compact_Large/all_dup, on a loaded 2-vCPU VM); an in-place sort takes
// none.
const (
	ConsumedRatio = 10
	ConsumedNs    = 1_000_000
	FaultNs       = 50_000
)

// FirstIteration is what testing's ramp says of a benchmark's first
// iteration: the N=1 call's time (less its run delay; of the calls at N=1,
// each ramp running in a process of its own, the one least beyond what
// its faults explain) and its page faults beyond the later calls', and
// what one iteration costs by the calls past N=1, their fixed cost per
// call included.
type FirstIteration struct {
	FirstNs float64 // the N=1 call
	Faults  int64   // the N=1 call's page faults beyond those of the later call that took fewest
	FixedNs float64 // the cost every call past N=1 pays besides its iterations, at most
	PerOpNs float64 // the cost of one iteration in the calls past N=1
	Calls   int     // the calls past N=1
}

// SteadyNs is what the N=1 call would cost were its iteration like the
// later ones: the fixed cost of a call and one iteration.
func (f FirstIteration) SteadyNs() float64 { return f.FixedNs + f.PerOpNs }

// UnexplainedNs is the N=1 call's time less what its extra faults may
// have cost (FaultNs each).
func (f FirstIteration) UnexplainedNs() float64 {
	return max(0, f.FirstNs-float64(f.Faults)*FaultNs)
}

// Ratio is UnexplainedNs over SteadyNs; +Inf when the later calls cost
// nothing.
func (f FirstIteration) Ratio() float64 {
	if f.SteadyNs() <= 0 {
		return math.Inf(1)
	}
	return f.UnexplainedNs() / f.SteadyNs()
}

// firstIteration reads the calls of a calibration: false when they hold no
// N=1 call, fewer than two calls past it, or calls of b.Loop (which ramps
// inside one call: its first iteration is not timed alone) or of
// b.RunParallel (whose goroutines, started in every call, run on threads
// the helper does not read). The fixed cost is the least-squares line's
// (time = a + b·N over the calls past N=1), not lowered to what the
// shortest call spent beyond b·N as perCallCost lowers it: there a smaller
// a accuses less, here more. A ramp of b.RunParallel calls of 30 ms each
// whose last took 240 ms at N=155M had its fixed cost lowered to nothing,
// and its 36 ms N=1 call read as a consumed input. A negative a is none.
func firstIteration(calls []Record) (FirstIteration, bool) {
	if slices.ContainsFunc(calls, func(c Record) bool { return c.Loop || c.Parallel }) {
		return FirstIteration{}, false
	}
	faults := func(c Record) int64 { return c.Counters[result.CounterMinorFaults] }
	var xs, ys []float64
	var ones []Record
	later := int64(math.MaxInt64) // the fewest faults of a call past N=1
	for _, c := range calls {
		switch {
		case c.N > 1 && ownNs(c) <= 0:
			// Another task took all of it, as far as its run delay
			// says: it tells nothing of the time per op.
		case c.N > 1:
			xs, ys = append(xs, float64(c.N)), append(ys, float64(ownNs(c)))
			later = min(later, faults(c))
		case c.N == 1:
			ones = append(ones, c)
		}
	}
	if len(xs) < 2 || len(ones) == 0 {
		return FirstIteration{}, false
	}
	a, b := fitLine(xs, ys)
	if b <= 0 {
		return FirstIteration{}, false // no time per op to judge against
	}
	a = min(a, slices.Min(ys)) // no call costs less than its fixed cost
	var fi FirstIteration
	for i, c := range ones {
		f := FirstIteration{FirstNs: float64(ownNs(c)), Faults: max(0, faults(c)-later), FixedNs: max(a, 0), PerOpNs: b, Calls: len(xs)}
		if i == 0 || f.UnexplainedNs() < fi.UnexplainedNs() {
			fi = f
		}
	}
	return fi, true
}

// inputConsumed reports a benchmark whose N=1 call, less what its extra
// faults may have cost, took more than ConsumedRatio times, and ConsumedNs
// more than, what the later calls give for a call of one iteration. A setup timed in every call cannot explain
// it (the later calls pay it too, and it is in the fixed cost), nor can
// the cost of a call of a tiny op (ConsumedNs), nor a cold cache
// (ConsumedRatio): what the first iteration did, the later ones did not.
func inputConsumed(calls []Record) (finding.Finding, bool) {
	fi, ok := firstIteration(calls)
	if !ok || fi.UnexplainedNs()-fi.SteadyNs() < ConsumedNs || fi.Ratio() < ConsumedRatio {
		return finding.Finding{}, false
	}
	faults, fixed := "", ""
	if fi.Faults > 0 {
		faults = fmt.Sprintf(" (%s of it at most its %s beyond the later calls')", units.Duration(fi.FirstNs-fi.UnexplainedNs()), units.Count(fi.Faults, "page fault"))
	}
	if fi.FixedNs > 0 {
		fixed = fmt.Sprintf(" and at most %s once per call", units.Duration(fi.FixedNs))
	}
	return finding.Finding{
		Code: result.CodeInputConsumed, Severity: finding.Warn,
		Message: fmt.Sprintf("the first call took %s for N=1%s, the later ones %s per op%s: a call of one iteration %.0f× faster once the first had run, far more than a cold cache or a setup explains. The loop changes its own input (one that sorts it in place sorts sorted data after its first iteration, one that fills a cache or drains a buffer finds it full or empty): give each iteration fresh input, copied from a pristine one with b.StopTimer and b.StartTimer around the copy, or in the loop",
			units.Duration(fi.FirstNs), faults, units.Duration(fi.PerOpNs), fixed, fi.Ratio()),
		Evidence: map[string]any{"first_ns": fi.FirstNs, "first_faults": fi.Faults, "fixed_ns": fi.FixedNs, "per_op_ns": fi.PerOpNs, "ratio": fi.Ratio(), "calls": fi.Calls},
	}, true
}

// FirstIteration is what the target's calibration says of its first
// iteration; false when it cannot say (see firstIteration).
func (t *Target) FirstIteration() (FirstIteration, bool) { return firstIteration(t.Calibration) }

// RampFindings are the findings read from testing's ramp alone, before
// any sample: a fixed cost per call (setup-in-timer, cost-depends-on-n,
// setup-unknown) and a loop that changes its own input (input-consumed).
func (t *Target) RampFindings() []finding.Finding {
	var fs []finding.Finding
	if f, ok := perCallCost(t.Calibration, t.N); ok {
		fs = append(fs, f)
	}
	if f, ok := inputConsumed(t.Calibration); ok {
		fs = append(fs, f)
	}
	return fs
}
