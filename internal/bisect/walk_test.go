package bisect

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// fake measures commits whose true levels (ratios to GOOD) are level(i),
// each with an interval of half-width width(i, attempt) in log space
// around the truth shifted by at most that much (so the truth is always
// inside), as an honest measurement is. BAD's figures in the step that
// measures commit i are drawn the same way from badWidth(i, attempt) and
// badShift(i, attempt): each step reads BAD anew, as the pipeline does.
// skip names the commits that do not build. measured counts the
// measurements.
type fake struct {
	threshold          float64
	level              func(i int) float64
	width, shift       func(i, attempt int) float64 // shift in [-1, 1], times the width
	badWidth, badShift func(i, attempt int) float64 // nil: BAD's own width and shift
	skip               map[int]bool
	measured           int
	n                  int
}

// honest is a ratio at level with an interval of half-width h in log
// space, its centre shifted by shift times h.
func honest(level, h, shift float64) Ratio {
	c := math.Log(level) + shift*h
	return Ratio{Value: math.Exp(c), Low: math.Exp(c - h), High: math.Exp(c + h)}
}

func (f *fake) ratio(i, attempt int) Ratio {
	return honest(f.level(i), f.width(i, attempt), f.shift(i, attempt))
}

func (f *fake) measure(i, attempt int) (Step, error) {
	f.measured++
	if f.skip[i] {
		return Step{Side: Skipped, Why: "does not build"}, nil
	}
	bad := f.ratio(f.n-1, attempt)
	if f.badWidth != nil && i != f.n-1 {
		bad = honest(f.level(f.n-1), f.badWidth(i, attempt), f.badShift(i, attempt))
	}
	st := Step{Mid: f.ratio(i, attempt), Bad: bad}
	if i == f.n-1 {
		st.Mid, st.Side = bad, badSide(bad, f.threshold)
	}
	return st, nil
}

// badSide is BAD's side as the pipeline judges it against GOOD: slow
// when its whole interval lies beyond the threshold, fast when none of
// it does, else undecided.
func badSide(bad Ratio, threshold float64) Side {
	switch {
	case bad.Low-1 > threshold:
		return Slow
	case bad.High-1 <= threshold:
		return Fast
	}
	return Undecided
}

func newFake(n int, level func(int) float64, width float64) *fake {
	return &fake{n: n, threshold: 0.01, level: level,
		width: func(int, int) float64 { return width },
		shift: func(int, int) float64 { return 0 }}
}

// step is a level function: 1 before commit at, factor from it on.
func step(at int, factor float64) func(int) float64 {
	return func(i int) float64 {
		if i >= at {
			return factor
		}
		return 1
	}
}

// boundary are the commits a walk reads twice before answering a: the
// first that is not fast and the first slow one, each with the commit
// before it, among the n commits but BAD.
func boundary(a Answer, n int) map[int]bool {
	out := map[int]bool{}
	if a.Verdict != Found {
		return out
	}
	for _, i := range []int{a.First - 1, a.First, a.Last - 1, a.Last} {
		if i >= 0 && i < n-1 {
			out[i] = true
		}
	}
	return out
}

// attempts is the measurements steps pool in all.
func attempts(steps []Step) int {
	n := 0
	for _, st := range steps {
		n += st.Attempts
	}
	return n
}

// atLeastBoundary is the attempts a step of a walk with honest fake
// readings at retries pools: want, or boundaryReads (at most retries+1)
// for a commit of the answer's boundary when that is more.
func atLeastBoundary(want int, st Step, a Answer, n, retries int) int {
	if boundary(a, n)[st.Commit] {
		return max(want, min(boundaryReads, retries+1))
	}
	return want
}

// Without retries, each commit is read once, the boundary's too: the
// user asked for the fewest measurements.
func TestNoRetriesReadsTheBoundaryOnce(t *testing.T) {
	f := newFake(64, step(40, 1.03), 0.002)
	w, steps, err := Drive(64, 0, f.threshold, f.measure)
	if err != nil {
		t.Fatal(err)
	}
	if a := w.Answer(); !a.Exact() || a.From != 40 {
		t.Errorf("%+v, want exactly 40", a)
	}
	for _, st := range steps {
		if st.Attempts != 1 {
			t.Errorf("commit %d read %d times, want once", st.Commit, st.Attempts)
		}
	}
}

// readOnce checks that every step of a walk with honest fake readings
// was measured once, but the boundary's commits, boundaryReads times, and that the
// measurements add up.
func readOnce(t *testing.T, what string, steps []Step, a Answer, n, measured int) {
	t.Helper()
	b, total := boundary(a, n), 0
	for _, st := range steps {
		want := 1
		if b[st.Commit] {
			want = boundaryReads
		}
		if st.Attempts != want {
			t.Errorf("%s: commit %d (%v) read %d times, want %d", what, st.Commit, st.Side, st.Attempts, want)
		}
		total += st.Attempts
	}
	if total != measured {
		t.Errorf("%s: %d measurements for steps of %d attempts", what, measured, total)
	}
}

