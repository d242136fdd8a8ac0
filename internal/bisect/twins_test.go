package bisect

import (
	"slices"
	"testing"
)

// builds gives a fake's commits programs: program(i) for commit i, -1
// for GOOD; twins are the commits built so far (GOOD and BAD from the
// start, each commit when the walk asks) with the same program.
type builds struct {
	n       int
	program func(i int) int
	built   map[int]bool
}

func (b *builds) twins(i int) []int {
	if b.built == nil {
		b.built = map[int]bool{-1: true, b.n - 1: true}
	}
	b.built[i] = true
	var out []int
	for _, j := range append([]int{-1, b.n - 1}, seq(b.n-1)...) {
		if j != i && b.built[j] && b.program(j) == b.program(i) && !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	return out
}

func seq(n int) []int {
	out := make([]int, n)
	for k := range out {
		out[k] = k
	}
	return out
}

// driveTwins walks f's commits alone, as Drive does, with twins.
func driveTwins(f *fake, twins Twins) (*Walk, []Step, error) {
	ws, steps, err := DriveAll(f.n, 2, f.threshold, twins, func(i int, needs []Need) ([]Step, error) {
		attempt := 0
		if len(needs) > 0 {
			attempt = needs[0].Attempt
		}
		st, err := f.measure(i, attempt)
		return []Step{st}, err
	})
	if len(ws) == 0 {
		return nil, nil, err
	}
	return ws[0], steps[0], err
}

// Commits that only change comments run GOOD's program before the step
// and BAD's from it: once BAD is measured, the walk places every commit
// it visits by its program, and names the step without measuring it.
func TestTwinsOfGoodAndBad(t *testing.T) {
	const n, at = 64, 40
	f := newFake(n, step(at, 1.03), 0.002)
	b := &builds{n: n, program: func(i int) int {
		if i >= at {
			return 1
		}
		return 0
	}}
	w, steps, err := driveTwins(f, b.twins)
	if err != nil {
		t.Fatal(err)
	}
	if a := w.Answer(); !a.Exact() || a.From != at {
		t.Errorf("answer %+v, want exactly %d", a, at)
	}
	if f.measured != 1 {
		t.Errorf("measured %d commits, want BAD's alone", f.measured)
	}
	for _, st := range steps[1:] {
		want := -1
		if st.Commit >= at {
			want = n - 1
		}
		if st.SameAs == nil || *st.SameAs != want || st.Attempts != 0 {
			t.Errorf("commit %d: same as %v, %d attempts; want the same as %d, not measured", st.Commit, st.SameAs, st.Attempts, want)
		}
	}
}

// Commits in runs of four share a program. The commit before the step
// would read undecided however often it is measured (its interval holds
// the midpoint): alone it leaves a range of two commits; with twins it
// takes the level of a commit of its run that was measured, and the
// answer is the one commit.
func TestTwinsPlaceAnUndecidedCommit(t *testing.T) {
	const n, at = 64, 40
	wide := func(i, attempt int) float64 {
		if i == at-1 {
			return 0.05
		}
		return 0.002
	}
	program := func(i int) int {
		if i < 0 {
			return 0
		}
		return i/4 + 1
	}
	f := newFake(n, step(at, 1.03), 0)
	f.width = wide
	_, alone, err := Drive(n, 2, f.threshold, f.measure)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(stepCommits(alone), at-1) {
		t.Fatalf("alone, the walk never measured %d: %v; the test needs it", at-1, stepCommits(alone))
	}
	measuredAlone := f.measured

	f = newFake(n, step(at, 1.03), 0)
	f.width = wide
	w, steps, err := driveTwins(f, (&builds{n: n, program: program}).twins)
	if err != nil {
		t.Fatal(err)
	}
	if a := w.Answer(); !a.Exact() || a.From != at {
		t.Errorf("answer %+v, want exactly %d", a, at)
	}
	k := slices.IndexFunc(steps, func(st Step) bool { return st.Commit == at-1 })
	if k < 0 || steps[k].SameAs == nil || program(*steps[k].SameAs) != program(at-1) || steps[k].Side != Fast {
		t.Errorf("commit %d: %+v, want fast, the same as a commit of its run", at-1, steps)
	}
	if f.measured > measuredAlone {
		t.Errorf("measured %d times with twins, %d without", f.measured, measuredAlone)
	}
}

// A twin follows the commit whose level it took: read again, at another
// level, the commit moves its twins with it; read at no level, it leaves
// them undecided.
func TestTwinsFollow(t *testing.T) {
	d := newDriver(8, 1, nil)
	d.twins = func(i int) []int { return []int{2} }
	d.keep(7, map[int]Step{0: {Side: Slow, Attempts: 1}})
	d.keep(2, map[int]Step{0: {Side: Fast, Attempts: 1, Mid: Ratio{Value: 1.001}}})
	if rest := d.copyTwins(3, []int{0}); len(rest) != 0 {
		t.Fatalf("commit 3 still to measure, want it placed as its twin")
	}
	if s := d.walks[0].Side(3); s != Fast {
		t.Fatalf("commit 3 %v, want fast as its twin", s)
	}
	st := d.steps[0][d.at[0][3]]
	if st.Mid.Value != 1.001 || st.Attempts != 0 || st.SameAs == nil || *st.SameAs != 2 {
		t.Errorf("commit 3's step %+v, want commit 2's figures, not measured, same as 2", st)
	}
	d.keep(2, map[int]Step{0: {Side: Slow, Attempts: 2}})
	if s := d.walks[0].Side(3); s != Slow {
		t.Errorf("commit 2 read slow again: commit 3 %v, want slow", s)
	}
	d.keep(2, map[int]Step{0: {Side: Undecided, Attempts: 3}})
	if s := d.walks[0].Side(3); s != Undecided {
		t.Errorf("commit 2 read undecided: commit 3 %v, want undecided", s)
	}
}

// A commit left undecided because its interval held the midpoint's band
// is placed when BAD's interval, pooled over later steps, narrows the
// band clear of it; one the measurer could not judge (a busy machine) is
// not, whatever its figures.
func TestUndecidedPlacedAsBadNarrows(t *testing.T) {
	d := newDriver(64, 1, nil)
	d.threshold = 0.01
	wide, narrow := Ratio{Value: 1.031, Low: 1.026, High: 1.036}, Ratio{Value: 1.031, Low: 1.029, High: 1.033}
	d.keep(63, map[int]Step{0: {Side: Slow, Attempts: 1, Mid: wide, Bad: wide}})
	mid := Ratio{Value: 1.032, Low: 1.017, High: 1.042} // above √1.033, not above √1.036
	d.keep(40, map[int]Step{0: d.reading(40, 6, Step{Mid: mid, Bad: wide})})
	d.keep(20, map[int]Step{0: {Side: Undecided, Attempts: 1, Mid: mid, Bad: wide, Why: "could not judge: inconclusive"}})
	if s := d.walks[0].Side(40); s != Undecided {
		t.Fatalf("commit 40 against the wide BAD: %v, want undecided", s)
	}
	d.placeUndecided()
	if s := d.walks[0].Side(40); s != Undecided {
		t.Fatalf("commit 40, BAD as wide: %v, want still undecided", s)
	}
	d.keep(41, map[int]Step{0: d.reading(41, 0, Step{Mid: narrow, Bad: narrow})})
	d.placeUndecided()
	if s := d.walks[0].Side(40); s != Slow {
		t.Errorf("commit 40 after BAD narrowed: %v, want slow", s)
	}
	if s := d.walks[0].Side(20); s != Undecided {
		t.Errorf("commit 20, inconclusive: %v, want undecided", s)
	}
	if st := d.steps[0][d.at[0][40]]; st.Bad != narrow || st.Attempts != 7 {
		t.Errorf("commit 40's step %+v, want BAD's latest ratio and its own 7 attempts", st)
	}
}
