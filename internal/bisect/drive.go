package bisect

import (
	"fmt"
	"maps"
	"math"
	"slices"

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
	// Position, when measured, is the commit's time over the geometric
	// middle of GOOD's and BAD's in the same rounds (stats.Position):
	// above 1 nearer BAD's level, below nearer GOOD's. When there is one,
	// it places the commit (classifyStep).
	Position *Ratio `json:"position,omitempty"`
	// SameAs, when not nil, is the commit whose test binaries run the same
	// program as this one's (-1 for GOOD): the step took that commit's
	// side and figures and measured nothing (Attempts 0).
	SameAs *int `json:"same_program_as,omitempty"`
	// classified says the walk placed the reading (Classify against BAD),
	// where the measurer left its side: placeUndecided may place it again.
	classified bool
}

// DefaultRetries is how many times more a commit that cannot be placed
// (undecided), or whose reading contradicts another, is measured by
// default. Walks over 64 commits with a +3% step, measured with normal
// noise and 95% intervals that miss as often as they say
// (TestWalkWithRealNoise), named the exact commit in 60% of 1000 walks
// at 2 retries, 90% at 4 and 98% at 6 when one measurement's noise is
// 0.8% (at 1%: 29%, 66%, 88%), in about as many measurements: a commit
// left undecided costs a second search around it, which more
// measurements of it spare.
const DefaultRetries = 6

// PositionLevel is the level of a Position's interval for a walk that
// measures an undecided commit up to retries times more: 95% shared over
// the retries+1 looks at the same commit (1 - 0.05/(retries+1): 99.3% at
// 6). Each look pools the earlier ones and is placed the moment its
// interval clears 1, so a commit that truly sits in the middle (between
// two steps of a slowdown) looked at seven times at 95% each is misplaced
// far more often than 5%: in walks over two +1.5% steps with 1% noise a
// reading (TestWalkTwoStepsWithRealNoise), 45% named a wrong commit at
// 95% a look, 6% at the shared level, where one +3% step is still named
// exactly in 96% of walks.
func PositionLevel(retries int) float64 { return 1 - 0.05/float64(retries+1) }

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

// Twins are the commits whose test binaries run the same program as
// commit i's (-1 for GOOD), among those built so far; none when there are
// none or i does not build. A commit the same as one at a level is at
// that level: no measurement could tell them apart, and a measurement
// that did would be noise (an identical binary read +1.4% against its
// twin once, and made a range of an exact answer).
type Twins func(i int) []int

// Drive walks n commits to an answer for one benchmark: DriveAll with
// measure asked for that benchmark alone, and no twins.
func Drive(n, retries int, threshold float64, measure Measurer) (*Walk, []Step, error) {
	ws, steps, err := DriveAll(n, retries, threshold, nil, func(i int, needs []Need) ([]Step, error) {
		attempt := 0
		if len(needs) > 0 {
			attempt = needs[0].Attempt
		}
		st, err := measure(i, attempt)
		return []Step{st}, err
	})
	if len(ws) == 0 {
		return NewWalk(n), nil, err
	}
	return ws[0], steps[0], err
}

// Need is one benchmark a measurement of a commit is for: its index among
// the walk's benchmarks, and the commit's attempt for it (as a
// Measurer's).
type Need struct{ Bench, Attempt int }

// A MeasureAll measures commit i interleaved with GOOD and BAD for the
// benchmarks needs names (each at its own attempt, pooled as a Measurer
// pools), and returns one step for each, in needs' order, set as a
// Measurer sets them. The first measurement, of BAD, has needs nil: it is
// made for every benchmark the walks follow, and the steps it returns say
// how many there are. An error ends the walk (a stop).
type MeasureAll func(i int, needs []Need) ([]Step, error)