// One step at every position: the exact commit, in at most log2(n)+2
// measured commits (BAD's confirmation included), each read once, but
// the two either side of the step, read boundaryReads times.
func TestOneStep(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 16, 64, 200} {
		for at := 0; at < n; at++ {
			f := newFake(n, step(at, 1.03), 0.002)
			w, steps, err := Drive(n, 2, f.threshold, f.measure)
			if err != nil {
				t.Fatal(err)
			}
			a := w.Answer()
			if !a.Exact() || a.From != at || !slices.Equal(a.Named(), []int{at}) {
				t.Errorf("n=%d, step at %d: %+v, want exactly %d", n, at, a, at)
			}
			if limit := int(math.Log2(float64(n))) + 2; len(steps) > limit {
				t.Errorf("n=%d, step at %d: %d commits measured, want at most %d", n, at, len(steps), limit)
			}
			readOnce(t, fmt.Sprintf("n=%d, step at %d", n, at), steps, a, n, f.measured)
		}
	}
}

// No step: BAD is not slower, nothing more is measured, nothing accused.
// A difference the interval cannot tell from the threshold cannot be
// judged: no commit either.
func TestNoStep(t *testing.T) {
	for _, tt := range []struct {
		name   string
		level  float64
		width  float64
		verdit Verdict
	}{
		{"flat", 1, 0.002, NoSlowdown},
		{"within the threshold", 1.005, 0.002, NoSlowdown},
		{"too noisy to tell", 1.02, 0.05, CannotJudge},
	} {
		f := newFake(32, func(int) float64 { return tt.level }, tt.width)
		w, steps, err := Drive(32, 2, f.threshold, f.measure)
		if err != nil {
			t.Fatal(err)
		}
		a := w.Answer()
		if a.Verdict != tt.verdit || len(a.Named()) != 0 || len(steps) != 1 || steps[0].Commit != 31 {
			t.Errorf("%s: %+v after %d steps, want verdict %d, no commit, BAD measured alone", tt.name, a, len(steps), tt.verdit)
		}
	}
}

// Two half steps: the commits between them sit at the midpoint of the
// two levels, undecided however long they are measured; both steps are
// named, the first commit that is not fast and the first slow one.
func TestTwoHalfSteps(t *testing.T) {
	for _, pos := range [][2]int{{3, 23}, {0, 1}, {10, 11}, {30, 63}, {5, 40}} {
		a, b := pos[0], pos[1]
		level := func(i int) float64 {
			switch {
			case i >= b:
				return 1.03
			case i >= a:
				return 1.015
			}
			return 1
		}
		f := newFake(64, level, 0.002)
		w, steps, err := Drive(64, 2, f.threshold, f.measure)
		if err != nil {
			t.Fatal(err)
		}
		ans := w.Answer()
		if ans.Verdict != Found || ans.First != a || ans.Last != b || ans.From != a || ans.To != b || !slices.Equal(ans.Named(), []int{a, b}) {
			t.Errorf("steps at %d and %d: %+v, want both named", a, b, ans)
		}
		if limit := 2*int(math.Ceil(math.Log2(64)))*3 + 1; f.measured > limit {
			t.Errorf("steps at %d and %d: %d measurements, want at most %d", a, b, f.measured, limit)
		}
		for _, st := range steps {
			if st.Side == Undecided && st.Attempts != 3 {
				t.Errorf("undecided commit %d measured %d times, want 1 + 2 more", st.Commit, st.Attempts)
			}
		}
	}
}

// Two steps of unequal size, as measured on the 64-commit repository of
// docs/bisect.md (+15% at commit 20, then BAD read +39%): the commits
// between them lie below the midpoint (√1.39 = 1.179), and placing them
// by the midpoint alone calls them fast and names the second step as the
// whole slowdown. They are not at GOOD's level: both steps are named.
func TestTwoUnequalSteps(t *testing.T) {
	for _, pos := range [][2]int{{19, 39}, {3, 50}, {30, 31}} {
		a, b := pos[0], pos[1]
		level := func(i int) float64 {
			switch {
			case i >= b:
				return 1.39
			case i >= a:
				return 1.15
			}
			return 1
		}
		f := newFake(64, level, 0.01)
		f.threshold = 0.05
		w, _, err := Drive(64, 2, f.threshold, f.measure)
		if err != nil {
			t.Fatal(err)
		}
		if ans := w.Answer(); ans.Exact() || ans.First != a || ans.Last != b {
			t.Errorf("steps at %d and %d: %+v, want both named", a, b, ans)
		}
	}
}

// twoSteps is a level function: 1 before commit a, x from a on, y from b on.
func twoSteps(a, b int, x, y float64) func(int) float64 {
	return func(i int) float64 {
		switch {
		case i >= b:
			return y
		case i >= a:
			return x
		}
		return 1
	}
}

