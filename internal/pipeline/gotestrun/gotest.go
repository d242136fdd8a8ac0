package gotestrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/layout"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
	"github.com/benchy-dev/benchy/internal/units"
)

// GoTestPlan is what `benchy gotest` measures: the benchmarks of
// packages, built with go test -c, and with Against a second revision of
// them, built in a temporary git worktree and measured interleaved with
// the first.
type GoTestPlan struct {
	// Plan is how to measure. Its Settings.Samples is the total over
	// Processes, rounded up to a multiple of them; with Layouts each
	// process of every layout takes that share.
	Plan pipeline.Plan
	// Dir is where the packages are resolved (absolute), Packages as go
	// test takes them, BuildFlags go test -c's own (-tags, -gcflags).
	Dir        string
	Packages   []string
	BuildFlags []string
	// Bench is --bench as given (a Go regular expression), and Shard the
	// share of the benchmarks it matches that is measured (--shard).
	Bench      string
	Shard      gotest.Shard
	SampleTime time.Duration
	Processes  int
	// GOMAXPROCS is the test binary's (Result.GOMAXPROCS), and
	// ParallelGOMAXPROCS, when not 0, that of a benchmark that runs
	// b.RunParallel (its Experiment.GOMAXPROCS): see gotest.Options.
	GOMAXPROCS         int
	ParallelGOMAXPROCS int
	// Against is the git revision of the old side ("" for none): the run
	// is a comparison (Compares).
	Against string
	// New, with Against, is the git revision of the new side, built in a
	// second temporary worktree; "" for the tree at Dir as it is.
	New string
	// SkipSame, with Against, measures nothing when both sides' test
	// binaries run the same program (gotest.Binary.Program): GoTest
	// returns ErrSameProgram. Without it the run says so and measures.
	SkipSame bool
	// Profile, when not nil, is the directory the profiles of every
	// benchmark's measured calls go into (--profile); with Against both
	// sides are profiled and their differences written there too.
	Profile *profiles.Dir
	// Layouts, when not 0, links each revision that many times with
	// -ldflags=-randlayout=1..Layouts (2 to MaxLayouts), all of a
	// benchmark's binaries interleaved in one group and each layout run
	// in Processes/Layouts processes, two at least: Result.Layouts says
	// what the layouts did, and with Against a change no larger than
	// what they move a benchmark by is layout-sensitive (judgeLayouts).
	Layouts int
	// Threshold is the smallest change the comparison of Against claims,
	// and FailOnRegression, when not nil, the limit of its gate.
	Threshold        float64
	FailOnRegression *float64
	// Notes receives what the user should know as it happens: stale
	// worktrees removed, which revision the old side is, benchmarks of
	// one side only.
	Notes io.Writer
	// Count, when not nil, counts the instructions of every benchmark
	// (without Against) after its time, while its binary is still there.
	Count *pipeline.CountOptions
	// OnExit, when not nil, is given what to do if benchy must exit at
	// once (a second signal): stop the commands, remove the worktree and
	// the temporary directory.
	OnExit func(func())
}

// GoTestRun is what a gotest plan measured. Without Against, Result is
// the run. With it, Result holds both sides' benchmarks interleaved, each
// experiment with its Side (with Profile, Result.ProfileDiffs are the
// differences of the two sides' profiles), and Comparison is the two
// sides compared, as benchy compare compares two files, with what the
// layouts did and the gate.
type GoTestRun struct {
	Result     *result.Result
	Comparison *compare.Document
}

// Compares says whether p compares two revisions (Against): the one test
// of it.
func (p GoTestPlan) Compares() bool { return p.Against != "" }

// A StageError is a failure before anything was measured, with what was
// being done ("checking out main", "building the test binaries").
type StageError struct {
	Doing string
	Err   error
}

func (e *StageError) Error() string { return e.Err.Error() }
func (e *StageError) Unwrap() error { return e.Err }

// GoTest builds, calibrates and measures p, and with Against compares the
// two sides. The temporary directory and the worktree of Against are
// removed on every way out, a second signal included, and the commands of
// the build (go, git) stop with the run. When the sides have no benchmark
// in common the error is compare.ErrNothingInCommon and the run is
// returned with it, without a Comparison.
//
// A cancelled ctx stops the builds and the run; the run's result holds
// what was measured, or the error wraps context.Canceled.
func GoTest(ctx context.Context, p GoTestPlan) (*GoTestRun, error) {
	w, err := startGoTest(ctx, p)
	if err != nil {
		return nil, err
	}
	defer w.ws.clean()
	return w.run()
}

