package gotestrun

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
	"github.com/benchy-dev/benchy/internal/units"
)

// BisectPlan is what `benchy bisect` measures: the commits between Good
// and Bad, walked as package bisect says, each step building the commit
// in a worktree and measuring it interleaved with Good's and Bad's
// binaries (one CPU, one N, the process as the unit), as gotest --against
// measures two revisions.
type BisectPlan struct {
	// GoTest is how each step is measured: its Plan, Dir (a directory of
	// the repository, where the packages resolve), Packages, BuildFlags,
	// Bench, SampleTime, Processes, GOMAXPROCS, Notes and OnExit.
	GoTest    GoTestPlan
	Good, Bad string
	// Threshold is history check's: Bad is slower when the interleaved
	// run finds it so with its whole interval beyond Threshold.
	Threshold float64
	// Retries is how many times more an undecided commit is measured
	// before it is kept undecided.
	Retries int
	// Keep, when not nil, is given every step's measurement as soon as it
	// is made, as one result per build with the commit it measured (GOOD,
	// BAD, then the commit of the step): --store keeps them in the
	// history. A step a stop cut short gives nothing.
	Keep func(commits []string, rs []*result.Result)
}

// buildSides are the sides of a step's builds in its one interleaved run,
// by build: GOOD, BAD, and the commit the step measures. match gives each
// target its build's side, and splitBySide parts the run by it.
var buildSides = []string{result.SideGood, result.SideBad, result.SideMid}

// skipCommit is why the commit a step measures cannot be measured (it
// does not build, it lacks the benchmark, or its test binary cannot list
// or calibrate it): the walk skips that commit, where the same failure of
// GOOD or BAD ends the bisection.
type skipCommit struct{ why string }

func (e *skipCommit) Error() string { return e.why }

// Bisect walks p's commits to the one that made the benchmark slower. The
// worktrees and the temporary directory are removed on every way out, a
// second signal included. An error that ends the walk comes with what
// was measured before it, for the caller to write: a stop (a cancelled
// ctx, the error wrapping context.Canceled) marks it Interrupted. An error
// before any step comes alone.
func Bisect(ctx context.Context, p BisectPlan) (*bisect.Report, error) {
	return bisectFrom(ctx, p, nil)
}

// bisectFrom is Bisect, taking over from the confirmation pair of GOOD
// against BAD when it is not nil (takeOver): its builds, its calibrated
// benchmarks and its run, the walk's first reading of BAD.
func bisectFrom(ctx context.Context, p BisectPlan, pair *pairRun) (*bisect.Report, error) {
	g := p.GoTest
	// A --cpu that cannot be used is refused before anything is built,
	// not after GOOD's and BAD's builds.
	if err := pipeline.CheckCPU(g.Plan); err != nil {
		return nil, err
	}
	ch := gotest.NewChildren(ctx)
	if g.OnExit != nil {
		g.OnExit(ch.Kill)
	}
	wd, err := gotest.NewWorkDir()
	if err != nil {
		return nil, err
	}
	b := &bisectRun{ctx: ctx, p: p, ch: ch, ws: &workspace{dir: wd, notes: g.Notes}, builds: map[string]built{}, calibrateF: calibrate, runF: pipeline.Run, programF: (*side).program}
	b.buildF = b.checkout
	defer b.ws.clean()
	if g.OnExit != nil {
		g.OnExit(b.ws.clean)
	}
	stale, err := gotest.RemoveStaleWorktrees(ch, g.Dir)
	if len(stale) > 0 {
		fmt.Fprintf(g.Notes, "benchy: removed %s an earlier benchy left behind when it was killed: %s\n", units.Count(len(stale), "worktree"), strings.Join(stale, ", "))
	}
	if err != nil {
		return nil, stageStop(err, "removing old worktrees")
	}
	good, commits, err := gotest.FirstParents(ch, g.Dir, p.Good, p.Bad)
	if err != nil {
		return nil, stageStop(err, "listing the commits")
	}
	b.good, b.commits = good, commits
	b.takeOver(pair)
	fmt.Fprintf(g.Notes, "benchy: %d commits after %s up to %s, along the first parents\n", len(commits), good.Short(), commits[len(commits)-1].Short())
	ws, steps, err := bisect.DriveAll(len(commits), p.Retries, p.Threshold, b.twins, b.measure)
	out := &bisect.Report{Good: good, Commits: commits, Runs: b.runs, Threshold: p.Threshold}
	for k, w := range ws {
		out.Benchmarks = append(out.Benchmarks, bisect.Benchmark{Name: b.followed[k].name, Steps: steps[k], Answer: w.Answer()})
	}
	switch {
	case errors.Is(err, context.Canceled):
		out.Interrupted = true
	case err != nil && len(steps) == 0:
		return nil, err // nothing measured: the error alone (a usage error stays one line)
	}
	return out, err
}

