package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"github.com/benchy-dev/benchy/internal/callgrind"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// Countable is a target whose instructions can be counted apart from its
// time, by running it under callgrind.
type Countable interface {
	Name() string
	// CountCommand is the program that runs n ops of the target once, and
	// the function to count in ("" for the whole program).
	CountCommand(n int64) (callgrind.Command, error)
}

// CountOptions say how the instructions are counted.
type CountOptions struct {
	// CacheSim adds callgrind's cache simulation: L1 and last-level
	// misses per op, and the estimated cycles.
	CacheSim bool
	// Work is how many instructions the largest counted run's ops count
	// (0: DefaultCountWork); Points is how many N are counted (0:
	// DefaultCountPoints, at least 2), spread evenly up to that run's.
	Work   int64
	Points int
	// Env is added to every counted program's environment: GOGC=off for
	// Go code, so that the collector's work, which varies from run to
	// run, is not counted.
	Env []string
	// Progress, when not nil, is told what is being counted, and "" when
	// the counting is over.
	Progress func(string)
	// count runs one command; nil for callgrind.Count (tests fake it).
	count func(context.Context, callgrind.Command, callgrind.Options) (*callgrind.Run, error)
}

// Defaults of the counting: the largest run's ops count 16 million
// instructions, about 0.2 s of counted work under callgrind here (which
// ran 60-90 million a second on a 2-vCPU VM), long enough that the
// runtime's own work in it averages out and short beside valgrind's start
// (~0.5 s); at N/4, N/2, 3N/4 and N, so the slope rests on four points and
// a run's constant costs cancel.
const (
	DefaultCountWork   = 16_000_000
	DefaultCountPoints = 4
	// maxCountIters bounds N, as MaxIters bounds a sample.
	maxCountIters = 1 << 40
)

// countStopped is the error a count a stop ended keeps in the result.
const countStopped = "counting stopped"

// Count counts the instructions of every experiment of r that ts has a
// Countable for, and stores them in the experiment's Count. A target whose
// count fails keeps the error in its Count and the others go on; valgrind
// missing, or a cancelled ctx, ends it all (the error then wraps
// context.Canceled, and the count it ended says "counting stopped").
func Count(ctx context.Context, r *result.Result, ts []Countable, o CountOptions) error {
	if o.count == nil {
		o.count = func(ctx context.Context, c callgrind.Command, co callgrind.Options) (*callgrind.Run, error) {
			return callgrind.Count(ctx, c.Argv, co)
		}
	}
	if o.Progress != nil {
		defer o.Progress("")
	}
	for i, t := range ts {
		e := r.Find(t.Name())
		if e == nil || e.Error != "" {
			continue
		}
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("[%d/%d] %s: counting instructions under callgrind", i+1, len(ts), t.Name()))
		}
		c, err := countOne(ctx, t, e.Stats.Median, o)
		stopped := errors.Is(err, context.Canceled)
		switch {
		case errors.Is(err, callgrind.ErrMissing):
			return err
		case stopped:
			c.Error = countStopped
		case err != nil:
			c.Error = err.Error()
		}
		e.Count = c
		if stopped {
			return err
		}
	}
	return nil
}

// Bounds of a counted run's wall time: callgrind runs a program 20 to 100
// times slower than it runs natively (slower still with the cache
// simulation, or on a busy machine), and valgrind's own start takes about
// half a second. A run of n ops may take countFloor plus countSlowdown
// times what n ops took in the timed samples (their median): one still
// running then is not slow, it does not end under callgrind (a program
// that waits for something valgrind holds back), and is killed rather
// than left to hang a CI job. Generous: a wrong kill costs a count, a
// wrong wait costs the job.
const (
	countSlowdown = 200
	countFloor    = time.Minute
)

// countTimeout is the bound of a counted run of n ops whose timed median
// was perOpNs a op (NaN or 0 when unknown: the floor alone).
func countTimeout(perOpNs float64, n int64) time.Duration {
	ns := countSlowdown * perOpNs * float64(n)
	if !(ns > 0) {
		return countFloor
	}
	return countFloor + time.Duration(min(ns, float64(maxCountTimeout)))
}

// maxCountTimeout caps countTimeout's part from the timed runs, so that
// it cannot overflow a time.Duration.
const maxCountTimeout = 100 * 24 * time.Hour

