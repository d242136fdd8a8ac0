package bisect

import (
	"fmt"
	"math"

	"github.com/benchy-dev/benchy/internal/units"
)

// Ratio is a commit's time over GOOD's, measured interleaved, with its
// interval at Level.
type Ratio struct {
	Value float64 `json:"ratio"`
	Low   float64 `json:"ci_low"`
	High  float64 `json:"ci_high"`
	Level float64 `json:"level"`
}

// Classify places a commit whose ratio to GOOD is mid on a side of the
// slowdown from GOOD to BAD, bad being BAD's ratio to GOOD: slow when the
// whole interval of mid lies beyond the midpoint of the two levels, fast
// when it lies below, undecided when it holds the midpoint. The midpoint
// is geometric (√bad), as a slowdown is a ratio: half of a 3x slowdown is
// 1.73x, and half of +3% is +1.49%. BAD's level is known only within its
// own interval, so the midpoint is too (√low to √high): mid must clear
// the whole of it. A midpoint read from BAD's value alone would call a
// commit at GOOD's level slow whenever BAD happened to read low, which is
// how a bisection names a wrong commit; BAD's interval narrows as the walk
// pools BAD's runs, and the band with it.
//
// Fast is at GOOD's level and slow at BAD's: a commit whose interval
// lies wholly beyond GOOD's level by more than threshold and wholly short
// of BAD's by more than threshold is Between, wherever the midpoint is (a
// slowdown in two steps, the first below the midpoint: +15% then +21%),
// so that the walk names both steps rather than the one that crosses the
// midpoint.
func Classify(mid, bad Ratio, threshold float64) Side {
	switch {
	case !(mid.Low > 0) || !(bad.Low > 0) || !(bad.High >= bad.Low):
		return Undecided
	case mid.Low > 1+threshold && mid.High*(1+threshold) < bad.Low:
		return Between
	case mid.Low > math.Sqrt(bad.High):
		return Slow
	case mid.High < math.Sqrt(bad.Low):
		return Fast
	}
	return Undecided
}

// Step is one measured commit of a walk: Commit's ratio to GOOD (Mid),
// and BAD's (Bad) over every round of the walk so far, this step's
// included (Mid is Bad for BAD itself), and the side they put it on. Why says what kept a commit
// skipped or undecided, or BAD unjudged. Attempts counts the measurements
// pooled.
type Step struct {
	Commit   int    `json:"commit"` // an index into the commits
	Mid      Ratio  `json:"ratio"`
	Bad      Ratio  `json:"bad_ratio"`
	Side     Side   `json:"side"`
	Why      string `json:"why,omitempty"`
	Attempts int    `json:"attempts"`
}

// A Measurer measures commit i of a walk interleaved with GOOD and BAD.
// attempt 0 is a first measurement; a later attempt measures more and
// returns the figures of all attempts pooled: the commit's over its own
// attempts, BAD's over every step of the walk (BAD's level does not
// change from step to step; the more rounds of it, the narrower the
// midpoint's band). It sets Side, with Why, to
//   - Skipped for a commit that cannot be measured: it does not build,
//     lacks the benchmark, or its runs cannot be compared (measuring
//     more would not change that); BAD so is not judged;
//   - Undecided for one whose comparison came out inconclusive (a busy
//     machine): measured again, as a commit whose interval holds the
//     midpoint is;
//   - for BAD itself, Slow, Fast, or Undecided when its interval still
//     reaches past the threshold.
//
// Otherwise it leaves Side Unknown, for Drive to classify. An error ends
// the walk (a stop).
type Measurer func(i, attempt int) (Step, error)

// Drive walks n commits to an answer: each commit Next names is measured,
// an undecided one up to retries times more, and set on its side. A step
// whose BAD did not read slower than GOOD by more than threshold (its
// interval's low end) cannot place its commit against BAD's level, and is
// undecided too. It returns the walk and every step measured, with the
// error that ended it early (what was measured before is kept).
//
// A reading at a level (fast, between, slow) is kept after one
// measurement: its interval lies clear of the other levels, and more
// measurement narrows it where it is. Only a reading that contradicts the
// order of the levels along the commits (a fast commit after a between or
// slow one) changes the answer, to a range holding both; then the earlier
// readings it contradicts are measured again, up to retries times, and
// the new one too if it still contradicts them: more of the misread one
// places it and gives back one commit. (A between commit used to be
// measured retries times more like an undecided one, which tripled every
// commit between two steps and doubled the cost of such a walk.)
func Drive(n, retries int, threshold float64, measure Measurer) (*Walk, []Step, error) {
	w := NewWalk(n)
	var steps []Step
	at := map[int]int{} // the index in steps of each commit's step
	// settle measures commit i again from st (attempt st.Attempts) while
	// its reading is undecided, or contradicts the others when against is
	// set, at most retries times more than once in all, and sets its side.
	settle := func(i int, st Step, against bool) (Step, error) {
		for attempt := st.Attempts; ; attempt++ {
			var err error
			if st, err = measure(i, attempt); err != nil {
				return st, err
			}
			st.Commit, st.Attempts = i, attempt+1
			if i != n-1 && st.Side == Unknown {
				st.Side, st.Why = classifyStep(st, threshold)
			}
			if attempt >= retries || st.Side != Undecided && !(against && w.contradicts(i, st.Side)) {
				break
			}
		}
		if i == n-1 && st.Side == Skipped {
			st.Side = Undecided // BAD that cannot be compared: not judged
		}
		w.Set(i, st.Side)
		return st, nil
	}
	for {
		i, ok := w.Next()
		if !ok {
			return w, steps, nil
		}
		st, err := settle(i, Step{}, false)
		if err != nil {
			return w, steps, err
		}
		at[i] = len(steps)
		steps = append(steps, st)
		if len(w.against(i, st.Side)) == 0 {
			continue
		}
		for _, j := range append(w.against(i, st.Side), i) {
			if k := at[j]; steps[k].Attempts <= retries && w.contradicts(j, steps[k].Side) {
				again, err := settle(j, steps[k], true)
				if err != nil {
					return w, steps, err
				}
				steps[k] = again
			}
		}
	}
}

// classifyStep places a measured commit with Classify, against BAD's
// ratio as measured so far, when BAD reads slower: a step whose BAD does
// not (busy moments, its interval reaching down to the threshold) has no
// level of BAD to place the commit against, and a midpoint taken from it
// would call a fast commit slow.
func classifyStep(st Step, threshold float64) (Side, string) {
	if !(st.Bad.Low-1 > threshold) {
		return Undecided, fmt.Sprintf("BAD read %s (%s to %s) against GOOD so far, not slower by more than %s",
			units.Change(st.Bad.Value-1), units.Change(st.Bad.Low-1), units.Change(st.Bad.High-1), units.Percent(threshold))
	}
	return Classify(st.Mid, st.Bad, threshold), ""
}