// stageStop is err for a command a stop ended, else err as a StageError
// of what was being done.
func stageStop(err error, doing string) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return &StageError{doing, err}
}

// bisectRun is a bisection under way: its commits, what is built, and
// what each commit's steps measured.
type bisectRun struct {
	// ctx is Bisect's: the walk is a long-lived runner whose steps (the
	// pipeline's Prepare among them) all stop with it.
	ctx     context.Context
	p       BisectPlan
	ch      *gotest.Children
	ws      *workspace
	good    bisect.Commit
	commits []bisect.Commit
	// followed are the benchmarks --bench matches in both GOOD and BAD,
	// known after the first step, in GOOD's order.
	followed []*followed
	runs     int // interleaved runs made

	builds map[string]built // by commit hash: each commit is built once
	// calibrated are GOOD's and BAD's benchmarks as calibrated on the CPU
	// calCPU, once for the walk: each step measures copies of them.
	calibrated [2][]*gotest.Target
	calCPU     int
	calibrateF func(context.Context, *side, gotest.Options) ([]*gotest.Target, error)          // calibrate; the tests count the calls
	buildF     func(commit string) (*side, error)                                              // checkout; the tests count the calls
	runF       func(context.Context, pipeline.Plan, []pipeline.Target) (*result.Result, error) // pipeline.Run; the tests count the calls
	programF   func(*side) (string, error)                                                     // (*side).program; the tests give their own
	// reading, when not nil, is the run of a confirmation the walk took
	// over (takeOver), its sides GOOD and BAD: the first step's reading.
	reading *result.Result
}

// built is one commit's build: its binaries, or why there are none, and
// the program they run (gotest.Binary.Program), "" until asked or when it
// could not be read.
type built struct {
	side    *side
	err     error
	program string
	said    bool // it does not build, and a step said it measured it
}

// followed is one benchmark of the walk: testing's name and the
// experiment's, and what was measured of it.
type followed struct {
	bench, name string
	// goods and bads are GOOD's and BAD's runs of it in every step that
	// measured it, goods[k] and bads[k] from the same rounds: BAD's level
	// is judged on them all.
	goods, bads []*result.Result
	pools       map[int]*pool // by commit index: the runs of every attempt
	lacking     bool          // the commit of the step under way lacks it
}

// pool holds a commit's interleaved runs, split by build: good[k], bad[k]
// and mid[k] ran in the same rounds.
type pool struct{ good, bad, mid []*result.Result }

// build is the test binaries of commit, built once: a later step that
// needs it again takes what the first made, binaries or error.
func (b *bisectRun) build(commit string) (*side, error) {
	if x, ok := b.builds[commit]; ok {
		return x.side, x.err
	}
	s, err := b.buildF(commit)
	if errors.Is(err, context.Canceled) {
		return nil, err // not known: a later run builds it
	}
	b.builds[commit] = built{side: s, err: err}
	return s, err
}

// program is what commit runs (its build's gotest.Binary.Program), read
// once; "" when it does not build or its binaries cannot be read.
func (b *bisectRun) program(commit string) string {
	x, ok := b.builds[commit]
	if !ok || x.err != nil || x.side == nil {
		return ""
	}
	if x.program == "" {
		p, err := b.programF(x.side)
		if err != nil {
			return ""
		}
		x.program = p
		b.builds[commit] = x
	}
	return x.program
}