// countOne calibrates N and counts the points, each run bounded by
// countTimeout of perOpNs, the timed median per op. Every run's wall time
// is added to the count's, the probes' included.
func countOne(ctx context.Context, t Countable, perOpNs float64, o CountOptions) (*result.Count, error) {
	c := &result.Count{Counter: result.CounterCallgrind, Samples: []result.CountSample{}}
	run := func(n int64) (*callgrind.Run, error) {
		cmd, err := t.CountCommand(n)
		if err != nil {
			return nil, err
		}
		if c.Symbol == "" {
			c.Symbol = cmd.Symbol
		}
		env := cmd.Env
		if len(o.Env) > 0 {
			if env == nil {
				env = os.Environ()
			}
			env = append(slices.Clip(env), o.Env...)
		}
		timeout := countTimeout(perOpNs, n)
		r, err := o.count(ctx, cmd, callgrind.Options{MarkStart: cmd.MarkStart, MarkEnd: cmd.MarkEnd, CacheSim: o.CacheSim,
			Children: cmd.Children, Dir: cmd.Dir, Env: env, Stdin: cmd.Stdin, Timeout: timeout})
		if te := (*callgrind.TimeoutError)(nil); errors.As(err, &te) {
			why := fmt.Sprintf("%v, as no timed run says how long it takes", countFloor)
			if perOpNs > 0 {
				why = fmt.Sprintf("%v plus %d times the %s its %s took timed (the median)", countFloor, countSlowdown, units.Duration(perOpNs*float64(n)), units.Count(n, "op"))
			}
			return nil, fmt.Errorf("%w: the bound of a counted run is %s", err, why)
		}
		if err != nil {
			return nil, err
		}
		if cmd.Dumps > 0 && r.Dumps != cmd.Dumps {
			return nil, fmt.Errorf("the count's end was reached %d times, not %d: the program did not run as counted", r.Dumps, cmd.Dumps)
		}
		c.WallNs += r.Wall.Nanoseconds()
		c.Tool = r.Creator
		c.Caches = r.Caches
		return r, nil
	}
	points := DefaultCountPoints
	if o.Points >= 2 {
		points = o.Points
	}
	probe, err := t.CountCommand(1)
	if err != nil {
		return c, err
	}
	var ns []int64
	if probe.PerRun {
		ns = slices.Repeat([]int64{1}, points)
	} else {
		n, err := calibrateCount(run, o)
		if err != nil {
			return c, err
		}
		ns = countPoints(n, points)
	}
	for _, n := range ns {
		r, err := run(n)
		if err != nil {
			return c, err
		}
		if c.Events == nil {
			c.Events = eventNames(r.Profile)
		}
		c.Samples = append(c.Samples, result.CountSample{Iters: n, Events: r.Counts(), WallNs: r.Wall.Nanoseconds()})
	}
	return c, nil
}

// eventNames are the profile's events under benchy's names, in its order.
func eventNames(p *callgrind.Profile) []string {
	var out []string
	for _, e := range p.Events {
		if e == "Ir" {
			e = result.EventInstructions
		}
		out = append(out, e)
	}
	return out
}

// calibrateCount finds the N whose ops count about o.Work instructions,
// by counting, not timing: the N of a run is then the same from run to run
// whatever the machine does. A run of one op counts an op and what a run
// costs once; a run at the N that those would take to reach the work
// measures an op apart from that constant, and while its ops counted too
// little to tell (less than a tenth of the work), N grows tenfold. Both
// probes are dropped: their N is far from the points'.
func calibrateCount(run func(int64) (*callgrind.Run, error), o CountOptions) (int64, error) {
	work := o.Work
	if work <= 0 {
		work = DefaultCountWork
	}
	base, err := run(1)
	if err != nil {
		return 0, err
	}
	one := base.Counts()[result.EventInstructions]
	n := int64(2)
	if one > 0 {
		n = max(2, min(work/one, maxCountIters))
	}
	for range 8 {
		r, err := run(n)
		if err != nil {
			return 0, err
		}
		spent := r.Counts()[result.EventInstructions] - one
		if spent >= work/10 || n >= maxCountIters {
			return scaleCount(n-1, spent, work), nil
		}
		n = min(n*10, maxCountIters)
	}
	return n, nil
}

// scaleCount is the N whose ops count work instructions, when ops ops
// counted spent: at least 1, and at most 100 times ops (a probe whose ops
// were lost in the run's own constant is not extrapolated far).
func scaleCount(ops, spent, work int64) int64 {
	if spent <= 0 {
		return min(max(ops, 1)*100, maxCountIters)
	}
	x := float64(ops) * float64(work) / float64(spent)
	return int64(math.Min(math.Max(x, 1), math.Min(float64(max(ops, 1))*100, maxCountIters)))
}

// countPoints are points Ns evenly spread up to n (n/points, 2n/points,
// ..., n), each at least one more than the one before, so that there are
// always points different Ns.
func countPoints(n int64, points int) []int64 {
	out := make([]int64, points)
	var last int64
	for k := range points {
		v := max(n*int64(k+1)/int64(points), last+1)
		out[k] = v
		last = v
	}
	return out
}
