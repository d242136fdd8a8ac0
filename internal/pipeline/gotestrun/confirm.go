package gotestrun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

// ConfirmPlan is what `benchy history check --confirm` measures: each
// step a history found, measured again by building the commits either
// side of it and running them interleaved, as gotest --against does. A
// history compares numbers measured apart, on other days and machines'
// moods; the interleaved run compares the two commits under the same
// conditions, so only what it confirms is a regression.
type ConfirmPlan struct {
	// GoTest is how each step is measured: its Plan, Dir (a directory
	// of the repository the results came from, where the packages
	// resolve), Processes, SampleTime, GOMAXPROCS, Notes and OnExit.
	// Packages, Bench, Against and New are set for each step.
	GoTest GoTestPlan
	// Threshold is the history's: a step is confirmed when the
	// interleaved run finds After slower than Before with its whole
	// interval beyond Threshold (the verdict "slower" at that threshold).
	Threshold float64
	Steps     []ConfirmStep
	// Bisect, when set, walks each confirmed step's commits to the one
	// that made it (history check --confirm --bisect), measuring an
	// undecided commit up to Retries times more.
	Bisect  bool
	Retries int
}

// ConfirmStep is one step to measure again: the benchmark Name (the
// experiment's name; Bench is testing's, "BenchmarkX/sub") of the test
// package Package, at the commit before the step and the first after it.
type ConfirmStep struct {
	Package, Bench, Name string
	Before, After        string
}

// What the interleaved run made of a step.
const (
	Confirmed    = "confirmed"       // After is slower, beyond the threshold
	NotConfirmed = "not confirmed"   // judged: no slowdown beyond the threshold
	NotJudged    = "could not judge" // not built, not measured, or the run could not tell
)

// Confirmation is the outcome of one step. Row is the interleaved
// comparison of After (new) with Before (old) when both were measured;
// Why says what kept a step NotJudged, or why it is not confirmed.
type Confirmation struct {
	Step    ConfirmStep
	Outcome string
	Row     *compare.Row
	Why     string
	// Bisection is the walk of a confirmed step's commits (--bisect),
	// nil when none was made; BisectWhy is why it ended without a report
	// or early (bad input, a commit that could not be measured).
	Bisection *bisect.Report
	BisectWhy string
}

