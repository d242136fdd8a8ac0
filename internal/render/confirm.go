package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// What the interleaved run made of a step the history suspected
// (ConfirmedStep.Outcome).
const (
	StepConfirmed     = "confirmed, slower"
	StepNotConfirmed  = "not confirmed"
	StepNotJudged     = "could not judge"
	StepCannotConfirm = "cannot confirm" // a step of a run, not of go test: nothing to measure again
)

// A ConfirmedStep is a step of a history's series measured again by
// `benchy history check --confirm`: the history's figures, what the
// interleaved run of the two commits said (Row, when it ran), why it could
// not, and the bisection of a confirmed step.
type ConfirmedStep struct {
	Series    history.Series
	Step      history.Step
	Outcome   string
	Why       string
	Row       *compare.Row
	Bisection *bisect.Report
	BisectWhy string
}

// WriteConfirmed writes each step: its outcome, the history's figure, the
// interleaved run's figure with its interval (or why there is none), and
// its bisection, indented under it.
func WriteConfirmed(w io.Writer, steps []ConfirmedStep) {
	for _, x := range steps {
		ser, st := x.Series, x.Step
		fmt.Fprintf(w, "%s on %s: %s\n", ser.Benchmark, ser.Machine, x.Outcome)
		fmt.Fprintf(w, "  history      %s (%s to %s, %s)\n", units.Change(st.Change())+" at "+ser.Range(st),
			HistoryValue(st.Before, ser.Unit), HistoryValue(st.After, ser.Unit), ser.Basis)
		switch {
		case x.Row != nil:
			fmt.Fprintf(w, "  interleaved  %s\n", interleavedFigure(*x.Row))
			if x.Row.Reason != "" && x.Row.Verdict != result.Slower {
				fmt.Fprintf(w, "  why          %s\n", x.Row.Reason)
			}
		case x.Why != "":
			fmt.Fprintf(w, "  why          %s\n", x.Why)
		}
		if x.Bisection != nil {
			var b strings.Builder
			WriteBisect(&b, x.Bisection, "text")
			fmt.Fprintln(w, "  bisect")
			for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
				fmt.Fprintln(w, strings.TrimRight("    "+l, " "))
			}
		}
		if x.BisectWhy != "" {
			fmt.Fprintf(w, "  bisect       %s\n", x.BisectWhy)
		}
	}
}

// interleavedFigure is the ratio of the interleaved run with its interval
// and verdict: "+198.0% (95% CI +190.1% to +205.2%): slower".
func interleavedFigure(r compare.Row) string {
	v := r.Verdict
	if !(r.Ratio > 0) {
		return v
	}
	return fmt.Sprintf("%s (%s CI %s to %s): %s", units.Change(r.Ratio-1), units.Level(r.Level),
		units.Change(r.CILow-1), units.Change(r.CIHigh-1), v)
}

// WriteRegressions writes each step of j slower than its threshold, a
// line each: "Work on m1: +12.0%, 1.00 µs to 1.12 µs (time), between
// 3f2a1b0c9d8e..4e5f6a7b8c9d".
func WriteRegressions(w io.Writer, j history.Judgement) {
	ser := j.Series
	for _, st := range j.Regressions {
		fmt.Fprintf(w, "%s on %s: %s, %s to %s (%s), between %s\n", ser.Benchmark, ser.Machine, units.Change(st.Change()),
			HistoryValue(st.Before, ser.Unit), HistoryValue(st.After, ser.Unit), ser.Basis, ser.Range(st))
	}
}