// DriveAll walks n commits to an answer for each of several benchmarks,
// each with a walk of its own, measuring every commit once for all the
// benchmarks that need it: BAD first for all of them (a benchmark whose
// BAD is not slower, or cannot be judged, needs nothing more), then each
// round the commit that the most walks name next (the earliest walk's
// among as many), for those walks. An undecided reading is measured again
// up to retries times, for the benchmarks it is undecided for. A step
// whose BAD did not read slower than GOOD by more than threshold (its
// interval's low end) cannot place its commit against BAD's level, and is
// undecided too. It returns the walks and their steps, with the error
// that ended them early (what was measured before is kept; a commit a
// stop cut short is not).
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
//
// With twins, a commit that runs the same program as GOOD, BAD or a
// commit already at a level takes that level without being measured
// (a step with SameAs), and follows it if its twin is read again; one
// whose twin is not at a level is measured.
func DriveAll(n, retries int, threshold float64, twins Twins, measure MeasureAll) ([]*Walk, [][]Step, error) {
	first, err := measure(n-1, nil)
	if err != nil {
		return nil, nil, err
	}
	d := &driver{n: n, retries: retries, threshold: threshold, measure: measure, twins: twins}
	for range first {
		d.addWalk()
	}
	all := make([]int, len(first))
	for b := range all {
		all[b] = b
	}
	if err := d.settle(n-1, all, false, first); err != nil {
		return d.walks, d.steps, err
	}
	for {
		d.placeUndecided()
		i, bs := d.next()
		if len(bs) == 0 {
			// Over: read the commits either side of each answer's
			// boundary again until each pooled boundaryReads
			// measurements, before answering; a misreading there moves
			// the answer.
			if i, bs = d.unverified(); len(bs) == 0 {
				return d.walks, d.steps, nil
			}
			if err := d.settle(i, bs, false, nil); err != nil {
				return d.walks, d.steps, err
			}
			continue
		}
		if rest := d.copyTwins(i, bs); len(rest) > 0 {
			if err := d.settle(i, rest, false, nil); err != nil {
				return d.walks, d.steps, err
			}
			d.placeTwins(i, rest)
		}
		// The earlier readings each new one contradicts, by commit, then
		// the new ones that still contradict them.
		redo := map[int][]int{}
		for _, b := range bs {
			for _, j := range d.walks[b].against(i, d.walks[b].Side(i)) {
				redo[j] = append(redo[j], b)
			}
		}
		for _, j := range slices.Sorted(maps.Keys(redo)) {
			if err := d.settle(j, redo[j], true, nil); err != nil {
				return d.walks, d.steps, err
			}
		}
		if len(redo) > 0 {
			if err := d.settle(i, bs, true, nil); err != nil {
				return d.walks, d.steps, err
			}
		}
	}
}

// driver is DriveAll under way: each benchmark's walk, its steps, and
// the index in them of each commit's step.
type driver struct {
	n, retries int
	threshold  float64
	measure    MeasureAll
	twins      Twins
	twinsOf    map[int][]int // by commit: its twins when it was measured
	bad        []Ratio       // by benchmark: BAD's ratio in the reading kept last, over every step
	walks      []*Walk
	steps      [][]Step
	at         []map[int]int
}

// addWalk starts the walk of one more benchmark: nothing read yet.
func (d *driver) addWalk() {
	d.walks = append(d.walks, NewWalk(d.n))
	d.steps = append(d.steps, nil)
	d.at = append(d.at, map[int]int{})
	d.bad = append(d.bad, Ratio{})
}

// copyTwins places commit i for each benchmark of bs at the level of a
// twin of i, when one is at a level for it, and returns the benchmarks
// that must still measure i.
func (d *driver) copyTwins(i int, bs []int) []int {
	if d.twins == nil {
		return bs
	}
	js := d.twins(i)
	if d.twinsOf == nil {
		d.twinsOf = map[int][]int{}
	}
	d.twinsOf[i] = js
	var rest []int
	for _, b := range bs {
		st, ok := d.twinStep(i, b, js)
		if !ok {
			rest = append(rest, b)
			continue
		}
		d.keep(i, map[int]Step{b: st})
	}
	return rest
}