// twins is the walk's bisect.Twins: the commits built so far (GOOD as -1,
// then BAD, then the others in order) whose test binaries run the same
// program as commit i's, which it builds. A commit with twins is said
// once, as it would be measured.
func (b *bisectRun) twins(i int) []int {
	c := b.commits[i]
	if _, err := b.build(c.Hash); err != nil {
		return nil // measure says why
	}
	p := b.program(c.Hash)
	if p == "" {
		return nil
	}
	n := len(b.commits)
	var out []int
	if b.program(b.good.Hash) == p {
		out = append(out, -1)
	}
	if b.program(b.commits[n-1].Hash) == p {
		out = append(out, n-1)
	}
	for j, cj := range b.commits[:n-1] {
		if j != i && b.builds[cj.Hash].program == p {
			out = append(out, j)
		}
	}
	if len(out) > 0 {
		// One line within 80 columns: "benchy: b59880e6238f (39 of 64)
		// runs GOOD's program: fast, not measured".
		var what string
		switch out[0] {
		case -1:
			what = "GOOD's program: fast, not measured"
		case n - 1:
			what = "BAD's program: slow, not measured"
		default:
			what = b.commits[out[0]].Short() + "'s program: at its level if it has one"
		}
		fmt.Fprintf(b.p.GoTest.Notes, "benchy: %s (%d of %d) runs %s\n", c.Short(), i+1, n, what)
	}
	return out
}

// checkout checks commit out in a worktree of the walk's and builds its
// test binaries there.
func (b *bisectRun) checkout(commit string) (*side, error) {
	g := b.p.GoTest
	wt, err := gotest.AddWorktree(b.ch, g.Dir, commit, b.ws.dir.CommitWorktree(commit))
	if err != nil {
		return nil, err
	}
	b.ws.add(wt)
	s, err := buildSide(g, b.ch, wt.Path(), filepath.Join(b.ws.dir.Path, "bin-"+commit), g.BuildFlags)
	if err != nil {
		return nil, againstError(err, wt)
	}
	return s, nil
}

// measure is the walk's MeasureAll: commit i built and run interleaved
// with GOOD and BAD (BAD alone with GOOD when i is BAD) for the benchmarks
// needs names (every one --bench matches when nil, which the first run
// finds), each pooled with the commit's earlier attempts for it.
func (b *bisectRun) measure(i int, needs []bisect.Need) ([]bisect.Step, error) {
	n := len(b.commits)
	cs := []bisect.Commit{b.good, b.commits[n-1]}
	if i != n-1 {
		cs = append(cs, b.commits[i])
	}
	var fs []*followed
	for _, nd := range needs {
		fs = append(fs, b.followed[nd.Bench])
	}
	// A commit that does not build is said once, when a walk first comes
	// to it; another benchmark's walk that comes to it later skips it
	// without a word.
	hash := b.commits[i].Hash
	if x := b.builds[hash]; x.err != nil && x.said {
		return skipped(len(fs), stepError(x.err)), nil
	}
	b.announce(i, needs)
	sides, err := b.buildAll(cs)
	if x, ok := b.builds[hash]; ok && x.err != nil {
		x.said = true
		b.builds[hash] = x
	}
	var r *result.Result
	switch {
	case err != nil:
	case i == n-1 && b.reading != nil:
		r, b.reading = b.reading, nil // BAD measured again, if undecided, is measured anew
	default:
		r, err = b.run(sides, fs)
	}
	var skip *skipCommit
	switch {
	case errors.As(err, &skip):
		return skipped(len(fs), skip.why), nil
	case errors.Is(err, context.Canceled):
		return nil, err
	case err != nil:
		return nil, err
	case r.Interrupted || b.ctx.Err() != nil:
		return nil, context.Canceled
	}
	b.runs++
	if fs == nil {
		fs = b.followed // the first run: every benchmark
	}
	rs := splitBySide(r, buildSides[:len(sides)]...)
	if b.p.Keep != nil {
		var hashes []string
		for _, c := range cs {
			hashes = append(hashes, c.Hash)
		}
		b.p.Keep(hashes, rs)
	}
	var sts []bisect.Step
	for _, f := range fs {
		if f.lacking {
			sts = append(sts, bisect.Step{Side: bisect.Skipped, Why: notIn([]*followed{f})})
			continue
		}
		sts = append(sts, b.judge(f, i, only(rs, f.name)))
	}
	return sts, nil
}

