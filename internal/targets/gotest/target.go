package gotest

import (
	"fmt"
	"math"
	"os/exec"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/report"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// Target is one leaf benchmark of a test binary. A sample batch is one
// process of the binary running the benchmark PerProcess times (plus one
// first run, dropped as the warm-up) at the calibrated count.
type Target struct {
	Bin        *Binary
	Bench      string // testing's name, "BenchmarkX/sub"
	Display    string // the experiment's name
	N          int64  // iterations per sample, from calibration
	CPU        int
	GOMAXPROCS int
	PerProcess int
	// Calibration are the calls of the calibration run (n, ns), for the
	// setup-in-timer check; Fail, when not empty, is why the benchmark
	// could not be calibrated (it failed or panicked): Sample fails with it.
	Calibration []Record
	Fail        string
	// Start starts a test process off the measured CPU (see StartOffCPU).
	Start func(*exec.Cmd) error

	process  int
	pinned   bool // every call of the benchmark held its pin
	parallel bool // it ran b.RunParallel
	fn       string
	bytes    []float64
	allocs   []float64
}

// Name is the experiment's name.
func (t *Target) Name() string { return t.Display }

// Iters is the calibrated count: the harness does not calibrate again.
func (t *Target) Iters() int64 { return t.N }

// Info: a benchmark's unit of work is one iteration of its b.N loop, and
// no loop iteration takes less than a compare and a branch: one cycle.
func (t *Target) Info() report.Info {
	return report.Info{Kind: report.KindBenchmark, Name: t.Display, Description: "go test benchmark " + t.Bin.Package.ImportPath + "." + t.Bench,
		Units: 1, Unit: "loop iteration", FloorCycles: 1}
}

// Counters are what the helper reads in the test process: it uses the
// standard library only, so no perf counters.
func (t *Target) Counters() counters.Report {
	rep := counters.Report{Opened: []string{counters.ThreadCPU, result.CounterRunDelay, result.CounterVoluntaryCS, result.CounterInvoluntaryCS, result.CounterMinorFaults}}
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

// Sample runs one process of the binary and returns its samples.
func (t *Target) Sample(n int64) ([]result.Sample, error) {
	if t.Fail != "" {
		return nil, fmt.Errorf("%s", t.Fail)
	}
	r, err := t.Bin.Exec(t.CPU, t.GOMAXPROCS, sampleArgs(t.Bench, n, t.PerProcess+1), t.Start)
	if err != nil {
		return nil, err
	}
	if msg, ok := r.Failed[t.Bench]; ok {
		return nil, fmt.Errorf("%s failed: %s", t.Bench, oneLine(msg))
	}
	var recs []Record
	for _, x := range r.Records {
		if x.Name == t.Bench && x.N == n {
			recs = append(recs, x)
		}
	}
	var lines []Line
	for _, l := range r.Lines {
		if l.Name == t.Bench && l.N == n {
			lines = append(lines, l)
		}
	}
	if len(recs) < 2 || r.Err != nil && len(recs) < t.PerProcess+1 {
		return nil, fmt.Errorf("%s: the test process ended after %d of %d runs (%v): %s", t.Bench, len(recs), t.PerProcess+1, r.Err, tail(r.Output, 3))
	}
	recs = recs[1:] // the first run of a process is its warm-up
	if len(lines) == len(recs)+1 {
		lines = lines[1:]
	}
	out := make([]result.Sample, len(recs))
	for i, x := range recs {
		s := result.Sample{Iters: n, Ns: x.Ns, CPU: x.CPU, Counters: onCPU(x), Process: t.process}
		if i < len(lines) {
			s.Metrics = map[string]float64{}
			for unit, v := range lines[i].Values {
				switch unit {
				case "ns/op":
				case "B/op":
					t.bytes = append(t.bytes, v)
				case "allocs/op":
					t.allocs = append(t.allocs, v)
				default:
					s.Metrics[unit] = v
				}
			}
			if len(s.Metrics) == 0 {
				s.Metrics = nil
			}
		}
		t.pinned = t.pinned && x.Pinned
		t.parallel = t.parallel || x.Parallel
		t.fn = x.Func
		out[i] = s
	}
	t.process++
	return out, nil
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
// counters.ThreadCPU only when it is the on-CPU time of the timed work:
// the helper reads it around the whole call, so a call that ran untimed
// work (StopTimer, a setup before ResetTimer) counts that too, and a call
// that blocked (a voluntary context switch: a channel, a sleep, waiting
// for the collector) was off the CPU as part of its work, not because
// another task took it. Otherwise the time is kept as CounterCallCPU, and
// the report reads the time other tasks cost from run-delay-ns (for a call
// with untimed work, the share of it that fell in the timed part).
func onCPU(x Record) map[string]int64 {
	v, ok := x.Counters[counters.ThreadCPU]
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
	delete(c, counters.ThreadCPU)
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

// CounterCallRunDelay is the run delay of the whole call, kept under this
// name when run-delay-ns holds the timed part's estimated share.
const CounterCallRunDelay = "call-run-delay-ns"

// Between has nothing to do: each batch is its own process.
func (t *Target) Between() {}

// Close returns the allocations testing measured (B/op, allocs/op; the
// collector was on, as under go test).
func (t *Target) Close(end harness.End) harness.Totals {
	if len(t.allocs) == 0 {
		return harness.Totals{}
	}
	return harness.Totals{AllocsMeasured: true, AllocsPerOp: stats.Median(t.allocs), BytesPerOp: stats.Median(t.bytes)}
}

// Check judges what the samples cannot: how the binary was built, whether
// the benchmark's thread was pinned, and whether its time depends on N.
func (t *Target) Check() []finding.Finding {
	var fs []finding.Finding
	if t.Bin.Debug != "" {
		fs = append(fs, finding.Finding{Code: report.CodeDebugBuild, Severity: finding.Error,
			Message:  "the test binary was built with " + t.Bin.Debug + ": it measures another program than the one that ships",
			Evidence: map[string]any{"build": t.Bin.Debug}})
	}
	switch {
	case t.parallel:
		fs = append(fs, finding.Finding{Code: report.CodeNotPinned, Severity: finding.Warn,
			Message: "the benchmark runs b.RunParallel: its goroutines run on threads of their own, which cannot be pinned, so it was measured unpinned"})
	case !t.pinned:
		fs = append(fs, finding.Finding{Code: report.CodeNotPinned, Severity: finding.Warn,
			Message: "the benchmark's thread could not be pinned (sched_setaffinity failed in the test process)"})
	}
	if f, ok := setupInTimer(t.Calibration, t.N); ok {
		fs = append(fs, f)
	}
	if t.fn != "" {
		fs = append(fs, t.Bin.codeFindings(t.fn)...)
	}
	return fs
}

// SetupShare: a benchmark whose calls cost a fixed time beyond the per-op
// time, more than 5% of a sample, measures its setup too (the time per op
// then depends on N).
const SetupShare = 0.05

// setupInTimer fits time = a + b·N to the calls testing's ramp made (all
// but the first, N=1, which also pays for cold caches; each less its run
// delay) and reports a fixed
// cost a that is more than SetupShare of a sample at the calibrated N: an
// expensive setup inside the timed region, without b.ResetTimer. a is at
// most what the shortest call spent beyond b·N.
func setupInTimer(calls []Record, n int64) (finding.Finding, bool) {
	var xs, ys []float64
	for _, c := range calls {
		if c.N > 1 {
			// Less the time another task had the CPU: a call the
			// machine interrupted is no longer for its N.
			ns := max(0, c.Ns-onCPU(c)[result.CounterRunDelay]) // the timed part's share
			xs, ys = append(xs, float64(c.N)), append(ys, float64(ns))
		}
	}
	if len(xs) < 2 {
		return finding.Finding{}, false
	}
	a, b := fitLine(xs, ys)
	// Every call pays a fixed cost, so no call lasts less than it: the
	// least of the calls' time beyond b·N bounds a. One call slowed by
	// something else (the collector, a fault storm) raises the fitted
	// line's a, not this bound.
	for i := range xs {
		a = min(a, ys[i]-b*xs[i])
	}
	// Calls that do not grow with N say nothing of a fixed cost, and one
	// under untimedNs is the cost of a call itself (caches refilled after
	// the helper's reads): it is a share of a sample only when testing's
	// ramp stopped at a small N, interrupted.
	sample := a + b*float64(n)
	if !(b > 0 && a > untimedNs && sample > 0 && a/sample > SetupShare) || math.IsInf(a, 0) {
		return finding.Finding{}, false
	}
	return finding.Finding{
		Code: report.CodeSetupInTimer, Severity: finding.Warn,
		Message: fmt.Sprintf("every call of the benchmark costs %s besides %s per op, %.0f%% of a sample: work outside the b.N loop is timed (a setup before the loop without b.ResetTimer), and the time per op depends on N",
			units.Duration(a), units.Duration(b), 100*a/sample),
		Evidence: map[string]any{"fixed_ns": a, "per_op_ns": b, "share": a / sample, "calls": len(xs)},
	}, true
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

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