// run is GoTest once started. The temporary directory and worktrees are
// the caller's to clean, and w keeps the builds and the benchmarks
// calibrated: history check --confirm --bisect hands those of a
// confirmed step to its walk (pairRun).
func (w *gotestWork) run() (*GoTestRun, error) {
	p := w.p
	if p.OnExit != nil {
		p.OnExit(w.ws.clean)
	}
	if p.Plan.Settings.Window > 0 {
		done, err := w.openWindow()
		if err != nil {
			return nil, err
		}
		defer done()
	}
	if err := w.addWorktrees(); err != nil {
		return nil, err
	}
	if err := w.build(); err != nil {
		return nil, err
	}
	if err := w.findSame(); err != nil {
		return nil, err
	}
	r, err := pipeline.Run(w.ctx, w.plan(), nil)
	if err != nil {
		return nil, err
	}
	r.GOMAXPROCS = p.GOMAXPROCS // the benchmarks', not benchy's own
	w.mergeLayouts(r)
	run := &GoTestRun{Result: r}
	if p.Compares() {
		// With nothing in common the run comes alone: its samples are
		// still worth writing.
		run.Comparison, err = w.compareSides(r)
		return run, err
	}
	if err := w.count(r); err != nil {
		return nil, err
	}
	if r.Layouts != nil {
		r.Layouts.Benchmarks = layout.Spreads(nil, r, nil, r.Layouts)
	}
	return run, nil
}

// ErrSameProgram is a comparison whose two sides run the same program,
// not measured (GoTestPlan.SkipSame).
var ErrSameProgram = errors.New("both sides run the same program")

// findSame finds the packages whose old and new test binaries run the
// same program (samePrograms) and says so: their benchmarks are measured,
// and no change is claimed of them (compareSides). When every package
// does and the plan skips the same program, the error is ErrSameProgram.
func (w *gotestWork) findSame() error {
	all := false
	w.same, all = w.samePrograms()
	switch {
	case all && w.p.SkipSame:
		return ErrSameProgram
	case all:
		fmt.Fprintln(w.p.Notes, "benchy: old and new run the same program (only comments, line numbers or file paths differ): a difference measured below is the machine's, and none is claimed")
	case len(w.same) > 0:
		fmt.Fprintf(w.p.Notes, "benchy: old and new run the same program in %s (only comments, line numbers or file paths differ): no change is claimed of its benchmarks\n", strings.Join(w.same, ", "))
	}
	return nil
}

// samePrograms returns the import paths of the packages whose old and new
// test binaries run the same program (gotest.Binary.Program), and whether
// every package of both sides does. None without Against, with layouts
// (each side is linked several ways on purpose), or where a binary cannot
// be read.
func (w *gotestWork) samePrograms() (pkgs []string, all bool) {
	if !w.p.Compares() || len(w.olds) != 1 || len(w.curs) != 1 {
		return nil, false
	}
	olds, news := w.olds[0].bins, w.curs[0].bins
	for _, n := range news {
		i := slices.IndexFunc(olds, func(o *gotest.Binary) bool { return o.Package.ImportPath == n.Package.ImportPath })
		if i < 0 {
			continue
		}
		op, err := olds[i].Program()
		if err != nil {
			continue
		}
		if np, err := n.Program(); err == nil && np == op {
			pkgs = append(pkgs, n.Package.ImportPath)
		}
	}
	return pkgs, len(pkgs) == len(news) && len(pkgs) == len(olds)
}

// sameNames are the names of the benchmarks calibrated on the new side
// whose package runs the same program on both sides (w.same).
func (w *gotestWork) sameNames() []string {
	var names []string
	for _, t := range w.calibrated[1] {
		if slices.Contains(w.same, t.Bin.Package.ImportPath) {
			names = append(names, t.Display)
		}
	}
	return names
}