// twinStep is the step that places commit i for benchmark b at the level
// of the first of its twins js that is at one (GOOD is fast), with that
// twin's figures; false when none is.
func (d *driver) twinStep(i, b int, js []int) (Step, bool) {
	for _, j := range js {
		st := Step{Side: Fast}
		if j >= 0 {
			k, ok := d.at[b][j]
			if !ok || rank(d.walks[b].Side(j)) < 0 {
				continue
			}
			st = d.steps[b][k]
			if st.SameAs != nil {
				j = *st.SameAs // the twin's own twin: the one measured
			}
		}
		st.Commit, st.Attempts, st.Why, st.SameAs = i, 0, "", &j
		return st, true
	}
	return Step{}, false
}

// placeTwins places, for each benchmark of bs that measured commit i at
// a level, i's twins that their own readings could not place (undecided):
// the same program, they are at i's level, their figures their own.
func (d *driver) placeTwins(i int, bs []int) {
	for _, b := range bs {
		side := d.walks[b].Side(i)
		if rank(side) < 0 {
			continue
		}
		for _, k := range d.twinsOf[i] {
			if k < 0 || d.walks[b].Side(k) != Undecided {
				continue
			}
			x := d.steps[b][d.at[b][k]]
			x.Side, x.Why, x.SameAs = side, "", &i
			d.steps[b][d.at[b][k]] = x
			d.walks[b].Set(k, side)
		}
	}
}

// follow sets, for benchmark b, the commits that took commit i's level
// as its twins (or its twin's) to i's reading st: a twin read again is
// read again for all of them. A reading not at a level leaves them
// undecided.
func (d *driver) follow(b, i int, st Step) {
	for k, x := range d.steps[b] {
		if x.SameAs == nil || *x.SameAs != i || x.Commit == i {
			continue
		}
		y := x // a twin measured itself keeps its own figures
		if x.Attempts == 0 {
			y = st
			y.Commit, y.Attempts, y.SameAs = x.Commit, 0, x.SameAs
		}
		y.Side, y.Why = st.Side, ""
		if rank(st.Side) < 0 {
			y.Side, y.Why = Undecided, "the same program as a commit that could not be placed"
		}
		d.steps[b][k] = y
		d.walks[b].Set(x.Commit, y.Side)
	}
}

// placeUndecided places again, against BAD's level as measured now,
// each commit a walk kept undecided because its interval held the
// midpoint's band when it was read: BAD's interval narrows as the walk
// pools its runs, and the band with it, so a reading that could not be
// placed then (+3.2%, +1.7% to +4.2%, against BAD at +2.6% to +3.6%) may
// be now (BAD at +2.9% to +3.3%).
func (d *driver) placeUndecided() {
	for b, w := range d.walks {
		bad := d.bad[b]
		if !(bad.Low > 0) {
			continue
		}
		for k, st := range d.steps[b] {
			if st.Side != Undecided || !st.classified {
				continue
			}
			x := st
			x.Bad = bad
			x.Side, x.Why = classifyStep(x, d.threshold)
			if rank(x.Side) < 0 || w.contradicts(st.Commit, x.Side) {
				continue
			}
			d.steps[b][k] = x
			w.Set(st.Commit, x.Side)
		}
	}
}

// boundaryReads is how many measurements each commit an answer stands on
// pools before the walk answers. Walks over 64 commits with a +3% step
// (TestWalkWithRealNoise's) named a wrong commit in 3 of 2000 at 1.5%
// noise a reading and 15 at 2% with the boundary read twice, none and 3
// read three times, for about one more measurement a walk. Like every
// measurement again, they are bounded by the walk's retries: with none,
// each commit is read once.
const boundaryReads = 3

