package history

import (
	"fmt"
	"math"

	"github.com/benchy-dev/benchy/internal/changepoint"
	"github.com/benchy-dev/benchy/internal/stats"
)

// MinPoints is the fewest commits a series needs to be judged: a step
// needs a level of changepoint.MinSegment commits on either side.
const MinPoints = 2 * changepoint.MinSegment

// Penalty is the cost of a step in the search over a series of n
// commits: 4·log(n). Barrett et al.'s 15·log(n), which the run-order
// series use, is for many noisy samples of one run; a commit's value is
// the median of a whole run, and the simulation of docs/history.md shows
// that 15·log(n) misses most 5% steps at 3% run-to-run noise while
// 4·log(n) finds them with as few false alerts as the spike filter
// leaves (below one in ten histories of 200 commits).
func Penalty(n int) float64 {
	if n < 2 {
		return 0
	}
	return 4 * math.Log(float64(n))
}

// Step is a change of level in a series: At is the index of the first
// commit at the new level; Before and After the medians of the commits
// of the levels on either side.
type Step struct {
	At     int     `json:"at"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

// Change is the step's relative change, After/Before - 1: positive when
// slower.
func (s Step) Change() float64 { return s.After/s.Before - 1 }

// Steps finds the changes of level in per-commit values xs by PELT
// (changepoint.DetectWeighted: a normal model of the log values, each
// weighted by ws, a spike filter first, so one slow run is not a step)
// with the given penalty, and gives each with the medians of the levels
// either side. ws nil weighs every commit alike. Fewer than MinPoints
// values have no steps.
func Steps(xs, ws []float64, penalty float64) []Step {
	cps := changepoint.Detect(xs, penalty)
	if ws != nil {
		cps = changepoint.DetectWeighted(xs, ws, penalty)
	}
	bounds := append(append([]int{0}, cps...), len(xs))
	var out []Step
	for i, c := range cps {
		before := stats.Median(xs[bounds[i]:c])
		after := stats.Median(xs[c:bounds[i+2]])
		out = append(out, Step{At: c, Before: before, After: after})
	}
	return out
}

// Judgement is what `history check` says of one series.
type Judgement struct {
	Series Series
	// Judged is false when the series has fewer than MinPoints commits.
	Judged bool
	Steps  []Step
	// Regressions are the steps slower by more than the threshold whose
	// level still holds: the newest commit is still more than the
	// threshold slower than the level before the step. A step undone
	// later is not a regression of the code as it is.
	Regressions []Step
}

// Judge finds the steps of s and the regressions among them.
func Judge(s Series, threshold float64) Judgement {
	j := Judgement{Series: s, Judged: len(s.Commits) >= MinPoints}
	if !j.Judged {
		return j
	}
	xs := s.Values()
	j.Steps = Steps(xs, Weights(s.SEs(), xs), Penalty(len(xs)))
	if len(j.Steps) == 0 {
		return j
	}
	last := j.Steps[len(j.Steps)-1].After
	for _, st := range j.Steps {
		if st.Change() > threshold && last > st.Before*(1+threshold) {
			j.Regressions = append(j.Regressions, st)
		}
	}
	return j
}

// Range names the commits either side of step st of s: the last at the
// old level and the first at the new one, as git writes a range.
func (s Series) Range(st Step) string {
	return fmt.Sprintf("%s..%s", Short(s.Commits[st.At-1].Source.Commit), Short(s.Commits[st.At].Source.Commit))
}

// Weights are the weights of commits whose log values have the standard
// errors ses (0 where unknown) in the step search: the inverse of each
// commit's variance, the run-to-run noise of the series plus what its own
// interval says beyond the typical commit's, as asv weighs each commit by
// its interval. The run-to-run noise, which a commit's own interval does
// not show when it had one run, is estimated from the series (the
// median absolute difference of successive values), and so already holds
// the typical commit's own spread: only the excess over the median
// standard error is added. A commit measured badly, with an interval ten
// times the others', then counts for a fraction; commits alike weigh
// alike, as without weights.
func Weights(ses []float64, xs []float64) []float64 {
	if len(xs) < 2 || len(ses) != len(xs) {
		return nil
	}
	d := make([]float64, len(xs)-1)
	for i := range d {
		d[i] = math.Abs(math.Log(xs[i+1] / xs[i]))
	}
	noise := stats.Median(d) / (0.6745 * math.Sqrt2) // |x-y| of normal noise has median 0.6745·√2·σ
	noise = max(noise, weightFloor)
	sq := make([]float64, len(ses))
	for i, se := range ses {
		sq[i] = se * se
	}
	typical := stats.Median(sq)
	ws := make([]float64, len(ses))
	for i := range ses {
		ws[i] = 1 / (noise*noise + max(sq[i]-typical, 0))
	}
	return ws
}

// weightFloor is the least run-to-run noise Weights assumes (0.1%, the
// changepoint search's floor): without it a series of equal values would
// weigh a commit with any interval at next to nothing.
const weightFloor = 1e-3