// gotestWork is a gotest plan under way: the commands it started, its
// temporary directory and worktrees, the builds of each side, and what
// the run's Prepare calibrates with and leaves for after the run.
type gotestWork struct {
	// ctx is GoTest's: the work is a long-lived runner whose steps
	// (Prepare among them, called by the pipeline) all stop with it.
	ctx     context.Context
	p       GoTestPlan
	ch      *gotest.Children
	ws      *workspace
	wt, nwt *gotest.Worktree // the old side's, the new side's with New

	seeds      []int64 // one per layout, none without Layouts
	curs, olds []*side // each side's builds, one per layout; olds with Against only
	processes  int     // of each layout
	group      int     // targets of one benchmark in a round: its sides
	topts      gotest.Options
	counted    []pipeline.Countable // every benchmark calibrated, for pipeline.Count
	only       []string             // benchmarks of one side only, with Against
	// same are the packages whose two sides run the same program
	// (samePrograms), with Against.
	same []string
	// calibrated are the old side's benchmarks and the new side's, with
	// Against, as calibrated on topts.CPU (each pair at the new side's N).
	calibrated [2][]*gotest.Target
}

// startGoTest makes what every step uses: the commands' group, whose Kill
// OnExit is given first (at a second signal nothing writes any more in
// what is removed next), and the temporary directory every build goes
// into.
func startGoTest(ctx context.Context, p GoTestPlan) (*gotestWork, error) {
	ch := gotest.NewChildren(ctx)
	if p.OnExit != nil {
		p.OnExit(ch.Kill) // first: nothing writes any more in what is removed next
	}
	wd, err := gotest.NewWorkDir()
	if err != nil {
		return nil, err
	}
	return &gotestWork{ctx: ctx, p: p, ch: ch, ws: &workspace{dir: wd, notes: p.Notes}}, nil
}

// openWindow opens the busy window before the builds: it runs while the
// binaries build, with the builds' CPU time taken out of it, where benchy
// can count it (openWindowDuringBuild). A --cpu that cannot be used is
// refused first, before anything is built. done closes it on the way out.
func (w *gotestWork) openWindow() (done func(), err error) {
	if err := pipeline.CheckCPU(w.p.Plan); err != nil {
		return nil, err
	}
	w.p.Plan.Opened, w.p.Plan.Own, done = openWindowDuringBuild()
	return done, nil
}

// addWorktrees checks out the revisions of Against, and of New when
// given, each in a temporary worktree, so that the user's tree is only
// read; first it removes the worktrees an earlier benchy killed before
// its cleaning left behind. Nothing without Against.
func (w *gotestWork) addWorktrees() error {
	p := w.p
	if !p.Compares() {
		return nil
	}
	stale, err := gotest.RemoveStaleWorktrees(w.ch, p.Dir)
	if len(stale) > 0 {
		fmt.Fprintf(p.Notes, "benchy: removed %s that an earlier benchy gotest --against left behind when it was killed: %s\n",
			units.Count(len(stale), "worktree"), strings.Join(stale, ", "))
	}
	if err != nil {
		return &StageError{"removing old worktrees", err}
	}
	if w.wt, err = gotest.AddWorktree(w.ch, p.Dir, p.Against, w.ws.dir.Worktree()); err != nil {
		return &StageError{"checking out " + p.Against, err}
	}
	w.ws.add(w.wt)
	if p.New == "" {
		return nil
	}
	if w.nwt, err = gotest.AddWorktree(w.ch, p.Dir, p.New, w.ws.dir.NewWorktree()); err != nil {
		return &StageError{"checking out " + p.New, err}
	}
	w.ws.add(w.nwt)
	return nil
}

