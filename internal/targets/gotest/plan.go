package gotest

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/profiles"
)

// Options say how the benchmarks are measured.
type Options struct {
	BenchText  string        // -bench, matched like go test -bench, level by level
	SampleTime time.Duration // testing's ramp aims each sample at it
	PerProcess int           // samples per process
	CPU        int
	// GOMAXPROCS is the test binary's, and ParallelGOMAXPROCS, when not
	// 0, that of a benchmark that runs b.RunParallel: its goroutines
	// cannot be pinned, and at GOMAXPROCS 1 they would take turns on one
	// P. Which one a benchmark needs is known from its calibration run,
	// made at GOMAXPROCS and made again at ParallelGOMAXPROCS for one
	// that ran b.RunParallel.
	GOMAXPROCS         int
	ParallelGOMAXPROCS int
	// Packages are the import paths of every package measured together
	// (both revisions' with --against): a benchmark's name carries as much
	// of its package's path as tells it from the others' (see prefixes).
	Packages []string
	// Timeout, when positive, is every run's -test.timeout instead of the
	// rule of Options.timeout.
	Timeout time.Duration
	// Shard, when not the zero Shard, is the share of the top-level
	// benchmarks measured (--shard I/N).
	Shard Shard
	// Profile, when not nil, is where the profiles of the measured
	// calls go (--profile); the binaries must be built with
	// BuildOptions.Profile.
	Profile *profiles.Dir

	env []string // added to a run's environment
}

// Matching is the top-level benchmarks of bin that the first level of
// o.BenchText matches, in any shard.
func Matching(ctx context.Context, bin *Binary, o Options) ([]string, error) {
	tops, err := bin.List(ctx, o)
	if err != nil {
		return nil, err
	}
	var matching []string
	for _, top := range tops {
		bench, err := benchFor(o.BenchText, top)
		if err != nil {
			return nil, err
		}
		if bench != "" {
			matching = append(matching, top)
		}
	}
	return matching, nil
}

// benchAlternatives splits a -bench pattern as package testing does
// (splitRegexp): into alternatives at each '|' outside brackets and
// parentheses, and each alternative at each '/' outside them into one
// pattern per level of sub-benchmarks. So "Sum64/4KB|Sum64String" is
// Sum64's sub-benchmark 4KB, and every benchmark Sum64String matches.
func benchAlternatives(s string) [][]string {
	var alts [][]string
	var levels []string
	brackets, parens := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			brackets++
		case ']':
			brackets = max(brackets-1, 0) // an unmatched ']' is legal
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/', '|':
			if brackets == 0 && parens == 0 {
				levels = append(levels, s[:i])
				if s[i] == '|' {
					alts, levels = append(alts, levels), nil
				}
				s, i = s[i+1:], -1
			}
		}
	}
	return append(alts, append(levels, s))
}

// benchFor is the -bench pattern that runs, of what text matches, only
// what is under the top-level benchmark top: every alternative of text
// whose first level matches top, with that level made ^top$. It is ""
// when no alternative matches top. Passing text itself to a process meant
// for top would run, through another alternative, other top-level
// benchmarks too: each would be measured twice.
func benchFor(text, top string) (string, error) {
	var alts []string
	for _, levels := range benchAlternatives(text) {
		re, err := regexp.Compile(levels[0])
		if err != nil {
			return "", err
		}
		if re.MatchString(top) {
			alts = append(alts, strings.Join(append([]string{"^" + regexp.QuoteMeta(top) + "$"}, levels[1:]...), "/"))
		}
	}
	return strings.Join(alts, "|"), nil
}