// A commit between the two levels is measured once: its interval lies
// clear of both, and measuring it more places it on the same side. The
// walk over two +15% steps names both with one measurement a commit,
// where measuring each commit between the levels three times took 22 for
// the same 12 commits.
func TestBetweenMeasuredOnce(t *testing.T) {
	for _, pos := range [][2]int{{20, 40}, {3, 50}, {30, 31}, {0, 63}} {
		a, b := pos[0], pos[1]
		f := newFake(64, twoSteps(a, b, 1.15, 1.3225), 0.01)
		f.threshold = 0.05
		w, steps, err := Drive(64, 2, f.threshold, f.measure)
		if err != nil {
			t.Fatal(err)
		}
		if ans := w.Answer(); ans.First != a || ans.Last != b || ans.From != a || ans.To != b {
			t.Errorf("steps at %d and %d: %+v, want both named", a, b, ans)
		}
		between := 0
		for _, st := range steps {
			if st.Side == Between {
				between++
			}
		}
		if between == 0 {
			t.Errorf("steps at %d and %d: no commit between the levels", a, b)
		}
		readOnce(t, fmt.Sprintf("steps at %d and %d", a, b), steps, w.Answer(), 64, f.measured)
	}
}

// A reading that contradicts an earlier one (a fast commit after one read
// between the levels) is what changes the answer, to a range: the
// earlier reading is measured again, and when more of it places the
// misread commit, the walk gives back the one commit.
func TestContradictionMeasuredAgain(t *testing.T) {
	f := newFake(64, step(40, 1.3), 0.01)
	f.threshold = 0.05
	level := f.level
	f.level = func(i int) float64 {
		if i == 31 && f.measured == 2 {
			return 1.15 // commit 31's first reading: between the levels, a misreading
		}
		return level(i)
	}
	w, steps, err := Drive(64, 2, f.threshold, f.measure)
	if err != nil {
		t.Fatal(err)
	}
	if a := w.Answer(); !a.Exact() || a.From != 40 {
		t.Errorf("%+v, want exactly 40", a)
	}
	for _, st := range steps {
		want := map[bool]int{true: 2, false: 1}[st.Commit == 31]
		if st.Commit == 39 || st.Commit == 40 {
			want = boundaryReads
		}
		if st.Attempts != want || st.Commit == 31 && st.Side != Fast {
			t.Errorf("commit %d: %v after %d measurements, want %d (31 read again, 39 and 40 either side of the step)", st.Commit, st.Side, st.Attempts, want)
		}
	}
}

// suite measures several benchmarks, each as its fake says, counting
// the measurements (a commit once for every benchmark asked) and what
// each benchmark was asked at each commit.
type suite struct {
	fakes []*fake
	runs  int
	asked map[[3]int]int // benchmark, commit, attempt
}