// build builds the test binaries of the new side (the tree at Dir, or
// New's worktree), then of the old with Against: once each, or once per
// layout with Layouts, both sides linked with the same seeds, so that a
// layout is the same shuffle on either side.
func (w *gotestWork) build() error {
	p := w.p
	if p.Layouts > 0 {
		w.seeds = layout.Seeds(p.Layouts)
	}
	newDir := p.Dir
	if w.nwt != nil {
		newDir = w.nwt.Path()
	}
	curs, err := buildLayouts(p, w.ch, "new", newDir, filepath.Join(w.ws.dir.Path, "new"), w.seeds)
	if err != nil {
		if w.nwt != nil {
			return &StageError{"building the test binaries of " + p.New, fmt.Errorf("%s: %w", p.New, againstError(err, w.nwt))}
		}
		return &StageError{"building the test binaries", err}
	}
	w.curs = curs
	if !p.Compares() {
		return nil
	}
	if w.nwt != nil {
		fmt.Fprintf(p.Notes, "benchy: old is %s, new is %s, each built in a temporary worktree\n", w.wt.Short(), w.nwt.Short())
	} else {
		fmt.Fprintf(p.Notes, "benchy: old is %s (%s), built in a temporary worktree; new is your tree as it is\n", w.wt.Rev, w.wt.Short())
	}
	if w.olds, err = buildLayouts(p, w.ch, "old", w.wt.Path(), filepath.Join(w.ws.dir.Path, "old"), w.seeds); err != nil {
		return &StageError{"building the test binaries of " + p.Against, fmt.Errorf("%s: %w", p.Against, againstError(err, w.wt))}
	}
	return nil
}

// plan is the run of the builds: Samples the total over Processes, each
// process (of every layout, with Layouts) taking its share; a group of
// targets is a benchmark's sides and all their layouts, measured
// interleaved; and Prepare calibrates on the CPU the run chose.
func (w *gotestWork) plan() pipeline.Plan {
	p := w.p
	w.processes = p.Processes
	if p.Layouts > 0 {
		w.processes = layoutProcesses(p.Processes, p.Layouts)
	}
	plan := p.Plan
	if plan.Notes == nil {
		plan.Notes = p.Notes
	}
	perProcess := (plan.Settings.Samples + p.Processes - 1) / p.Processes
	plan.Settings.Samples = perProcess * w.processes
	cur := w.curs[0]
	plan.Package = strings.Join(cur.importPaths(), " ")
	w.topts = gotest.Options{BenchText: p.Bench, SampleTime: p.SampleTime,
		PerProcess: perProcess, GOMAXPROCS: p.GOMAXPROCS, ParallelGOMAXPROCS: p.ParallelGOMAXPROCS,
		Packages: cur.importPaths(), Shard: p.Shard}
	w.group = 1
	if p.Compares() {
		w.topts.Packages = append(w.topts.Packages, w.olds[0].importPaths()...) // one name for a package on both sides
		w.group = 2                                                             // each benchmark's old and new, interleaved
	}
	plan.Group = w.group * max(1, p.Layouts) // and all their layouts
	w.topts.Profile = p.Profile
	plan.Prepare = w.prepare
	return plan
}

// prepare is the run's Prepare: the benchmarks calibrated on cpu (and
// paired, with Against), then with Layouts each group made the group of
// all its layouts, which run at the N of the first.
func (w *gotestWork) prepare(ctx context.Context, cpu int) ([]pipeline.Target, error) {
	ts, err := w.calibrateSides(ctx, cpu)
	if err != nil || w.p.Layouts == 0 {
		return ts, err
	}
	sides := [][]*side{w.curs}
	if w.p.Compares() {
		sides = [][]*side{w.olds, w.curs}
	}
	return withLayouts(ts, w.group, sides)
}

// calibrateSides calibrates every benchmark of the new side on cpu, each
// kept for Count, and with Against those of the old side, paired with
// them.
func (w *gotestWork) calibrateSides(ctx context.Context, cpu int) ([]pipeline.Target, error) {
	w.topts.CPU = cpu
	news, err := calibrate(ctx, w.curs[0], w.topts)
	for _, t := range news {
		w.counted = append(w.counted, t)
	}
	if err != nil || !w.p.Compares() {
		return targetsOf(news), err
	}
	olds, err := calibrate(ctx, w.olds[0], w.topts)
	if err != nil {
		return nil, err
	}
	w.calibrated = [2][]*gotest.Target{olds, news}
	return w.pair(olds, news)
}

// pair pairs the sides' benchmarks (pairSides) and keeps those of one
// side only, to be said after the run; none in both is a usage error.
func (w *gotestWork) pair(olds, news []*gotest.Target) ([]pipeline.Target, error) {
	var ts []pipeline.Target
	ts, w.only = pairSides(olds, news)
	if len(ts) == 0 {
		return nil, pipeline.Usagef("no benchmark matching --bench %q is in both %s and your tree", w.p.Bench, w.p.Against)
	}
	return ts, nil
}

