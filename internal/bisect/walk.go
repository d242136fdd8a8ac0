// Package bisect finds the commit that made a benchmark slower: a walk
// over the first-parent commits between a fast commit (GOOD) and a slow
// one (BAD), measuring one commit a step and learning on which side of the
// slowdown it lies, as git bisect does by hand. It decides nothing about
// measuring: a step's figures come from a Measurer (the pipeline builds
// and runs the commits interleaved; the tests give fake ones), and the
// walk only keeps what is known and chooses what to measure next.
//
// A commit is fast (at GOOD's level), slow (at BAD's), between the two
// levels (slower than GOOD and faster than BAD, each beyond the
// threshold), undecided (its interval reaches both sides of the midpoint
// between the levels, or the measurement could not tell, even after
// measuring more) or skipped (it does not build, lacks the benchmark, or
// cannot be compared). The levels are taken to be in order along the
// commits: a commit after a slow one is slow. A slowdown in two steps puts
// the commits between them between the levels (or leaves them undecided),
// so the walk searches twice, for the first commit that is not fast and
// for the first that is slow, and names both; one step makes them the
// same commit. Readings against that order give a range, not a commit.
package bisect

import "slices"

// Side is what is known of one commit.
type Side int

const (
	Unknown Side = iota // not measured yet
	Fast                // at GOOD's level
	Slow                // at BAD's level
	// Undecided is measured and not placed: its interval holds the
	// midpoint, its comparison was inconclusive (a busy machine), or BAD
	// did not read slower in its step.
	Undecided
	// Skipped cannot be measured: it does not build, lacks the benchmark,
	// or its runs cannot be compared.
	Skipped
	// Between is measured between the two levels: slower than GOOD and
	// faster than BAD, each by more than the threshold (a slowdown in two
	// steps). Unlike an undecided commit, which may be at either level, a
	// fast commit after it contradicts it: one of the two was misread.
	Between
)

func (s Side) String() string {
	return [...]string{"unknown", "fast", "slow", "undecided", "skipped", "between"}[s]
}

// Walk is what is known of the n commits after GOOD up to BAD, in
// first-parent order: index n-1 is BAD, and GOOD, before index 0, is fast.
// BAD is measured first: the walk goes on only when it is slow.
type Walk struct {
	sides []Side
}

// NewWalk is a walk over n commits (n >= 1), nothing known.
func NewWalk(n int) *Walk { return &Walk{sides: make([]Side, n)} }

// Side is what is known of commit i.
func (w *Walk) Side(i int) Side { return w.sides[i] }

// Set records what commit i was found to be.
func (w *Walk) Set(i int, s Side) { w.sides[i] = s }

// against are the commits whose level contradicts commit i read at side
// s, along the order of the levels: those before i at a higher level (a
// fast commit after a between or slow one, a between one after a slow
// one) and those after it at a lower one. Undecided and skipped commits
// have no level to contradict.
func (w *Walk) against(i int, s Side) []int {
	r := rank(s)
	if r < 0 {
		return nil
	}
	var out []int
	for j, o := range w.sides {
		if q := rank(o); q >= 0 && (j < i && q > r || j > i && q < r) {
			out = append(out, j)
		}
	}
	return out
}

// contradicts reports whether commit i read at side s contradicts another.
func (w *Walk) contradicts(i int, s Side) bool { return len(w.against(i, s)) > 0 }

// rank orders the levels along the commits: fast, between, slow; -1 for
// a side that is not a level.
func rank(s Side) int {
	switch s {
	case Fast:
		return 0
	case Between:
		return 1
	case Slow:
		return 2
	}
	return -1
}