// Confirm measures every step of p in turn. A step that cannot be built
// or measured is NotJudged with why, and the next is measured; an error
// is returned only when the run was stopped (a signal), with the steps
// done so far.
func Confirm(ctx context.Context, p ConfirmPlan) ([]Confirmation, error) {
	var out []Confirmation
	for _, st := range p.Steps {
		c, err := confirmAndWalk(ctx, p, st)
		if c != nil {
			out = append(out, *c)
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// confirmAndWalk confirms st and, with Bisect, walks it when confirmed,
// handing the walk what the confirmation built and measured; those
// builds are removed after the walk. A stop during the confirmation
// gives no Confirmation; one during the walk gives the step with what
// its walk measured.
func confirmAndWalk(ctx context.Context, p ConfirmPlan, st ConfirmStep) (*Confirmation, error) {
	c, pair, err := confirmStep(ctx, p, st)
	if pair != nil {
		defer pair.w.ws.clean()
	}
	if err != nil {
		return nil, err
	}
	if p.Bisect && c.Outcome == Confirmed {
		err = bisectStep(ctx, p, &c, pair)
	}
	return &c, err
}

// stepPlan is p's plan for measuring the benchmark of st.
func stepPlan(p ConfirmPlan, st ConfirmStep) GoTestPlan {
	g := p.GoTest
	g.Packages, g.Bench = []string{st.Package}, gotest.BenchRegexp(st.Bench)
	g.Plan.Settings.Bench = g.Bench
	return g
}

// bisectStep walks the commits of c's confirmed step, Before (GOOD) to
// After (BAD), with bisect's machinery, to the commit that made it,
// taking over the confirmation's pair. Its error is a stop only: what
// ended the walk otherwise is c.BisectWhy.
func bisectStep(ctx context.Context, p ConfirmPlan, c *Confirmation, pair *pairRun) error {
	st := c.Step
	fmt.Fprintf(p.GoTest.Notes, "benchy: bisecting %s between %s and %s\n", st.Name, history.Short(st.Before), history.Short(st.After))
	rep, err := bisectFrom(ctx, BisectPlan{GoTest: stepPlan(p, st), Good: st.Before, Bad: st.After, Threshold: p.Threshold, Retries: p.Retries}, pair)
	c.Bisection = rep
	switch {
	case errors.Is(err, context.Canceled):
		return err
	case err != nil:
		c.BisectWhy = stepError(err)
	}
	return nil
}

// confirmStep measures st's two commits interleaved, as gotest --against
// does, and judges the step. The pair it returns, when not nil, holds the
// builds it made, for the caller to clean.
func confirmStep(ctx context.Context, p ConfirmPlan, st ConfirmStep) (Confirmation, *pairRun, error) {
	c := Confirmation{Step: st, Outcome: NotJudged}
	g := stepPlan(p, st)
	g.Against, g.New, g.Threshold, g.SkipSame = st.Before, st.After, p.Threshold, true
	fmt.Fprintf(g.Notes, "benchy: measuring %s at %s and at %s, interleaved\n", st.Name, history.Short(st.Before), history.Short(st.After))
	w, err := startGoTest(ctx, g)
	if err != nil {
		c.Why = stepError(err)
		return c, nil, nil
	}
	pair := &pairRun{w: w}
	run, err := w.run()
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || run != nil && run.Result.Interrupted {
		return c, pair, context.Canceled
	}
	if errors.Is(err, compare.ErrNothingInCommon) {
		c.Why = "nothing was measured at both commits"
		return c, pair, nil
	}
	if errors.Is(err, ErrSameProgram) {
		// No measurement could tell them apart: the step the history
		// found was the machine's.
		c.Outcome, c.Why = NotConfirmed, "the two commits run the same program (only comments, line numbers or file paths differ)"
		return c, pair, nil
	}
	if err != nil {
		c.Why = stepError(err)
		return c, pair, nil
	}
	pair.run = run.Result
	files := run.Comparison.Files
	for i := range files.Rows {
		if files.Rows[i].Name == st.Name || len(files.Rows) == 1 {
			c.Row = &files.Rows[i]
			break
		}
	}
	if c.Row == nil {
		c.Why = st.Name + " was not measured at both commits"
		return c, pair, nil
	}
	c.Outcome, c.Why = outcome(*c.Row)
	return c, pair, nil
}

// pairRun is a confirmation's measurement of a step: what it built and
// calibrated (w, whose temporary directory and worktrees are kept until
// cleaned) and its interleaved run of Before and After, when it made one.
type pairRun struct {
	w   *gotestWork
	run *result.Result
}

// takeOver makes the confirmation pair the start of b's walk, where it is
// what the walk would have done: GOOD and BAD built once (the
// confirmation's binaries), calibrated once (its targets, at its N: the
// walk runs each step at GOOD's N, here After's, which the confirmation
// gave both sides), and measured once (its run is the first step's
// reading of BAD against GOOD, pooled with BAD's later readings as the
// walk pools them). The benchmark, --samples, --processes and
// --sample-time are the same by construction: both plans are stepPlan's.
// The CPU need not be: a later step on another CPU calibrates GOOD and
// BAD again, as the walk does whenever its CPU changes, and each step's
// ratio is of its own rounds on one CPU.
//
// Nothing is taken when the shapes differ, and the walk builds and
// measures the pair itself: when the commits are not the walk's GOOD and
// BAD; with Layouts, where the confirmation linked each side several
// times and the walk links once; with Profile, where its targets profile
// every call and the walk's do not; and when the confirmation measured
// nothing it could judge.
func (b *bisectRun) takeOver(pair *pairRun) {
	if pair == nil || pair.run == nil {
		return
	}
	w := pair.w
	bad := b.commits[len(b.commits)-1]
	if w.wt.Commit != b.good.Hash || w.nwt == nil || w.nwt.Commit != bad.Hash || w.p.Layouts > 0 || w.p.Profile != nil {
		return
	}
	cal := w.calibrated
	if _, err := b.match([][]*gotest.Target{fresh(cal[0]), fresh(cal[1])}, nil); err != nil {
		return // the confirmation would not have judged the step
	}
	b.builds[b.good.Hash] = built{side: w.olds[0]}
	b.builds[bad.Hash] = built{side: w.curs[0]}
	b.calibrated, b.calCPU = cal, w.topts.CPU
	b.reading = asGoodAndBad(pair.run)
}

// asGoodAndBad is the confirmation's run r as a step of the walk reads
// it: the old side's experiments GOOD's, the new side's BAD's.
func asGoodAndBad(r *result.Result) *result.Result {
	x := *r
	x.Experiments = slices.Clone(r.Experiments)
	for k := range x.Experiments {
		e := &x.Experiments[k]
		switch e.Side {
		case result.SideOld:
			e.Side = result.SideGood
		case result.SideNew:
			e.Side = result.SideBad
		}
	}
	return &x
}

// stepError is one line of why a step (of bisect or history check
// --confirm) could not be built or measured: for a build error, the
// compiler's first message (nothing else prints them).
func stepError(err error) string {
	var be *gotest.BuildError
	if errors.As(err, &be) {
		for _, l := range strings.Split(be.Output, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				return be.Package + " does not build: " + l
			}
		}
		return be.Package + " does not build"
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	var se *StageError
	if errors.As(err, &se) {
		return se.Doing + ": " + msg
	}
	return msg
}

// outcome is what the interleaved comparison r says of a suspected step:
// Confirmed when it claims the slowdown; NotConfirmed only when its
// interval rules out a slowdown beyond the threshold; otherwise NotJudged
// with why (an interval that reaches past the threshold, though nothing
// was claimed, does not let the step pass).
func outcome(r compare.Row) (string, string) {
	switch {
	case r.Verdict == result.Slower:
		return Confirmed, ""
	case r.Judged() && r.CIHigh-1 <= r.Threshold:
		return NotConfirmed, r.Reason
	case r.Judged():
		why := "the interval reaches beyond the threshold: a slowdown that large is not ruled out"
		if r.Reason != "" {
			why = r.Reason + "; " + why
		}
		return NotJudged, why
	}
	why := r.Verdict
	if r.Reason != "" {
		why += ": " + r.Reason
	}
	return NotJudged, why
}