// mergeLayouts makes each benchmark's layouts one experiment again, the
// process of any layout the unit, and records the seeds and processes
// the layouts ran: the result reads as a run of one build per side.
// Nothing without Layouts.
func (w *gotestWork) mergeLayouts(r *result.Result) {
	if w.p.Layouts == 0 {
		return
	}
	mergeLayouts(r, w.p.Layouts, w.processes)
	r.Layouts = &result.Layouts{Seeds: w.seeds, Processes: w.processes}
}

// count counts the instructions of every benchmark calibrated (Count),
// after its time, while its binary is still there. A stop during the
// counting marks the run interrupted: what it measured is still written.
func (w *gotestWork) count(r *result.Result) error {
	if w.p.Count == nil {
		return nil
	}
	err := pipeline.Count(w.ctx, r, w.counted, *w.p.Count)
	if errors.Is(err, context.Canceled) {
		r.Interrupted = true
		return nil
	}
	return err
}

// compareSides compares the two sides of the interleaved run r as benchy
// compare compares two files, after saying which benchmarks were of one
// side only: the profiles' differences, the changes claimed held against
// what the layouts alone move, and the document. With nothing in common
// the error is compare.ErrNothingInCommon, without a document.
func (w *gotestWork) compareSides(r *result.Result) (*compare.Document, error) {
	for _, name := range w.only {
		fmt.Fprintf(w.p.Notes, "benchy: %s: not compared\n", name)
	}
	oldRun, newRun := splitSides(r)
	r.ProfileDiffs = profileDiffs(oldRun, newRun, w.topts.Profile)
	files, err := compare.Against(oldRun, newRun, w.p.Threshold)
	if err != nil {
		return nil, err
	}
	files.SameProgram(w.sameNames())
	judgeLayouts(r, oldRun, newRun, &files)
	return w.document(r, oldRun, newRun, files), nil
}

// document is the comparison every format writes: the sides named by what
// each measured (sideName), the gate at FailOnRegression (none without
// it), and what the run adds to a comparison of files (the profiles'
// differences, the layouts).
func (w *gotestWork) document(r, oldRun, newRun *result.Result, files compare.Files) *compare.Document {
	fail := -1.0 // no gate
	if w.p.FailOnRegression != nil {
		fail = *w.p.FailOnRegression
	}
	oldRuns, newRuns := []*result.Result{oldRun}, []*result.Result{newRun}
	d := compare.NewDocument(w.p.Plan.Tool, compare.FileSides([]string{sideName(w.wt)}, oldRuns),
		compare.FileSides([]string{sideName(w.nwt)}, newRuns), oldRuns, newRuns, files, fail)
	d.ProfileDiffs, d.Layouts = r.ProfileDiffs, r.Layouts
	return &d
}

// sideName names what a side of --against measured: the revision as
// given and its commit, or, without a worktree (no --new), "working tree",
// the user's tree as it is.
func sideName(wt *gotest.Worktree) string {
	if wt == nil {
		return "working tree"
	}
	return fmt.Sprintf("%s (%s)", wt.Rev, wt.Short())
}

// side is one revision's test binaries, in one layout with Layouts.
type side struct {
	label string // "old" or "new"
	bins  []*gotest.Binary
}

func (s *side) importPaths() []string {
	var out []string
	for _, b := range s.bins {
		out = append(out, b.Package.ImportPath)
	}
	return out
}

// buildSide resolves the packages in dir and builds their test binaries
// into out with buildFlags; a package with test files but no benchmark is
// skipped when others have some.
func buildSide(p GoTestPlan, ch *gotest.Children, dir, out string, buildFlags []string) (*side, error) {
	pkgs, err := gotest.List(ch, dir, p.Packages, buildFlags)
	if err != nil {
		return nil, err
	}
	s := &side{}
	var none error
	for _, pkg := range pkgs {
		b, err := gotest.BuildWith(ch, pkg, out, buildFlags, gotest.BuildOptions{Profile: p.Profile != nil})
		var ue *gotest.UsageError
		if errors.As(err, &ue) && len(pkgs) > 1 {
			none = err
			continue
		}
		if err != nil {
			return nil, err
		}
		s.bins = append(s.bins, b)
	}
	if len(s.bins) == 0 {
		return nil, none
	}
	return s, nil
}