// unverified is a commit either side of a walk's boundary that pooled
// fewer than boundaryReads measurements (measured, at a level), and the
// benchmarks whose walks have it there; no benchmarks when every boundary
// is read enough. The boundary of an answer found is the first commit
// that is not fast and the first slow one, each with the commit before
// it: the answer stands on their four readings, and one misread commit
// there names the wrong commit (a commit at BAD's level read fast sends
// the walk past the step). Each read again, pooled, a misreading must
// hold over three measurements.
func (d *driver) unverified() (int, []int) {
	var t tally
	for b, w := range d.walks {
		a := w.Answer()
		if a.Verdict != Found {
			continue
		}
		for _, i := range []int{a.First - 1, a.First, a.Last - 1, a.Last} {
			if i < 0 || i >= d.n-1 || slices.Contains(t.want[i], b) {
				continue
			}
			k, ok := d.at[b][i]
			if !ok || rank(w.Side(i)) < 0 {
				continue
			}
			// A twin (no attempts) is placed by the commit it is the
			// same program as: no measurement of it could tell more.
			if a := d.steps[b][k].Attempts; a == 0 || a >= min(boundaryReads, d.retries+1) {
				continue
			}
			t.add(i, b)
		}
	}
	return t.best, t.want[t.best]
}

// next is the commit to measure and the benchmarks whose walks name it
// next: the commit the most walks name, the earliest walk's among as many;
// no benchmarks when every walk is over.
func (d *driver) next() (int, []int) {
	var t tally
	for b, w := range d.walks {
		if i, ok := w.Next(); ok {
			t.add(i, b)
		}
	}
	return t.best, t.want[t.best]
}

// tally counts the walks that name each commit, to measure first the
// commit the most walks need (the first named among as many).
type tally struct {
	want map[int][]int // by commit: the benchmarks whose walks name it
	best int           // meaningful once a commit was added
}

// add counts benchmark b's walk for commit i.
func (t *tally) add(i, b int) {
	if t.want == nil {
		t.want, t.best = map[int][]int{}, i
	}
	t.want[i] = append(t.want[i], b)
	if len(t.want[i]) > len(t.want[t.best]) {
		t.best = i
	}
}

// settle measures commit i for the benchmarks bs, first's steps being a
// first measurement already made for all of them, until each reading is
// placed: measured again while it is undecided or, when against is set,
// contradicts the others, at most retries times more than once in all.
// With against set, only the benchmarks of bs whose reading of i (once
// each) contradicts another and that may be measured again are. The
// steps are kept, and the walks set, when every reading is placed.
func (d *driver) settle(i int, bs []int, against bool, first []Step) error {
	cur, need := d.readings(i, bs, against)
	for len(need) > 0 {
		sts := first
		if sts == nil {
			var err error
			if sts, err = d.measure(i, needsOf(need, cur)); err != nil {
				return err
			}
		}
		first = nil
		var again []int
		for x, b := range need {
			attempt := cur[b].Attempts
			cur[b] = d.reading(i, attempt, sts[x])
			if d.again(i, b, attempt, cur[b], against) {
				again = append(again, b)
			}
		}
		need = again
	}
	d.keep(i, cur)
	return nil
}

// readings is settle's start: each benchmark of bs's reading of commit i
// so far (a zero step when it has none), once each however often bs
// names it, and the benchmarks to measure: all of them, or with against
// set only those whose reading contradicts another and that may still be
// measured again; the others' readings stand.
func (d *driver) readings(i int, bs []int, against bool) (map[int]Step, []int) {
	cur := map[int]Step{}
	var need []int
	for _, b := range bs {
		if _, ok := cur[b]; ok {
			continue
		}
		st := Step{}
		if k, ok := d.at[b][i]; ok {
			st = d.steps[b][k]
		}
		cur[b] = st
		if !against || st.Attempts <= d.retries && d.walks[b].contradicts(i, st.Side) {
			need = append(need, b)
		}
	}
	return cur, need
}

// needsOf asks for the benchmarks need, each at its next attempt: the
// number of measurements its reading in cur pools already.
func needsOf(need []int, cur map[int]Step) []Need {
	needs := make([]Need, len(need))
	for x, b := range need {
		needs[x] = Need{b, cur[b].Attempts}
	}
	return needs
}

