package pipeline

import (
	"errors"
	"fmt"
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
func Confirm(p ConfirmPlan) ([]Confirmation, error) {
	var out []Confirmation
	for _, st := range p.Steps {
		c, err := confirmStep(p, st)
		if err != nil {
			return out, err
		}
		if p.Bisect && c.Outcome == Confirmed {
			err = bisectStep(p, &c) // a stop: the step and what its walk measured are kept
		}
		out = append(out, c)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// stepPlan is p's plan for measuring the benchmark of st.
func stepPlan(p ConfirmPlan, st ConfirmStep) GoTestPlan {
	g := p.GoTest
	g.Packages, g.Bench = []string{st.Package}, gotest.BenchRegexp(st.Bench)
	g.Plan.Settings.Bench = g.Bench
	return g
}

// bisectStep walks the commits of c's confirmed step, Before (GOOD) to
// After (BAD), with bisect's machinery, to the commit that made it. Its
// error is a stop only: what ended the walk otherwise is c.BisectWhy.
func bisectStep(p ConfirmPlan, c *Confirmation) error {
	st := c.Step
	fmt.Fprintf(p.GoTest.Notes, "benchy: bisecting %s between %s and %s\n", st.Name, history.Short(st.Before), history.Short(st.After))
	rep, err := Bisect(BisectPlan{GoTest: stepPlan(p, st), Good: st.Before, Bad: st.After, Threshold: p.Threshold, Retries: p.Retries})
	c.Bisection = rep
	switch {
	case errors.Is(err, ErrStopped):
		return err
	case err != nil:
		c.BisectWhy = stepError(err)
	}
	return nil
}

func confirmStep(p ConfirmPlan, st ConfirmStep) (Confirmation, error) {
	c := Confirmation{Step: st, Outcome: NotJudged}
	g := stepPlan(p, st)
	g.Against, g.New, g.Threshold = st.Before, st.After, p.Threshold
	fmt.Fprintf(g.Notes, "benchy: measuring %s at %s and at %s, interleaved\n", st.Name, history.Short(st.Before), history.Short(st.After))
	run, err := GoTest(g)
	if stopped(g.Plan.Stop) || errors.Is(err, gotest.ErrStopped) {
		return c, ErrStopped
	}
	if run != nil && run.Result.Interrupted {
		return c, ErrStopped
	}
	if errors.Is(err, compare.ErrNothingInCommon) {
		c.Why = "nothing was measured at both commits"
		return c, nil
	}
	if err != nil {
		c.Why = stepError(err)
		return c, nil
	}
	files := run.Comparison.Files
	for i := range files.Rows {
		if files.Rows[i].Name == st.Name || len(files.Rows) == 1 {
			c.Row = &files.Rows[i]
			break
		}
	}
	if c.Row == nil {
		c.Why = st.Name + " was not measured at both commits"
		return c, nil
	}
	c.Outcome, c.Why = outcome(*c.Row)
	return c, nil
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

func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
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
