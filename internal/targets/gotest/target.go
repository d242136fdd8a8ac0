package gotest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// Target is one leaf benchmark of a test binary. A sample batch is one
// process of the binary running the benchmark PerProcess times (plus one
// first run, dropped as the warm-up) at the calibrated count.
type Target struct {
	Bin     *Binary
	Bench   string // testing's name, "BenchmarkX/sub"
	Display string // the experiment's name
	// Side and Layout are the experiment's (result.Experiment): which
	// build of an interleaved comparison, and which link of it.
	Side   string
	Layout int
	N      int64 // iterations per sample, from calibration
	// Calibration are the calls of the calibration runs (testing's ramp,
	// and a longer one where the first stopped early), for RampFindings:
	// setup-in-timer, cost-depends-on-n and input-consumed; Fail, when not empty, is why the benchmark
	// could not be calibrated (it failed or panicked): Sample fails with it.
	Calibration []Record
	Fail        string

	// ctx is Calibrate's: the harness calls a target through an
	// interface without a context (Sample, Close), so the target keeps
	// the run's, whose cancellation ends its test process.
	ctx      context.Context
	opts     Options
	start    func(*exec.Cmd) error // starts a test process off the measured CPU (StartOffCPU)
	process  int
	pinned   bool // every call of the benchmark held its pin
	parallel bool // it ran b.RunParallel
	fn       string
	bytes    []float64
	allocs   []float64
	gcCycles int64 // completed inside the measured calls
	profiled profiledCalls
	// sampled and collected are how many samples were taken and how
	// many of them ran a collection, for measuring again as go test
	// would (asGoTest); goTest is what that measured.
	sampled, collected int
	goTest             *result.AtSettings
}

// Name is the target's name in messages and profile files: the
// experiment's name after its side, and the layout after it when it is
// not the first ("old Work @layout2").
func (t *Target) Name() string {
	name := result.SideLabel(t.Side, t.Display)
	if t.Layout > 0 {
		name += fmt.Sprintf(" @layout%d", t.Layout+1)
	}
	return name
}

// Iters is the calibrated count: the harness does not calibrate again.
func (t *Target) Iters() int64 { return t.N }

// Info: a benchmark's unit of work is one iteration of its b.N loop, and
// no loop iteration takes less than a compare and a branch: one cycle.
func (t *Target) Info() result.Info {
	return result.Info{Kind: result.KindBenchmark, Name: t.Display, Description: "go test benchmark " + t.Bin.Package.ImportPath + "." + t.Bench,
		Units: 1, Unit: "loop iteration", FloorCycles: 1, GOMAXPROCS: t.opts.GOMAXPROCS, Side: t.Side, Layout: t.Layout}
}

// Counters are what the helper reads in the test process: it uses the
// standard library only, so no perf counters.
func (t *Target) Counters() result.CounterReport {
	rep := result.CounterReport{Opened: []string{result.CounterThreadCPU, result.CounterRunDelay, result.CounterVoluntaryCS, result.CounterInvoluntaryCS, result.CounterMinorFaults}}
	for _, c := range []string{result.CounterTaskClock, result.CounterCycles, result.CounterInstructions, result.CounterMigrations} {
		rep.SetUnavailable(c, "not read in a test binary (the helper added to it uses the standard library only)")
	}
	return rep
}

// Open has nothing to prepare: the binary is built and calibrated.
func (t *Target) Open() error {
	t.pinned = true
	return nil
}

// Time is not used: testing warms up and calibrates itself.
func (t *Target) Time(n int64) (time.Duration, error) { return 0, nil }

// Sample runs one process of the binary and returns its samples: the
// calls of the benchmark at n, as the helper recorded them, less the
// process's first (its warm-up). A stop request ends the process: the
// calls it finished are kept.
func (t *Target) Sample(n int64) ([]result.Sample, error) {
	if t.Fail != "" {
		return nil, errors.New(t.Fail)
	}
	runs := t.opts.PerProcess + 1
	o, err := t.profileRun(n)
	if err != nil {
		return nil, err
	}
	r, err := t.Bin.Exec(t.ctx, o, sampleArgs(t.Bench, n, runs), t.opts.timeout(runs), t.start)
	if err != nil {
		return nil, err
	}
	calls, err := measuredCalls(r, t.Bench, n)
	if err != nil {
		return nil, err
	}
	switch {
	case r.Stopped && len(calls) < 2:
		return nil, fmt.Errorf("%s: %w", t.Bench, context.Canceled)
	case r.Stopped:
	case len(r.Running) > 0:
		return nil, errors.New(r.Failure(r.Running[len(r.Running)-1]))
	case len(calls) < 2 || r.Err != nil && len(calls) < runs:
		return nil, fmt.Errorf("%s: the test process ended after %d of %d runs (%s)%s", t.Bench, len(calls), runs, r.how(), r.out.why())
	}
	out := make([]result.Sample, len(calls)-1)
	for i, x := range calls[1:] { // the first call of a process is its warm-up
		out[i] = t.sample(x)
	}
	t.keepProfiles(calls[0], calls[1:])
	t.process++
	return out, nil
}