// againstError adds to a build error of the old side the submodules the
// worktree lacks: a build that needs them fails there for that reason.
func againstError(err error, wt *gotest.Worktree) error {
	var be *gotest.BuildError
	if len(wt.Missing) == 0 || !errors.As(err, &be) {
		return err
	}
	be.Hint = fmt.Sprintf("submodules not checked out in the worktree of %s: %s; benchy checks them out from your own clones (git submodule update --init in your tree; git -C PATH fetch for a commit a clone lacks)",
		wt.Rev, strings.Join(wt.Missing, ", "))
	return err
}

// calibrate calibrates every benchmark of a side; none matching is a
// usage error.
func calibrate(ctx context.Context, s *side, o gotest.Options) ([]*gotest.Target, error) {
	var ts []*gotest.Target
	for _, b := range s.bins {
		t, err := gotest.Calibrate(ctx, b, o)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t...)
	}
	if len(ts) == 0 && o.Shard.N > 1 {
		for _, b := range s.bins {
			if tops, err := gotest.Matching(ctx, b, o); err == nil && len(tops) > 0 {
				return nil, fmt.Errorf("%w: none of the benchmarks that --bench %q matches falls in shard %s", ErrEmptyShard, o.BenchText, o.Shard)
			}
		}
	}
	if len(ts) == 0 {
		return nil, pipeline.Usagef("no benchmark in %s matches --bench %q", strings.Join(s.importPaths(), " "), o.BenchText)
	}
	return ts, nil
}

// ErrEmptyShard says that --shard I/N holds none of the benchmarks
// --bench matches: in a CI matrix of more jobs than a small suite has
// benchmarks, a job with nothing to measure, not a mistake.
var ErrEmptyShard = errors.New("nothing to measure")

func targetsOf(ts []*gotest.Target) []pipeline.Target {
	out := make([]pipeline.Target, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

// pairSides matches the benchmarks of the two sides by name, old first in
// each pair, both at new's N (one N for both, so both time the same work
// per sample) and each told its side; it returns what it could not match,
// one line each.
func pairSides(olds, news []*gotest.Target) ([]pipeline.Target, []string) {
	byName := map[string]*gotest.Target{}
	for _, t := range olds {
		byName[t.Display] = t
	}
	inNew := map[string]bool{}
	for _, n := range news {
		inNew[n.Display] = true
	}
	var ts []pipeline.Target
	var only []string
	for _, t := range olds {
		if !inNew[t.Display] {
			only = append(only, t.Display+" is only in the old revision")
		}
	}
	for _, n := range news {
		o, ok := byName[n.Display]
		if !ok {
			only = append(only, n.Display+" is new (not in the old revision)")
			continue
		}
		o.N = n.N
		o.Side, n.Side = result.SideOld, result.SideNew
		ts = append(ts, o, n)
	}
	return ts, only
}

// splitSides makes the result of an interleaved --against run into the
// two results benchy compare would read (splitBySide).
func splitSides(r *result.Result) (old, cur *result.Result) {
	rs := splitBySide(r, result.SideOld, result.SideNew)
	return rs[0], rs[1]
}

// splitBySide makes an interleaved run of several builds into one result
// per side of sides, in that order: the same run, each with its side's
// experiments, as a run of one build (no side), which is what a
// comparison reads. An experiment of no side in sides belongs to none.
func splitBySide(r *result.Result, sides ...string) []*result.Result {
	out := make([]*result.Result, len(sides))
	for k := range sides {
		x := *r
		x.Experiments = nil
		out[k] = &x
	}
	for _, e := range r.Experiments {
		if k := slices.Index(sides, e.Side); k >= 0 {
			e.Side = ""
			out[k].Experiments = append(out[k].Experiments, e)
		}
	}
	return out
}

// program is what the side's test binaries run (gotest.Binary.Program),
// each under its package's import path.
func (s *side) program() (string, error) {
	var b strings.Builder
	for _, bin := range s.bins {
		p, err := bin.Program()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s %s\n", bin.Package.ImportPath, p)
	}
	return b.String(), nil
}