// Calibrate runs every benchmark of bin that the options match once with
// testing's own ramp to the sample time, on the measured CPU, and returns
// one target per leaf benchmark (a benchmark that runs sub-benchmarks is
// not measured itself), calibrated, in the order testing ran them. Each
// top-level benchmark is calibrated in a process of its own, so one that
// panics fails alone. A cancelled ctx ends the test process running (it
// is killed and waited for) and the calibration, with an error that wraps
// context.Canceled; the targets keep ctx, whose cancellation ends their
// samples' processes too.
func Calibrate(ctx context.Context, bin *Binary, o Options) ([]*Target, error) {
	tops, err := Matching(ctx, bin, o)
	if err != nil {
		return nil, err
	}
	var ts []*Target
	start := StartOffCPU(o.CPU)
	for _, top := range tops {
		if !o.Shard.Holds(bin.Package.ImportPath, top) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		bench, err := benchFor(o.BenchText, top)
		if err != nil {
			return nil, err
		}
		r, err := o.ramp(ctx, bin, bench, start)
		if err != nil {
			return nil, err
		}
		op := o
		if o.ParallelGOMAXPROCS > 0 && o.ParallelGOMAXPROCS != o.GOMAXPROCS && !r.Stopped && r.parallel() {
			// testing's ramp settled on an N for other Ps: again,
			// at the GOMAXPROCS it is measured at.
			op.GOMAXPROCS = o.ParallelGOMAXPROCS
			if r, err = op.ramp(ctx, bin, bench, start); err != nil {
				return nil, err
			}
		}
		if r.Stopped {
			return nil, fmt.Errorf("calibrating %s: %w", top, context.Canceled)
		}
		for _, t := range op.calibrated(bin, top, r, start) {
			t.ctx = ctx
			if err := op.rampLonger(ctx, bin, t, start); err != nil {
				return nil, err
			}
			ts = append(ts, t)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err // the last calibration may have been cut short
	}
	return ts, nil
}

// RampTries is how many times in all testing's ramp of a top-level
// benchmark runs while a wait for a CPU ended it (Log.waitedOut). A
// top-level benchmark runs again whole, its sub-benchmarks too: a third
// run is the most one wait can cost.
const RampTries = 3

// ramp runs testing's ramp of bench to the sample time, and runs it again,
// up to RampTries times in all, while a call that waited for a CPU most
// of the time ended it: the N it settled on is then far too small. On a
// busy machine a 1 µs op whose first call, at N=1, lost the CPU for a
// scheduler's time slice (4 ms) lasted a 1 ms sample time: testing
// stopped there, every sample was one op, too short for the clock to time
// (below-clock), and a bisection could not judge its own BAD against GOOD.
func (o Options) ramp(ctx context.Context, bin *Binary, bench string, start func(*exec.Cmd) error) (*Run, error) {
	for try := 1; ; try++ {
		r, err := bin.Exec(ctx, o, calibrateArgs(bench, o.SampleTime), o.timeout(rampCalls), start)
		if err != nil || r.Stopped || try == RampTries || ctx.Err() != nil || !r.waitedOut(o.SampleTime) {
			return r, err
		}
	}
}

// LongerRamp is how much longer than the sample time (or the N=1 call)
// the second ramp of a benchmark whose first stopped early aims
// (rampLonger).
const LongerRamp = 4

// rampLonger runs testing's ramp again, to LongerRamp times the sample
// time, for a target whose ramp made fewer than two calls past N=1, and
// adds its calls to the target's calibration: a call that lasts the sample
// time ends the ramp at N=1, and then nothing tells a cost paid once per
// call from one paid per op. sync's BenchmarkPoolExpensiveNew refills a
// pool at 1 ms an item after each collection: 116 ms at N=1, 2 ms/op at
// N=500 under go test. The target's N stays the first ramp's.
func (o Options) rampLonger(ctx context.Context, bin *Binary, t *Target, start func(*exec.Cmd) error) error {
	past, first := 0, time.Duration(0)
	for _, c := range t.Calibration {
		if c.N > 1 {
			past++
		} else {
			first = max(first, time.Duration(c.Ns))
		}
	}
	// Aimed past the N=1 call too, else a call longer than the longer
	// sample time ends this ramp at N=1 as well; but at most longerCap,
	// and not at all for a benchmark whose call takes half of that: the
	// ramp would cost many seconds more, and the cost per op is the
	// call's anyway. A busy machine slows the N=1 call too (a 30 ms call
	// read 300 ms at a load of 20): the cap leaves it room.
	longerCap := max(10*o.SampleTime, 2*time.Second)
	longer := min(LongerRamp*max(o.SampleTime, first), longerCap)
	loop := loops(t.Calibration) // b.Loop times no setup
	if t.Fail != "" || past >= 2 || len(t.Calibration) == 0 || first >= longerCap/2 || loop {
		return nil
	}
	r, err := bin.Exec(ctx, o, calibrateArgs(BenchRegexp(t.Bench), longer), o.timeout(LongerRamp*rampCalls), start)
	if err != nil {
		return err
	}
	if r.Stopped {
		return fmt.Errorf("calibrating %s: %w", t.Bench, context.Canceled)
	}
	for _, c := range r.named(t.Bench) {
		if c.Ended && c.Returned && c.Leaf() {
			t.Calibration = append(t.Calibration, c)
		}
	}
	return nil
}

// calibrated makes the targets of one top-level benchmark's calibration
// run: a leaf that returned is calibrated at the N testing settled on (its
// last call's); one that failed, panicked, or was running when the
// process ended is a target that fails with why; one skipped is left out,
// as go test leaves it. A parent whose sub-benchmarks left no records
// (b.Run outside the test files, which are all benchy rewrites) fails.
func (o Options) calibrated(bin *Binary, top string, r *Run, start func(*exec.Cmd) error) []*Target {
	var ts []*Target
	failed := func(name, why string) {
		t := o.target(bin, name, 1, start)
		t.Fail = why
		ts = append(ts, t)
	}
	running := ""
	if len(r.Running) > 0 {
		running = r.Running[len(r.Running)-1].Name // the call the process ended in
	}
	for _, name := range r.names() {
		calls := r.named(name)
		if why := o.whyNot(r, name, calls, running); why != "" {
			failed(name, why)
			continue
		}
		var done []Record
		for _, c := range calls {
			if c.Ended && c.Returned && c.Leaf() {
				done = append(done, c)
			}
		}
		if len(done) == 0 || len(done) < len(calls) {
			continue // a parent, or skipped
		}
		t := o.target(bin, name, sampleN(done[len(done)-1], o.SampleTime), start)
		t.Calibration = done
		ts = append(ts, t)
	}
	if r.Err != nil && !slices.ContainsFunc(ts, func(t *Target) bool { return t.Bench == top || strings.HasPrefix(t.Bench, top+"/") }) {
		// The process failed outside any call (a panic in init, a
		// TestMain that exits) before it measured anything of top.
		failed(top, top+": "+r.processFailure())
	}
	return ts
}

// whyNot is why the benchmark name has no target that measures: a failure
// of one of its calls, or sub-benchmarks that could not be pinned; "" when
// there is none. A parent's failure is its sub-benchmark's, reported
// there, unless none of them failed; of the calls under way when the
// process ended, only the innermost, running, is to blame.
func (o Options) whyNot(r *Run, name string, calls []Record, running string) string {
	for _, c := range calls {
		if !c.Ended && name != running {
			continue
		}
		why := r.Failure(c)
		if why == "" {
			continue
		}
		if c.Leaf() || !subFailed(r, name) {
			return why
		}
	}
	for _, c := range calls {
		if c.Ended && c.Subs && !c.Nested {
			return name + " runs sub-benchmarks that benchy cannot pin: their b.Run is outside the package's _test.go files, the only files benchy rewrites"
		}
	}
	return ""
}

// subFailed reports whether a sub-benchmark of name failed.
func subFailed(r *Run, name string) bool {
	for _, c := range r.Calls {
		if strings.HasPrefix(c.Name, name+"/") && (!c.Ended || r.Failure(c) != "") {
			return true
		}
	}
	return false
}

// SampleHeadroom is how far past the sample time a sample is aimed: at
// 5% the median sample stays above it through the 1-3% that calls of one
// N differ by on a quiet machine.
const SampleHeadroom = 1.05

// sampleN is the N every sample runs at, from the last call of testing's
// ramp: the first that lasted the sample time d, which testing aims 20%
// past d and the luck of its steps can put further (a first call slowed
// by cold caches makes it predict short, and the next step long). Scaled
// down to last SampleHeadroom past d at that call's rate (less its run
// delay: time the machine took is not the benchmark's), samples cost what
// they promise rather than what the ramp happened to end at: strings'
// SplitSingleByteSeparator ended at N=121, 128 ms a call for a 100 ms
// sample time, where go test's own ramps stop at N=100. N never grows:
// a ramp that ended short of d (at testing's cap of 1e9) keeps its N.
func sampleN(last Record, d time.Duration) int64 {
	ns := ownNs(last)
	if ns <= 0 || d <= 0 {
		return last.N
	}
	n := int64(math.Ceil(SampleHeadroom * float64(d.Nanoseconds()) * float64(last.N) / float64(ns)))
	return max(1, min(n, last.N))
}

func (o Options) target(bin *Binary, bench string, n int64, start func(*exec.Cmd) error) *Target {
	display := strings.TrimPrefix(bench, "Benchmark")
	if p := prefixes(o.Packages)[bin.Package.ImportPath]; p != "" {
		display = p + "." + display
	}
	return &Target{Bin: bin, Bench: bench, Display: display, N: n, opts: o, start: start}
}

// prefixes are the names of the packages in benchmark names: none for one
// package; else for each the last element of its import path ("util"), or
// where two share it, the shortest end of the path that no other path
// ends with ("a/util", "b/util"), the whole path at most.
func prefixes(paths []string) map[string]string {
	paths = slices.Compact(slices.Sorted(slices.Values(paths)))
	out := map[string]string{}
	if len(paths) < 2 {
		return out
	}
	for _, p := range paths {
		elems := strings.Split(p, "/")
		out[p] = p
		for k := 1; k <= len(elems); k++ {
			end := strings.Join(elems[len(elems)-k:], "/")
			if !slices.ContainsFunc(paths, func(q string) bool { return q != p && (q == end || strings.HasSuffix(q, "/"+end)) }) {
				out[p] = end
				break
			}
		}
	}
	return out
}