// measuredCalls is the calls of the benchmark name at n that r finished,
// the process's warm-up first; an error when one of them failed (a call
// cut short by a stop is no failure).
func measuredCalls(r *Run, name string, n int64) ([]Record, error) {
	var calls []Record
	for _, c := range r.Calls {
		if c.Name != name {
			continue
		}
		if why := r.Failure(c); why != "" && !(r.Stopped && !c.Ended) {
			return nil, errors.New(why)
		}
		if c.Ended && c.Returned && c.N == n {
			calls = append(calls, c)
		}
	}
	return calls, nil
}

// sample is the sample of one call, and what the target keeps of it: B/op
// and allocs/op (as testing computes them), whether it held its pin. What
// else the benchmark reported of itself is the sample's Metrics: MB/s,
// b.ReportMetric's units, and its own ns/op (result.UnitOwnNs), never in
// place of the time the call took.
func (t *Target) sample(x Record) result.Sample {
	s := result.Sample{Iters: x.N, Ns: x.Ns, CPU: x.CPU, Counters: onCPU(x), Process: t.process}
	for unit, v := range x.Metrics {
		if unit != "B/op" && unit != "allocs/op" { // those two are the GC figures
			if s.Metrics == nil {
				s.Metrics = map[string]float64{}
			}
			s.Metrics[unit] = v
		}
	}
	if _, ok := x.Metrics["MB/s"]; !ok && x.SetBytes > 0 && x.Ns > 0 {
		if s.Metrics == nil {
			s.Metrics = map[string]float64{}
		}
		s.Metrics["MB/s"] = float64(x.SetBytes) * float64(x.N) / 1e6 / (float64(x.Ns) / 1e9)
	}
	if x.Mem && x.N > 0 {
		// testing's own: whole numbers per op, unless b.ReportMetric
		// said otherwise.
		allocs, bytes := float64(x.Allocs/x.N), float64(x.Bytes/x.N)
		if v, ok := x.Metrics["allocs/op"]; ok {
			allocs = v
		}
		if v, ok := x.Metrics["B/op"]; ok {
			bytes = v
		}
		t.allocs, t.bytes = append(t.allocs, allocs), append(t.bytes, bytes)
	}
	t.gcCycles += max(0, x.Counters[result.CounterGCCycles])
	t.sampled++
	if x.Counters[result.CounterGCCycles] > 0 {
		t.collected++
	}
	t.pinned = t.pinned && x.Pinned
	t.parallel = t.parallel || x.Parallel
	t.fn = x.Func
	return s
}

// Untimed slack: a call whose wall time exceeds what testing timed by
// more than this (1%, and 50µs) ran untimed work (b.StopTimer,
// b.ResetTimer after a setup).
const (
	untimedShare = 0.01
	untimedNs    = 50_000
)

// CounterCallCPU is the on-CPU time of a whole call of the benchmark
// function, kept under this name when it is not the on-CPU time of what
// testing timed.
const CounterCallCPU = "call-cpu-ns"