// bounds are the two searches' ends. The first commit that is not fast
// lies in (loA, hiA]: loA the last fast commit before any commit between
// the levels or slow (-1 for GOOD), hiA the first commit after it that is
// not fast. The first slow commit lies in (loB, hiB]: hiB the first slow
// commit after the last fast or between one, loB the last commit before
// hiB that is not slow. Without undecided or between commits the two are
// one search.
//
// An undecided commit may be at either level: a fast commit after it, or
// a slow one before it, places it. A fast commit after one between the
// levels or slow is a contradiction (one of them was misread): the answer
// is then the range that holds both readings, never the one commit a
// single reading would give (a fast misreading after the first of two
// steps would otherwise erase that step, and name the second as the
// whole slowdown).
func (w *Walk) bounds() (loA, hiA, loB, hiB int) {
	n := len(w.sides)
	loA, hiA, loB, hiB = -1, n, -1, n
	lastFB := -1 // the last fast or between commit
	for i, s := range w.sides {
		if s == Slow || s == Between {
			break
		}
		if s == Fast {
			loA = i
		}
	}
	for i, s := range w.sides {
		if i > loA && (s == Undecided || s == Between || s == Slow) && hiA == n {
			hiA = i
		}
		if s == Fast || s == Between {
			lastFB = i
		}
	}
	for i := lastFB + 1; i < n; i++ {
		if w.sides[i] == Slow {
			hiB = i
			break
		}
	}
	for i := range hiB {
		if s := w.sides[i]; s == Fast || s == Undecided || s == Between {
			loB = i
		}
	}
	return loA, hiA, loB, hiB
}

// Next is the commit to measure next, and false when the walk is over:
// BAD first, while it is not known; then, when BAD is slow, the unknown
// commit nearest the middle of the first search's open range, then of the
// second's. A skipped commit is stepped around, as git bisect skip does.
func (w *Walk) Next() (int, bool) {
	n := len(w.sides)
	switch w.sides[n-1] {
	case Unknown:
		return n - 1, true
	case Slow:
	default:
		return 0, false // no slowdown to look for, or none that could be judged
	}
	loA, hiA, loB, hiB := w.bounds()
	if i, ok := w.nearestMiddle(loA, hiA); ok {
		return i, true
	}
	return w.nearestMiddle(loB, hiB)
}

// nearestMiddle is the unknown commit strictly between lo and hi nearest
// their middle (the earlier of two as near).
func (w *Walk) nearestMiddle(lo, hi int) (int, bool) {
	mid := (lo + hi) / 2
	for d := 0; mid-d > lo || mid+d+1 < hi; d++ {
		for _, i := range []int{mid - d, mid + d + 1} {
			if i > lo && i < hi && w.sides[i] == Unknown {
				return i, true
			}
		}
	}
	return 0, false
}

// Verdict is what the walk came to.
type Verdict int

const (
	NotFinished Verdict = iota // Next has more to measure
	NoSlowdown                 // BAD is not slower than GOOD
	CannotJudge                // BAD could not be judged against GOOD
	Found                      // the slowdown is in From..To
)

// Answer is where the slowdown is: commits From..To (indexes, From <= To);
// From == To names the one commit. First is the first commit that is not
// fast and Last the first slow one, each -1 when skipped commits leave it
// in a range; they differ when the commits between them sit between the
// two levels (a slowdown in two steps, or a commit that could not be told).
// Skipped and Undecided are the commits of From..To that were so.
type Answer struct {
	Verdict   Verdict `json:"verdict"`
	From      int     `json:"from"`
	To        int     `json:"to"`
	First     int     `json:"first"`
	Last      int     `json:"last"`
	Skipped   []int   `json:"skipped"`
	Undecided []int   `json:"undecided"`
}

// Exact reports whether the answer is one commit.
func (a Answer) Exact() bool { return a.Verdict == Found && a.From == a.To }

// Answer is what is known so far.
func (w *Walk) Answer() Answer {
	n := len(w.sides)
	a := Answer{Verdict: Found, First: -1, Last: -1}
	switch w.sides[n-1] {
	case Unknown:
		a.Verdict = NotFinished
		return a
	case Fast:
		a.Verdict = NoSlowdown
		return a
	case Undecided, Skipped:
		a.Verdict = CannotJudge
		return a
	}
	if _, ok := w.Next(); ok {
		a.Verdict = NotFinished
	}
	loA, hiA, loB, hiB := w.bounds()
	a.From, a.To = loA+1, hiB
	if hiA == loA+1 {
		a.First = hiA
	}
	if hiB == loB+1 {
		a.Last = hiB
	}
	for i := a.From; i <= a.To; i++ {
		switch w.sides[i] {
		case Skipped:
			a.Skipped = append(a.Skipped, i)
		case Undecided, Between:
			a.Undecided = append(a.Undecided, i)
		}
	}
	return a
}

// Named are the commits the answer names: the first that is not fast and
// the first slow one, once each.
func (a Answer) Named() []int {
	var out []int
	for _, i := range []int{a.First, a.Last} {
		if i >= 0 && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}