// announce says which commit a step measures against which, the
// attempt when it is not the first, and for how many of the benchmarks
// followed when it is not all of them.
func (b *bisectRun) announce(i int, needs []bisect.Need) {
	attempt := 0
	for _, nd := range needs {
		attempt = max(attempt, nd.Attempt)
	}
	n := len(b.commits)
	what := "BAD " + b.commits[n-1].Short() + " against GOOD " + b.good.Short()
	if i == n-1 && b.reading != nil {
		fmt.Fprintf(b.p.GoTest.Notes, "benchy: %s: the confirmation's interleaved run, not measured again\n", what)
		return
	}
	if i != n-1 {
		what = fmt.Sprintf("%s (%d of %d) against GOOD and BAD", b.commits[i].Short(), i+1, n)
	}
	if attempt > 0 {
		what += fmt.Sprintf(", again (%d)", attempt+1)
	}
	if len(b.followed) > 1 && len(needs) > 0 {
		what += " for " + units.Count(len(needs), "benchmark")
	}
	fmt.Fprintf(b.p.GoTest.Notes, "benchy: measuring %s, interleaved\n", what)
}

// buildAll is the builds of a step's commits cs: GOOD, BAD, and the
// commit measured unless it is BAD. That commit not building is a
// skipCommit, where GOOD or BAD not building ends the walk.
func (b *bisectRun) buildAll(cs []bisect.Commit) ([]*side, error) {
	var sides []*side
	for k, c := range cs {
		s, err := b.build(c.Hash)
		switch {
		case errors.Is(err, context.Canceled):
			return nil, err
		case err != nil && k == 2:
			return nil, &skipCommit{stepError(err)}
		case err != nil:
			return nil, &StageError{"building the test binaries of " + []string{"GOOD", "BAD"}[k] + " " + c.Short(), err}
		}
		sides = append(sides, s)
	}
	return sides, nil
}

// skipped are the steps of k benchmarks at a commit that cannot be
// measured, for why.
func skipped(k int, why string) []bisect.Step {
	sts := make([]bisect.Step, k)
	for x := range sts {
		sts[x] = bisect.Step{Side: bisect.Skipped, Why: why}
	}
	return sts
}

// only are rs with the experiment name alone: each benchmark of a step
// is compared on its own, as if it had been bisected alone (several
// compared together would widen every interval for the family).
func only(rs []*result.Result, name string) []*result.Result {
	out := make([]*result.Result, len(rs))
	for k, r := range rs {
		x := *r
		x.Experiments = nil
		for _, e := range r.Experiments {
			if e.Name == name {
				x.Experiments = append(x.Experiments, e)
			}
		}
		out[k] = &x
	}
	return out
}