func (s *suite) measure(i int, needs []Need) ([]Step, error) {
	s.runs++
	if needs == nil {
		for b := range s.fakes {
			needs = append(needs, Need{b, 0})
		}
	}
	var out []Step
	for _, nd := range needs {
		s.asked[[3]int{nd.Bench, i, nd.Attempt}]++
		st, err := s.fakes[nd.Bench].measure(i, nd.Attempt)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// Several benchmarks walk together: each gets its own answer, one that
// did not change is dropped after BAD's measurement, and a commit two
// walks need next is measured once for both.
func TestDriveAll(t *testing.T) {
	const n = 64
	s := &suite{asked: map[[3]int]int{}}
	for _, level := range []func(int) float64{
		step(40, 1.3),                     // 0: one step
		func(int) float64 { return 1 },    // 1: unchanged
		step(40, 1.5),                     // 2: the same commit, more
		twoSteps(20, 40, 1.15, 1.3225),    // 3: two steps
		step(10, 1.3),                     // 4: another commit
		func(int) float64 { return 1.02 }, // 5: within the threshold
	} {
		f := newFake(n, level, 0.01)
		f.threshold = 0.05
		s.fakes = append(s.fakes, f)
	}
	ws, steps, err := DriveAll(n, 2, 0.05, nil, s.measure)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		verdict     Verdict
		first, last int
	}{{Found, 40, 40}, {NoSlowdown, -1, -1}, {Found, 40, 40}, {Found, 20, 40}, {Found, 10, 10}, {NoSlowdown, -1, -1}}
	if len(ws) != len(want) || len(steps) != len(want) {
		t.Fatalf("%d walks, %d step lists, want %d", len(ws), len(steps), len(want))
	}
	total := 0
	for b, w := range want {
		a := ws[b].Answer()
		if a.Verdict != w.verdict || a.First != w.first || a.Last != w.last {
			t.Errorf("benchmark %d: %+v, want %v, %d and %d", b, a, w.verdict, w.first, w.last)
		}
		if a.Verdict == NoSlowdown && len(steps[b]) != 1 {
			t.Errorf("benchmark %d, unchanged: %d steps, want BAD's alone", b, len(steps[b]))
		}
		readOnce(t, fmt.Sprintf("benchmark %d", b), steps[b], a, n, s.fakes[b].measured)
		total += attempts(steps[b])
	}
	for k, c := range s.asked {
		if c != 1 {
			t.Errorf("benchmark %d at commit %d, attempt %d: asked %d times", k[0], k[1], k[2], c)
		}
	}
	// Benchmarks 0 and 2 walk the same commits: measured together, and
	// with the others while their walks agree.
	if s.runs >= total-attempts(steps[2]) {
		t.Errorf("%d measurements for %d readings, want fewer than %d (0 and 2 share every one)", s.runs, total, total-attempts(steps[2]))
	}
	if !slices.Equal(stepCommits(steps[0]), stepCommits(steps[2])) {
		t.Errorf("benchmarks 0 and 2 walked %v and %v, want the same commits", stepCommits(steps[0]), stepCommits(steps[2]))
	}
	// One benchmark alone walks as Drive walks it.
	f := newFake(n, step(40, 1.3), 0.01)
	f.threshold = 0.05
	_, alone, _ := Drive(n, 2, 0.05, f.measure)
	if !slices.Equal(stepCommits(alone), stepCommits(steps[0])) {
		t.Errorf("alone %v, in the suite %v: want the same walk", stepCommits(alone), stepCommits(steps[0]))
	}
}

// The exit follows the worst answer over the benchmarks: a slowdown
// found anywhere, else one that cannot be judged, else none.
func TestWorst(t *testing.T) {
	for _, tt := range []struct {
		verdicts []Verdict
		want     Verdict
	}{
		{[]Verdict{NoSlowdown, NoSlowdown}, NoSlowdown},
		{[]Verdict{NoSlowdown, CannotJudge}, CannotJudge},
		{[]Verdict{CannotJudge, Found, NoSlowdown}, Found},
		{[]Verdict{NotFinished, NoSlowdown}, CannotJudge},
		{[]Verdict{Found}, Found},
	} {
		var r Report
		for _, v := range tt.verdicts {
			r.Benchmarks = append(r.Benchmarks, Benchmark{Answer: Answer{Verdict: v}})
		}
		if got := r.Worst(); got != tt.want {
			t.Errorf("%v: %v, want %v", tt.verdicts, got, tt.want)
		}
	}
}

func stepCommits(steps []Step) []int {
	var out []int
	for _, st := range steps {
		out = append(out, st.Commit)
	}
	return out
}

// A reading that contradicts the order of the levels (a commit between
// two steps misread as fast, after one read between the levels) widens
// the answer to a range holding both: it never erases the first step.
func TestContradiction(t *testing.T) {
	w := NewWalk(64)
	for i, s := range map[int]Side{63: Slow, 31: Between, 15: Fast, 23: Between, 19: Between, 17: Fast, 18: Fast,
		47: Slow, 39: Slow, 35: Between, 37: Between, 38: Fast} {
		w.Set(i, s)
	}
	if i, ok := w.Next(); ok {
		t.Errorf("next %d, want the walk over", i)
	}
	if a := w.Answer(); a.Exact() || a.From != 19 || a.To != 39 || a.First != 19 || a.Last != 39 {
		t.Errorf("%+v, want 19..39, both named", a)
	}
}

// A commit that does not build is skipped and named; when it is next to
// the step, the answer is the range that holds both.
func TestSkipped(t *testing.T) {
	for _, tt := range []struct {
		at       int
		skip     []int
		from, to int
	}{
		{5, []int{5}, 5, 6},
		{5, []int{4}, 4, 5},
		{5, []int{4, 5, 6}, 4, 7},
		{5, []int{9}, 5, 5}, // far from the step: stepped around
		{0, []int{0}, 0, 1},
		{15, []int{14}, 14, 15},
	} {
		f := newFake(16, step(tt.at, 3), 0.01)
		f.skip = map[int]bool{}
		for _, s := range tt.skip {
			f.skip[s] = true
		}
		w, steps, err := Drive(16, 2, f.threshold, f.measure)
		if err != nil {
			t.Fatal(err)
		}
		a := w.Answer()
		if a.From != tt.from || a.To != tt.to || a.Verdict != Found {
			t.Errorf("step at %d, %v skipped: %+v, want %d..%d", tt.at, tt.skip, a, tt.from, tt.to)
		}
		for _, s := range a.Skipped {
			if !f.skip[s] || s < a.From || s > a.To {
				t.Errorf("step at %d: skipped %v, want those of %v in the range", tt.at, a.Skipped, tt.skip)
			}
		}
		if tt.from == tt.to && len(a.Skipped) != 0 || tt.from != tt.to && (a.Exact() || len(a.Skipped) == 0) {
			t.Errorf("step at %d, %v skipped: %+v", tt.at, tt.skip, a)
		}
		for _, st := range steps {
			if f.skip[st.Commit] && (st.Side != Skipped || st.Why == "") {
				t.Errorf("commit %d does not build: %+v", st.Commit, st)
			}
		}
	}
}

// An undecided commit measured again is decided when more measurement
// narrows its interval: the walk goes on as if it had been clear.
func TestMeasureMore(t *testing.T) {
	f := newFake(16, step(9, 1.03), 0)
	f.width = func(i, attempt int) float64 {
		if attempt == 0 && i != 15 {
			return 0.05 // straddles 1.0149 from either level
		}
		return 0.002
	}
	w, steps, err := Drive(16, 1, f.threshold, f.measure)
	if err != nil {
		t.Fatal(err)
	}
	a := w.Answer()
	if !a.Exact() || a.From != 9 {
		t.Errorf("%+v, want exactly 9", a)
	}
	for _, st := range steps[1:] {
		if want := atLeastBoundary(2, st, a, 16, 1); st.Attempts != want || st.Side == Undecided {
			t.Errorf("step %+v: want decided at the second attempt (%d in all)", st, want)
		}
	}
}

// Honest intervals of any width, anywhere within their bounds: the answer
// is never a wrong single commit, and its range always holds the step.
func TestNeverWrong(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	exact := 0
	for trial := range 2000 {
		n := 2 + rng.IntN(100)
		at := rng.IntN(n)
		f := newFake(n, step(at, 1.03), 0)
		widths, shifts := map[[2]int]float64{}, map[[2]int]float64{}
		f.width = func(i, attempt int) float64 {
			k := [2]int{i, attempt}
			if _, ok := widths[k]; !ok {
				widths[k] = 0.03 * rng.Float64() * rng.Float64()
				shifts[k] = 2*rng.Float64() - 1
			}
			return widths[k]
		}
		f.shift = func(i, attempt int) float64 { f.width(i, attempt); return shifts[[2]int{i, attempt}] }
		// BAD read anew in every step, now and then too noisy to
		// read as slower at all.
		badWidths, badShifts := map[[2]int]float64{}, map[[2]int]float64{}
		f.badWidth = func(i, attempt int) float64 {
			k := [2]int{i, attempt}
			if _, ok := badWidths[k]; !ok {
				badWidths[k] = 0.03 * rng.Float64() * rng.Float64()
				badShifts[k] = 2*rng.Float64() - 1
			}
			return badWidths[k]
		}
		f.badShift = func(i, attempt int) float64 { f.badWidth(i, attempt); return badShifts[[2]int{i, attempt}] }
		f.skip = map[int]bool{rng.IntN(n): rng.IntN(4) == 0}
		w, _, err := Drive(n, 1, f.threshold, f.measure)
		if err != nil {
			t.Fatal(err)
		}
		a := w.Answer()
		if a.Verdict != Found {
			continue // BAD not judged slower: nothing accused
		}
		if a.From > at || a.To < at {
			t.Fatalf("trial %d: n=%d, step at %d: answer %+v does not hold it", trial, n, at, a)
		}
		// The first commit that is not fast is never after the step, the
		// first slow one never before it.
		if a.First > at || a.Last >= 0 && a.Last < at {
			t.Fatalf("trial %d: step at %d: %+v names a wrong commit", trial, at, a)
		}
		if a.Exact() {
			exact++
		}
	}
	if exact == 0 {
		t.Error("no trial found the exact commit")
	}
	t.Logf("exact in %d of 2000", exact)
}

// A step whose BAD did not read slower (its interval reaching down to the
// threshold, its value even below GOOD's) places no commit: a midpoint
// taken from it would call a commit at GOOD's level slow. The commit is
// measured again, and placed when BAD reads slower.
func TestBadNotSlowerInAStep(t *testing.T) {
	for _, at := range []int{0, 3, 9, 15} {
		f := newFake(16, step(at, 1.03), 0.002)
		f.badWidth = func(i, attempt int) float64 {
			if attempt == 0 {
				return 0.05 // reads -2%, interval -6.7% to +3%
			}
			return 0.002
		}
		f.badShift = func(i, attempt int) float64 {
			if attempt == 0 {
				return -1
			}
			return 0
		}
		w, steps, err := Drive(16, 2, f.threshold, f.measure)
		if err != nil {
			t.Fatal(err)
		}
		a := w.Answer()
		if !a.Exact() || a.From != at {
			t.Errorf("step at %d: %+v, want exactly %d", at, a, at)
		}
		for _, st := range steps[1:] {
			if st.Attempts != atLeastBoundary(2, st, a, 16, 2) || st.Side == Undecided {
				t.Errorf("step at %d: %+v, want placed at the second attempt", at, st)
			}
		}
	}
	// BAD never reads slower after the first step: every commit measured
	// is kept undecided, with why, and the answer is the whole range.
	f := newFake(16, step(5, 1.03), 0.002)
	f.badWidth = func(int, int) float64 { return 0.05 }
	f.badShift = func(int, int) float64 { return -1 }
	w, steps, err := Drive(16, 1, f.threshold, f.measure)
	if err != nil {
		t.Fatal(err)
	}
	if a := w.Answer(); a.From != 0 || a.To != 15 {
		t.Errorf("BAD never slower in a step: %+v, want the whole range", a)
	}
	for _, st := range steps[1:] {
		if st.Side != Undecided || st.Attempts != 2 || !strings.Contains(st.Why, "BAD read -2.0% (-6.8% to +3.0%) against GOOD so far") {
			t.Errorf("%+v, want undecided after 2 attempts, saying why", st)
		}
	}
}

// A comparison that came out inconclusive (a busy machine) leaves its
// commit undecided, never skipped: measured again, placed when more
// measurement tells, else kept undecided with why, inside the range.
func TestInconclusive(t *testing.T) {
	const why = "inconclusive: the machine was busy"
	for _, tt := range []struct {
		name     string
		until    int // attempts that come out inconclusive
		attempts int
		side     Side
	}{
		{"once", 1, boundaryReads, Slow}, // then read as the boundary
		{"every time", 3, 3, Undecided},
	} {
		f := newFake(16, step(9, 1.03), 0.002)
		w, steps, err := Drive(16, 2, f.threshold, func(i, attempt int) (Step, error) {
			st, err := f.measure(i, attempt)
			if i == 9 && attempt < tt.until {
				st.Side, st.Why = Undecided, why
			}
			return st, err
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range steps {
			if st.Commit == 9 && (st.Side != tt.side || st.Attempts != tt.attempts || (st.Side == Undecided) != (st.Why == why)) {
				t.Errorf("%s: %+v, want %v after %d attempts", tt.name, st, tt.side, tt.attempts)
			}
		}
		a := w.Answer()
		if len(a.Skipped) != 0 || a.From > 9 || a.To < 9 || a.Exact() != (tt.side == Slow) {
			t.Errorf("%s: %+v, want 9 in the range, nothing skipped", tt.name, a)
		}
		if tt.side == Undecided && !slices.Equal(a.Undecided, []int{9}) {
			t.Errorf("%s: undecided %v, want [9]", tt.name, a.Undecided)
		}
	}
}

// BAD whose interval still reaches past the threshold is measured again,
// and keeps its reason when it stays so; BAD whose runs cannot be
// compared is not measured again. Both cannot be judged.
func TestBadUnjudged(t *testing.T) {
	for _, tt := range []struct {
		side     Side
		why      string
		attempts int
	}{
		{Undecided, "the interval reaches beyond the threshold", 3},
		{Skipped, "not comparable: not measured on both sides", 1},
	} {
		_, steps, err := Drive(8, 2, 0.05, func(i, attempt int) (Step, error) {
			return Step{Side: tt.side, Why: tt.why}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(steps) != 1 || steps[0].Side != Undecided || steps[0].Why != tt.why || steps[0].Attempts != tt.attempts {
			t.Errorf("BAD %v: %+v, want one step, undecided with its reason after %d attempts", tt.side, steps, tt.attempts)
		}
	}
}

// A stop ends the walk with what was measured before it.
func TestStopped(t *testing.T) {
	f := newFake(16, step(3, 3), 0.01)
	stop := errors.New("stopped")
	_, steps, err := Drive(16, 2, f.threshold, func(i, attempt int) (Step, error) {
		if f.measured == 2 {
			return Step{}, stop
		}
		return f.measure(i, attempt)
	})
	if err != stop || len(steps) != 2 {
		t.Errorf("%v after %d steps, want the stop after 2", err, len(steps))
	}
}

// newDriver is a driver of benches walks of n commits, before any
// reading, measuring with measure.
func newDriver(n, benches int, measure MeasureAll) *driver {
	d := &driver{n: n, retries: 2, threshold: 0.05, measure: measure}
	for range benches {
		d.addWalk()
	}
	return d
}

// A benchmark named twice in one settling is measured once, and keeps
// one step.
func TestSettleOnceEach(t *testing.T) {
	slow := Ratio{1.3, 1.29, 1.31, 0.95}
	var asked [][]Need
	d := newDriver(8, 1, func(i int, needs []Need) ([]Step, error) {
		asked = append(asked, needs)
		return slices.Repeat([]Step{{Mid: slow, Bad: slow}}, len(needs)), nil
	})
	if err := d.settle(3, []int{0, 0}, false, nil); err != nil {
		t.Fatal(err)
	}
	if want := [][]Need{{{0, 0}}}; !slices.EqualFunc(asked, want, slices.Equal) {
		t.Errorf("asked %v, want %v", asked, want)
	}
	if st := d.steps[0]; len(st) != 1 || st[0].Attempts != 1 || st[0].Side != Slow || d.walks[0].Side(3) != Slow {
		t.Errorf("steps %+v, walk at 3 %v: want one slow step", st, d.walks[0].Side(3))
	}
}

// Settling readings against the others measures no benchmark without a
// reading of the commit, and sets nothing for it.
func TestSettleAgainstUnread(t *testing.T) {
	d := newDriver(8, 2, func(i int, needs []Need) ([]Step, error) {
		t.Errorf("commit %d measured for %v", i, needs)
		return nil, nil
	})
	read := Step{Commit: 3, Side: Slow, Attempts: 1}
	d.walks[0].Set(3, Slow)
	d.steps[0], d.at[0][3] = []Step{read}, 0
	if err := d.settle(3, []int{0, 1}, true, nil); err != nil {
		t.Fatal(err)
	}
	if len(d.steps[0]) != 1 || d.steps[0][0] != read || d.walks[0].Side(3) != Slow {
		t.Errorf("read benchmark: steps %+v, walk at 3 %v, want its reading kept", d.steps[0], d.walks[0].Side(3))
	}
	if len(d.steps[1]) != 0 || len(d.at[1]) != 0 || d.walks[1].Side(3) != Unknown {
		t.Errorf("unread benchmark: steps %+v, walk at 3 %v, want nothing set", d.steps[1], d.walks[1].Side(3))
	}
}

func TestClassify(t *testing.T) {
	exact := func(v float64) Ratio { return Ratio{v, v, v, 0.95} }
	for _, tt := range []struct {
		mid, bad Ratio
		want     Side
	}{
		{Ratio{1, 0.99, 1.01, 0.95}, exact(3), Fast},
		{Ratio{2.9, 2.8, 3.0, 0.95}, exact(3), Slow},
		{Ratio{1.7, 1.6, 1.8, 0.95}, exact(3), Between},       // holds √3 = 1.732, far from both levels
		{Ratio{1.8, 1.75, 1.85, 0.95}, exact(3), Between},     // past the midpoint, far short of BAD
		{Ratio{1.012, 1.010, 1.014, 0.95}, exact(1.03), Fast}, // below 1.0149
		{Ratio{1.018, 1.016, 1.020, 0.95}, exact(1.03), Slow}, // beyond it
		{Ratio{1.015, 1.010, 1.020, 0.95}, exact(1.03), Undecided},
		// BAD's interval makes the midpoint a band, √1.02 to √1.04
		// (1.0100 to 1.0198): mid must clear all of it.
		{Ratio{1.018, 1.016, 1.020, 0.95}, Ratio{1.03, 1.02, 1.04, 0.95}, Undecided},
		{Ratio{1.012, 1.010, 1.014, 0.95}, Ratio{1.03, 1.02, 1.04, 0.95}, Undecided},
		{Ratio{1.003, 1.001, 1.009, 0.95}, Ratio{1.03, 1.02, 1.04, 0.95}, Fast},
		{Ratio{1.025, 1.021, 1.029, 0.95}, Ratio{1.03, 1.02, 1.04, 0.95}, Slow},
		// Between the levels, by more than the threshold from each:
		// neither at GOOD's level nor at BAD's, wherever the midpoint.
		{Ratio{1.15, 1.14, 1.16, 0.95}, exact(1.39), Between},
		{Ratio{1.25, 1.24, 1.26, 0.95}, exact(1.39), Between},
		{Ratio{1.15, 1.005, 1.3, 0.95}, exact(1.39), Undecided}, // reaches GOOD's level
		{Ratio{1.009, 1.008, 1.010, 0.95}, exact(1.39), Fast},
		{Ratio{1.38, 1.377, 1.383, 0.95}, exact(1.39), Slow},
		{Ratio{}, exact(3), Undecided},                   // not measured
		{Ratio{1, 0.99, 1.01, 0.95}, Ratio{}, Undecided}, // BAD not measured
	} {
		if got := Classify(tt.mid, tt.bad, 0.01); got != tt.want {
			t.Errorf("Classify(%v, %v, 1%%) = %v, want %v", tt.mid, tt.bad, got, tt.want)
		}
	}
}

// A commit with a position between GOOD and BAD is placed by it: the
// reading of the real walk that Classify left undecided after seven
// measurements (+2.6%, +1.5% to +3.0%, against BAD at +2.9% to +3.3%) is
// slow when its position lies above the middle, and a position that holds
// 1 leaves it undecided however the band reads, unless it lies clear of
// both levels (1/√BAD and √BAD, BAD at its interval's low end): then the
// commit is between them. A position alone does not place a commit its
// ratio to GOOD (or BAD) contradicts.
func TestClassifyByPosition(t *testing.T) {
	bad := Ratio{1.031, 1.029, 1.033, 0.95}
	for _, tt := range []struct {
		mid, pos Ratio
		bad      Ratio
		want     Side
	}{
		{Ratio{1.026, 1.015, 1.030, 0.95}, Ratio{1.011, 1.002, 1.016, 0.95}, bad, Slow},
		{Ratio{1.003, 0.995, 1.012, 0.95}, Ratio{0.988, 0.979, 0.997, 0.95}, bad, Fast},
		{Ratio{1.026, 1.015, 1.030, 0.95}, Ratio{1.011, 0.998, 1.016, 0.95}, bad, Undecided}, // +1.1% from the middle (-0.2% to +1.6%)
		{Ratio{1.018, 1.016, 1.020, 0.95}, Ratio{1.003, 0.999, 1.006, 0.95}, bad, Between},   // clear of both levels (Classify: slow)
		{Ratio{1.018, 1.010, 1.026, 0.95}, Ratio{1.003, 0.985, 1.012, 0.95}, bad, Undecided}, // reaches GOOD's level (0.9858)
		{Ratio{1.004, 0.998, 1.010, 0.95}, Ratio{1.011, 1.002, 1.016, 0.95}, bad, Undecided}, // not slower than GOOD
		{Ratio{1.025, 1.012, 1.030, 0.95}, Ratio{0.988, 0.979, 0.997, 0.95}, bad, Undecided}, // reaches BAD's level
		{Ratio{1.15, 1.14, 1.16, 0.95}, Ratio{0.97, 0.96, 0.98, 0.95}, Ratio{1.39, 1.38, 1.40, 0.95}, Between},
	} {
		st := Step{Mid: tt.mid, Bad: tt.bad, Position: &tt.pos}
		got, why := classifyStep(st, 0.01)
		if got != tt.want || (got == Undecided) != (why != "") {
			t.Errorf("mid %v, position %v, BAD %v: %v (%q), want %v, saying why when undecided", tt.mid, tt.pos, tt.bad, got, why, tt.want)
		}
	}
	_, why := classifyStep(Step{Mid: Ratio{1.026, 1.015, 1.030, 0.95}, Bad: bad, Position: &Ratio{1.011, 0.998, 1.016, 0.95}}, 0.01)
	if want := "+1.1% from the middle of GOOD and BAD (-0.20% to +1.6%)"; why != want {
		t.Errorf("undecided by its position: %q, want %q", why, want)
	}
	st := Step{Mid: Ratio{1.026, 1.015, 1.030, 0.95}, Bad: bad}
	if got, _ := classifyStep(st, 0.01); got != Undecided {
		t.Errorf("no position: %v, want undecided by the band, as before", got)
	}
}

// With honest intervals (each holds its truth), a commit at GOOD's level
// is never placed slow and one at BAD's never fast, however BAD's own
// reading falls within its interval: a midpoint taken from BAD's value
// alone places a slow commit fast when BAD reads high (+7% for a +3%
// step puts the midpoint at +3.4%, beyond a slow commit read at +2.5% to
// +3.1%).
func TestClassifyHonest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100000 {
		b := 1 + 0.1*rng.Float64()
		bad := honest(b, 0.05*rng.Float64(), 2*rng.Float64()-1)
		truth, wrong := 1.0, Slow
		if rng.IntN(2) == 0 {
			truth, wrong = b, Fast
		}
		mid := honest(truth, 0.05*rng.Float64(), 2*rng.Float64()-1)
		if got := Classify(mid, bad, 0.01); got == wrong {
			t.Fatalf("trial %d: a commit at %.4f with BAD at %.4f: Classify(%v, %v) = %v", trial, truth, b, mid, bad, got)
		}
	}
}

func ExampleWalk() {
	w := NewWalk(8)
	truth := step(5, 2) // commit 5 made it twice as slow
	for {
		i, ok := w.Next()
		if !ok {
			break
		}
		side := Classify(Ratio{truth(i), truth(i) * 0.98, truth(i) * 1.02, 0.95}, Ratio{2, 1.98, 2.02, 0.95}, 0.05)
		fmt.Println("measure", i, side)
		w.Set(i, side)
	}
	fmt.Printf("%+v\n", w.Answer())
	// Output:
	// measure 7 slow
	// measure 3 fast
	// measure 5 slow
	// measure 4 fast
	// {Verdict:found From:5 To:5 First:5 Last:5 Skipped:[] Undecided:[]}
}

// A report reads back as it was written: the sides and the verdict as
// words.
func TestReportJSON(t *testing.T) {
	f := newFake(8, step(3, 2), 0.01)
	f.skip = map[int]bool{2: true}
	w, steps, _ := Drive(8, 1, f.threshold, f.measure)
	in := Report{Commits: make([]Commit, 8), Benchmarks: []Benchmark{{Name: "Work", Steps: steps, Answer: w.Answer()}}, Runs: len(steps), Threshold: 0.05}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out Report
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(out)
	if string(again) != string(data) || !strings.Contains(string(data), `"side":"skipped"`) || !strings.Contains(string(data), `"verdict":"found"`) ||
		!strings.Contains(string(data), `"benchmarks":[{"benchmark":"Work","steps":[`) {
		t.Errorf("round trip:\n%s\n%s", data, again)
	}
}