// onCPU returns the record's counters with the thread's CPU time under
// result.CounterThreadCPU only when it is the on-CPU time of the timed work:
// the helper reads it around the whole call, so a call that ran untimed
// work (StopTimer, a setup before ResetTimer) counts that too, and a call
// that blocked (a voluntary context switch: a channel, a sleep, waiting
// for the collector) was off the CPU as part of its work, not because
// another task took it. Otherwise the time is kept as CounterCallCPU, and
// the report reads the time other tasks cost from run-delay-ns (for a call
// with untimed work, the share of it that fell in the timed part).
func onCPU(x Record) map[string]int64 {
	v, ok := x.Counters[result.CounterThreadCPU]
	if !ok {
		return x.Counters
	}
	untimed := x.Wall - x.Ns
	if untimed <= max(int64(untimedShare*float64(x.Ns)), untimedNs) && x.Counters[result.CounterVoluntaryCS] == 0 {
		return x.Counters
	}
	c := make(map[string]int64, len(x.Counters))
	for k, val := range x.Counters {
		c[k] = val
	}
	delete(c, result.CounterThreadCPU)
	c[CounterCallCPU] = v
	if d, ok := c[result.CounterRunDelay]; ok && untimed > 0 && x.Wall > 0 {
		// The run delay is of the whole call too: the timed part's share
		// of it is estimated as its share of the call's wall time (a call
		// that mostly ran with its timer stopped would otherwise have the
		// waits of its setup taken out of its timed work).
		c[CounterCallRunDelay] = d
		c[result.CounterRunDelay] = int64(float64(d) * float64(x.Ns) / float64(x.Wall))
	}
	return c
}

// ownNs is what testing timed of a call less the time another task had
// the CPU in it (the timed part's share of the run delay): a call the
// machine interrupted is no longer for its N.
func ownNs(x Record) int64 {
	if x.Parallel {
		// Its work ran on threads the helper does not read: the run
		// delay of the calling thread says nothing of it.
		return x.Ns
	}
	return max(0, x.Ns-onCPU(x)[result.CounterRunDelay])
}

// CounterCallRunDelay is the run delay of the whole call, kept under this
// name when run-delay-ns holds the timed part's estimated share.
const CounterCallRunDelay = "call-run-delay-ns"

// Between has nothing to do: each batch is its own process.
func (t *Target) Between() {}

// Close returns the allocations testing measured (B/op, allocs/op) and
// the collections inside the measured calls (the collector was on, as
// under go test).
func (t *Target) Close(end harness.End) harness.Totals {
	tot := harness.Totals{GCCycles: uint32(min(t.gcCycles, math.MaxUint32))}
	if len(t.allocs) > 0 {
		tot.AllocsMeasured, tot.AllocsPerOp, tot.BytesPerOp = true, stats.Median(t.allocs), stats.Median(t.bytes)
	}
	return tot
}

// Check judges what the samples cannot: how the binary was built, whether
// the benchmark's thread was pinned, whether its time depends on N, and
// whether its first iteration did work the later ones did not.
func (t *Target) Check() []finding.Finding {
	var fs []finding.Finding
	if t.Bin.Debug != "" {
		fs = append(fs, finding.Finding{Code: result.CodeDebugBuild, Severity: finding.Error,
			Message:  "the test binary was built with " + t.Bin.Debug + ": it measures another program than the one that ships",
			Evidence: map[string]any{"build": t.Bin.Debug}})
	}
	switch {
	case t.parallel:
		fs = append(fs, finding.Finding{Code: result.CodeNotPinned, Severity: finding.Warn,
			Message:  fmt.Sprintf("the benchmark runs b.RunParallel: its goroutines run on threads of their own, which cannot be pinned, so it was measured unpinned, at GOMAXPROCS %d", t.opts.GOMAXPROCS),
			Evidence: map[string]any{"gomaxprocs": t.opts.GOMAXPROCS}})
	case !t.pinned:
		fs = append(fs, finding.Finding{Code: result.CodeNotPinned, Severity: finding.Warn,
			Message: "the benchmark's thread could not be pinned (sched_setaffinity failed in the test process)"})
	}
	fs = append(fs, t.RampFindings()...)
	if t.fn != "" {
		fs = append(fs, t.Bin.codeFindings(t.fn)...)
	}
	t.goTest = t.asGoTest()
	return fs
}

// AtGoTestSettings is what the benchmark measured as go test runs it
// (asGoTest), or nil when it was not measured so.
func (t *Target) AtGoTestSettings() *result.AtSettings { return t.goTest }