// judge is the step of benchmark f at commit i whose interleaved runs,
// split by build, are rs (GOOD, BAD, and the commit unless it is BAD):
// BAD's ratio to GOOD over every step of the walk so far that measured f,
// and the commit's over its own attempts; the commit's side is left to
// bisect.DriveAll, BAD's is set here.
func (b *bisectRun) judge(f *followed, i int, rs []*result.Result) bisect.Step {
	n := len(b.commits)
	f.goods, f.bads = append(f.goods, rs[0]), append(f.bads, rs[1])
	badRow := b.row(f.name, f.goods, f.bads)
	st := bisect.Step{Bad: ratio(badRow)}
	if i == n-1 {
		st.Mid = st.Bad
		switch outcome, why := outcome(*badRow); outcome {
		case Confirmed:
			st.Side = bisect.Slow
		case NotConfirmed:
			st.Side = bisect.Fast
		default:
			st.Side, st.Why = unjudged(*badRow), why
		}
		return st
	}
	if f.pools == nil {
		f.pools = map[int]*pool{}
	}
	pl := f.pools[i]
	if pl == nil {
		pl = &pool{}
		f.pools[i] = pl
	}
	pl.good, pl.bad, pl.mid = append(pl.good, rs[0]), append(pl.bad, rs[1]), append(pl.mid, rs[2])
	midRow := b.row(f.name, pl.good, pl.mid)
	st.Mid = ratio(midRow)
	level := bisect.PositionLevel(b.p.Retries)
	if v, lo, hi, ok := compare.Position(pl.good, pl.bad, pl.mid, f.name, level); ok {
		st.Position = &bisect.Ratio{Value: v, Low: lo, High: hi, Level: level}
	}
	if !midRow.Judged() {
		st.Side = unjudged(*midRow)
		st.Why = "could not judge: " + midRow.Verdict
		if midRow.Reason != "" {
			st.Why += ": " + midRow.Reason
		}
	}
	return st
}

// unjudged is the side of a commit whose comparison r gave no verdict
// that places it: undecided, measured again, when more runs may tell (an
// interval that still reaches past the threshold, or a comparison made
// inconclusive by a busy machine); skipped when they cannot (runs that
// cannot be compared).
func unjudged(r compare.Row) bisect.Side {
	if r.Judged() || r.Verdict == result.Inconclusive {
		return bisect.Undecided
	}
	return bisect.Skipped
}

// row is the interleaved comparison of benchmark name in news against
// olds, the runs of every attempt pooled.
func (b *bisectRun) row(name string, olds, news []*result.Result) *compare.Row {
	f, err := compare.AgainstPooled(olds, news, b.p.Threshold)
	if err != nil || len(f.Rows) == 0 {
		return &compare.Row{Name: name, Pair: result.Pair{Verdict: result.NotComparable, Reason: "not measured on both sides"}}
	}
	return &f.Rows[0]
}

// ratio is r's ratio and interval; 0 where a comparison that could not be
// made left them undefined (NaN, which JSON cannot hold).
func ratio(r *compare.Row) bisect.Ratio {
	finite := func(x float64) float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0
		}
		return x
	}
	return bisect.Ratio{Value: finite(r.Ratio), Low: finite(r.CILow), High: finite(r.CIHigh), Level: finite(r.Level)}
}

// run measures the benchmarks fs in each build's binaries, interleaved in
// rounds on one CPU, every build at GOOD's N. The first run (fs nil)
// finds the benchmarks --bench matches in both GOOD and BAD, and measures
// them all; a third build that lacks every one of fs, or whose binary
// cannot list or calibrate them (an init that panics, a TestMain that
// exits), is a skipCommit.
func (b *bisectRun) run(sides []*side, fs []*followed) (*result.Result, error) {
	g := b.p.GoTest
	plan := g.Plan
	if plan.Notes == nil {
		plan.Notes = g.Notes // as GoTest: a --cpu that reads slow is said
	}
	perProcess := (plan.Settings.Samples + g.Processes - 1) / g.Processes
	plan.Settings.Samples = perProcess * g.Processes
	plan.Package = strings.Join(sides[0].importPaths(), " ")
	plan.Group = len(sides)
	bench := g.Bench
	if len(fs) == 1 {
		bench = gotest.BenchRegexp(fs[0].bench)
	}
	plan.Settings.Bench = bench
	topts := gotest.Options{BenchText: bench, SampleTime: g.SampleTime, PerProcess: perProcess,
		GOMAXPROCS: g.GOMAXPROCS, ParallelGOMAXPROCS: g.ParallelGOMAXPROCS}
	for _, s := range sides {
		topts.Packages = append(topts.Packages, s.importPaths()...)
	}
	plan.Prepare = func(ctx context.Context, cpu int) ([]pipeline.Target, error) {
		topts.CPU = cpu
		var all [][]*gotest.Target
		for k, s := range sides {
			ts, err := b.calibrate(ctx, k, s, topts)
			switch {
			case err == nil:
			case k != 2 || errors.Is(err, context.Canceled) || ctx.Err() != nil:
				return nil, err
			case errors.Is(err, pipeline.ErrUsage):
				return nil, &skipCommit{notIn(fs)}
			default:
				return nil, &skipCommit{"its test binary cannot be calibrated: " + stepError(err)}
			}
			all = append(all, ts)
		}
		return b.match(all, fs)
	}
	r, err := b.runF(b.ctx, plan, nil)
	if err != nil {
		return nil, err
	}
	r.GOMAXPROCS = g.GOMAXPROCS
	return r, nil
}