// reading is a measurement st of commit i at attempt as a step of the
// walk: its commit and attempts set, and placed with classifyStep when
// the measurer left its side to the walk (BAD's side is always the
// measurer's: there is no BAD to place it against).
func (d *driver) reading(i, attempt int, st Step) Step {
	st.Commit, st.Attempts = i, attempt+1
	if i != d.n-1 && st.Side == Unknown {
		st.Side, st.Why = classifyStep(st, d.threshold)
		st.classified = true
	}
	return st
}

// again says whether benchmark b's reading st of commit i, made at
// attempt, is measured once more: while retries remain, when it is
// undecided or, with against set, still contradicts the walk's other
// readings. A reading at a level is otherwise kept after one measurement.
func (d *driver) again(i, b, attempt int, st Step, against bool) bool {
	return attempt < d.retries && (st.Side == Undecided || against && d.walks[b].contradicts(i, st.Side))
}

// keep sets each walk's side of commit i from its benchmark's reading in
// cur, in the benchmarks' order, and keeps the step, in place of an
// earlier step of i; a benchmark that was not measured keeps nothing.
// Settle keeps readings only once all are placed, so a stop in between
// leaves the walks as they were.
func (d *driver) keep(i int, cur map[int]Step) {
	for _, b := range slices.Sorted(maps.Keys(cur)) {
		st := cur[b]
		if st.Attempts == 0 && st.SameAs == nil {
			continue // not measured
		}
		if i == d.n-1 && st.Side == Skipped {
			st.Side = Undecided // BAD that cannot be compared: not judged
		}
		d.walks[b].Set(i, st.Side)
		if k, ok := d.at[b][i]; ok {
			d.steps[b][k] = st
		} else {
			d.at[b][i] = len(d.steps[b])
			d.steps[b] = append(d.steps[b], st)
		}
		if st.SameAs == nil {
			d.follow(b, i, st)
			if st.Attempts > 0 && st.Bad.Low > 0 {
				d.bad[b] = st.Bad
			}
		}
	}
}

// classifyStep places a measured commit with Classify, against BAD's
// ratio as measured so far, when BAD reads slower: a step whose BAD does
// not (busy moments, its interval reaching down to the threshold) has no
// level of BAD to place the commit against, and a midpoint taken from it
// would call a fast commit slow. A commit with a Position (measured at
// PositionLevel) that Classify does not put between the levels is placed
// by it: slow when its interval lies above 1, fast when below, between
// when it lies clear of both levels (above GOOD's 1/√BAD and below BAD's
// √BAD, BAD at its interval's low end: a commit in the middle of a
// slowdown of two steps). That is one test of the question the walk
// asks, on rounds that measured GOOD, BAD and the commit together;
// Classify's is two intervals' worth (the commit's and the midpoint's
// band), and left a commit at BAD's level undecided after seven readings
// (+2.6%, +1.5% to +3.0%, against a band about +1.5%).
func classifyStep(st Step, threshold float64) (Side, string) {
	if !(st.Bad.Low-1 > threshold) {
		return Undecided, fmt.Sprintf("BAD read %s (%s to %s) against GOOD so far, not slower by more than %s",
			units.Change(st.Bad.Value-1), units.Change(st.Bad.Low-1), units.Change(st.Bad.High-1), units.Percent(threshold))
	}
	side := Classify(st.Mid, st.Bad, threshold)
	if p := st.Position; p != nil && p.Low > 0 && side != Between {
		switch {
		case p.Low > 1/math.Sqrt(st.Bad.Low) && p.High < math.Sqrt(st.Bad.Low):
			return Between, ""
		case p.Low > 1 && st.Mid.Low > 1:
			return Slow, ""
		case p.High < 1 && st.Mid.High < st.Bad.Low:
			return Fast, ""
		case p.Low > 1:
			return Undecided, "nearer BAD's level, yet not slower than GOOD"
		case p.High < 1:
			return Undecided, "nearer GOOD's level, yet not faster than BAD"
		}
		return Undecided, fmt.Sprintf("%s from the middle of GOOD and BAD (%s to %s)",
			units.Change(p.Value-1), units.Change(p.Low-1), units.Change(p.High-1))
	}
	return side, ""
}