// asGoTest measures the benchmark again, in one process, as go test -bench
// runs it on this machine: at GOMAXPROCS of every CPU benchy may use, its
// thread not pinned, the same N. It does so only for a benchmark that ran
// a collection in most of its samples: the collector's cost depends on how
// many Ps it has and where its workers run, so benchy's figure (GOMAXPROCS
// 1, pinned, as taskset -c CPU go test) and go test's can differ by more
// than the noise (a quadratic string concatenation: 18 ms/op here, 44-66
// ms/op under go test). analyze says so when they do.
func (t *Target) asGoTest() *result.AtSettings {
	start, procs := StartAnywhere()
	if t.parallel || procs <= 0 || procs == t.opts.GOMAXPROCS || 2*t.collected <= t.sampled || t.N <= 0 || t.ctx.Err() != nil {
		return nil
	}
	o := t.opts
	o.GOMAXPROCS = procs
	o.env = append(o.env[:len(o.env):len(o.env)], envUnpinned+"=1")
	runs := t.opts.PerProcess + 1
	r, err := t.Bin.Exec(t.ctx, o, sampleArgs(t.Bench, t.N, runs), t.opts.timeout(runs), start)
	if err != nil || r.Err != nil || r.Stopped {
		return nil
	}
	calls, err := measuredCalls(r, t.Bench, t.N)
	if err != nil || len(calls) < 2 {
		return nil
	}
	at := &result.AtSettings{GOMAXPROCS: procs}
	for _, c := range calls[1:] { // the first is the process's warm-up, as in Sample
		at.NsPerOp = append(at.NsPerOp, float64(ownNs(c))/float64(c.N))
	}
	return at
}

// SetupShare: a benchmark whose calls cost a fixed time beyond the per-op
// time, more than 5% of a sample, measures its setup too (the time per op
// then depends on N).
const SetupShare = 0.05

// DependsOnNShare: a fixed cost per call that is more than a quarter of a
// sample makes the sample's time per op a figure for that N only (sync's
// BenchmarkPoolExpensiveNew: 116 ms/op at N=1, 2 ms/op at N=500), a warning;
// less, the cost-depends-on-n finding is a note.
const DependsOnNShare = 0.25

// perCallCost fits time = a + b·N to the calls testing's ramp made (all
// but the first, N=1, which also pays for cold caches; each less its run
// delay) and reports a fixed cost a that is more than SetupShare of a
// sample at the calibrated N, with the time per op it gives at the
// smallest and the largest N. a is at most what the shortest call spent
// beyond b·N, the N=1 call included: a setup is paid by that call too,
// and its cold caches only make it longer.
//
// Who pays the fixed cost decides the words. A call of b.RunParallel
// starts its goroutines, each running what comes before its pb.Next loop;
// calls whose collections grow with N allocate in the loop, and testing
// collects before each call, so the heap grows again in each: both are
// cost-depends-on-n, which names no culprit (an honest allocating
// benchmark was accused of a setup in 2 of 11 runs). Only a fixed cost
// with neither is a setup before the loop timed without b.ResetTimer.
func perCallCost(calls []Record, n int64) (finding.Finding, bool) {
	if loops(calls) {
		// b.Loop: testing ramps inside one call, and the loop's first
		// iteration resets the timer, so nothing before it is timed.
		return finding.Finding{}, false
	}
	r := readRamp(calls)
	if len(r.xs) < 2 {
		// testing's ramp stopped before it told anything (a busy machine
		// can end it at N=1 or 2): say so, rather than vouch for a setup
		// that was never judged.
		return finding.Finding{
			Code: result.CodeSetupUnknown, Severity: finding.Info,
			Message: fmt.Sprintf("testing's ramps made %s past N=1, too few to tell whether a setup is timed: they stopped early (a busy machine, or a benchmark slow for its sample time)",
				units.Count(len(r.xs), "call")),
			Evidence: map[string]any{"calls": len(r.xs)},
		}, true
	}
	a, b := r.fixedCost()
	// Calls that do not grow with N say nothing of a fixed cost, and one
	// under untimedNs is the cost of a call itself (caches refilled after
	// the helper's reads): it is a share of a sample only when testing's
	// ramp stopped at a small N, interrupted.
	sample := a + b*float64(n)
	if !(b > 0 && a > untimedNs && sample > 0 && a/sample > SetupShare) || math.IsInf(a, 0) {
		return finding.Finding{}, false
	}
	return r.finding(a, b, n), true
}

// A ramp is the calls of testing's ramps of one benchmark, read for a
// fixed cost per call.
type ramp struct {
	calls  []Record
	xs, ys []float64 // N and time of each call past N=1
	past   []Record  // the calls past N=1
	first  float64   // the N=1 call's time; +Inf without one
}

// readRamp takes each call's own time (less its run delay) and sets the
// N=1 calls apart.
func readRamp(calls []Record) ramp {
	r := ramp{calls: calls, first: math.Inf(1)}
	for _, c := range calls {
		ns := float64(ownNs(c))
		switch {
		case c.N > 1:
			r.xs, r.ys = append(r.xs, float64(c.N)), append(r.ys, ns)
			r.past = append(r.past, c)
		case c.N == 1:
			r.first = min(r.first, ns)
		}
	}
	return r
}