// calibrate is the calibrated benchmarks of build k of a step (0 GOOD, 1
// BAD, 2 the commit measured). GOOD and BAD are calibrated once for the
// walk, on the CPU of their first step: a later step measures copies at
// the same N (a step on another CPU calibrates them again). Calibrating
// them at every step would cost two ramps of testing a step and measure
// nothing more: N is GOOD's in every step, and the copies start clean.
func (b *bisectRun) calibrate(ctx context.Context, k int, s *side, o gotest.Options) ([]*gotest.Target, error) {
	if k == 2 {
		return b.calibrateF(ctx, s, o)
	}
	o.BenchText = b.p.GoTest.Bench // every benchmark followed, whichever this step needs
	if b.calibrated[k] == nil || b.calCPU != o.CPU {
		ts, err := b.calibrateF(ctx, s, o)
		if err != nil {
			return nil, err
		}
		if b.calCPU != o.CPU {
			b.calibrated = [2][]*gotest.Target{}
		}
		b.calibrated[k], b.calCPU = ts, o.CPU
	}
	return fresh(b.calibrated[k]), nil
}

// fresh are clean copies of the calibrated targets ts, at their N.
func fresh(ts []*gotest.Target) []*gotest.Target {
	var out []*gotest.Target
	for _, t := range ts {
		out = append(out, t.WithBinary(t.Bin, t.Display))
	}
	return out
}

// match picks the benchmarks fs from each build's calibrated targets,
// all at GOOD's N, each told its build's side. The first time (fs
// nil) it finds the benchmarks both GOOD and BAD have that --bench
// matches, in GOOD's order, and picks them all: none is a usage error.
// A benchmark the third build lacks is marked lacking (its step is
// skipped); one that lacks them all is a skipCommit.
func (b *bisectRun) match(all [][]*gotest.Target, fs []*followed) ([]pipeline.Target, error) {
	if b.followed == nil {
		for _, t := range all[0] {
			if slices.ContainsFunc(all[1], func(u *gotest.Target) bool { return u.Display == t.Display }) {
				b.followed = append(b.followed, &followed{bench: t.Bench, name: t.Display})
			}
		}
		if len(b.followed) == 0 {
			return nil, pipeline.Usagef("no benchmark matching --bench %q is in both GOOD and BAD", b.p.GoTest.Bench)
		}
	}
	if fs == nil {
		fs = b.followed
	}
	var ts []pipeline.Target
	lacking := 0
	for _, f := range fs {
		var n int64
		var three []pipeline.Target
		for k, side := range all {
			i := slices.IndexFunc(side, func(t *gotest.Target) bool { return t.Display == f.name })
			if i < 0 && k < 2 {
				return nil, pipeline.Usagef("%s is not in %s", f.name, []string{"GOOD", "BAD"}[k])
			}
			if i < 0 {
				break
			}
			t := side[i]
			if k == 0 {
				n = t.N
			}
			t.N = n
			t.Side = buildSides[k]
			three = append(three, t)
		}
		f.lacking = len(three) < len(all)
		if f.lacking {
			lacking++
			continue
		}
		ts = append(ts, three...)
	}
	if lacking == len(fs) {
		return nil, &skipCommit{notIn(fs)}
	}
	return ts, nil
}

// notIn says the commit a step measures lacks the benchmarks fs.
func notIn(fs []*followed) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.name)
	}
	if len(names) == 1 {
		return names[0] + " is not in this commit"
	}
	return strings.Join(names, ", ") + " are not in this commit"
}