// fixedCost fits time = a + b·N to the calls past N=1 and bounds a by
// what the shortest call spent beyond b·N.
func (r ramp) fixedCost() (a, b float64) {
	a, b = fitLine(r.xs, r.ys)
	// Every call pays a fixed cost, so no call lasts less than it: the
	// least of the calls' time beyond b·N bounds a. One call slowed by
	// something else (the collector, a fault storm) raises the fitted
	// line's a, not this bound.
	//
	// The N=1 call bounds it too. testing's ramp often makes only two
	// calls past it, close in N (85 and 111 for a 1 ms op): through two
	// points the line's a is their difference per op magnified, and a
	// first call 3% slower per op (a heap still growing) read as a 12 ms
	// setup in 3 of 5 calibrations of strings' SplitSingleByteSeparator
	// on a quiet machine, whose N=1 call took 1.4 ms.
	for i := range r.xs {
		a = min(a, r.ys[i]-b*r.xs[i])
	}
	return min(a, r.first-b), b
}

// finding says who pays the fixed cost a of every call (b per op, the
// samples at N): b.RunParallel's goroutines or a loop that allocates make
// the time per op depend on N; else it is a setup in the timer.
func (r ramp) finding(a, b float64, n int64) finding.Finding {
	share := a / (a + b*float64(n))
	lo, hi := slices.Min(r.xs), max(slices.Max(r.xs), float64(n))
	if !math.IsInf(r.first, 1) {
		lo = 1
	}
	perOp := func(at float64) string { return units.Duration(a/at + b) }
	arithmetic := fmt.Sprintf("%s per op at N=%.0f against %s at N=%.0f; at the samples' N=%d it is %.0f%% of their time",
		perOp(lo), lo, perOp(hi), hi, n, 100*share)
	evidence := map[string]any{"fixed_ns": a, "per_op_ns": b, "share": share, "calls": len(r.xs), "samples_n": n}
	var who string
	switch {
	case slices.ContainsFunc(r.calls, func(c Record) bool { return c.Parallel }):
		who = "paid once per call: it runs b.RunParallel, whose goroutines each run what comes before their pb.Next loop, after the collection testing runs before each call"
	case collectionsGrow(r.past):
		who = "paid once per call: the calls collect more often as N grows, so the loop allocates; testing collects before each call, and the heap grows again in each"
	default:
		return finding.Finding{
			Code: result.CodeSetupInTimer, Severity: finding.Warn,
			Message: fmt.Sprintf("every call of the benchmark costs %s besides %s per op: work outside the b.N loop is timed (a setup before the loop without b.ResetTimer), and the time per op depends on N: %s",
				units.Duration(a), units.Duration(b), arithmetic),
			Evidence: evidence,
		}
	}
	severity := finding.Info
	if share > DependsOnNShare {
		severity = finding.Warn
	}
	return finding.Finding{
		Code: result.CodeDependsOnN, Severity: severity,
		Message: fmt.Sprintf("the time per op depends on N: every call costs %s besides %s per op (%s), so: %s; a larger --sample-time gives a larger N",
			units.Duration(a), units.Duration(b), who, arithmetic),
		Evidence: evidence,
	}
}

// collectionsGrow reports whether the calls (past N=1, in the ramp's
// order) collected more often at a larger N, at least twice in the largest
// call: the loop itself allocates. A setup that allocates collects about as
// often in every call, whatever N.
func collectionsGrow(calls []Record) bool {
	if len(calls) < 2 {
		return false
	}
	small, large := calls[0], calls[0]
	for _, c := range calls {
		if c.N < small.N {
			small = c
		}
		if c.N > large.N {
			large = c
		}
	}
	gc := func(c Record) int64 { return c.Counters[result.CounterGCCycles] }
	return gc(large) >= 2 && gc(large) > gc(small)
}

// fitLine is the least-squares line y = a + b·x.
func fitLine(xs, ys []float64) (a, b float64) {
	n := float64(len(xs))
	var sx, sy, sxx, sxy float64
	for i := range xs {
		sx, sy, sxx, sxy = sx+xs[i], sy+ys[i], sxx+xs[i]*xs[i], sxy+xs[i]*ys[i]
	}
	d := n*sxx - sx*sx
	if d == 0 {
		return 0, 0
	}
	b = (n*sxy - sx*sy) / d
	return (sy - b*sx) / n, b
}
