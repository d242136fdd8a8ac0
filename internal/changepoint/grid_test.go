package changepoint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestGridSize: a series up to MaxCandidates long is searched at every
// sample, a longer one at no more than MaxCandidates positions.
func TestGridSize(t *testing.T) {
	for _, n := range []int{6, 31, MaxCandidates - 1, MaxCandidates, MaxCandidates + 1, 25_000, 100_000, 1_000_000, 1_000_003} {
		step := gridStep(n, MaxCandidates)
		pos := grid(n, step)
		if n <= MaxCandidates && step != 1 {
			t.Errorf("n %d: step %d, want every sample", n, step)
		}
		if starts := len(pos) - 1; starts > MaxCandidates {
			t.Errorf("n %d: %d positions weighed, want at most %d", n, starts, MaxCandidates)
		}
		if pos[0] != 0 || pos[len(pos)-1] != n || !slices.IsSorted(pos) {
			t.Errorf("n %d: grid from %d to %d, want 0 to %d ascending", n, pos[0], pos[len(pos)-1], n)
		}
	}
}

// gridCases are series with changes at samples off any grid: steps up and
// down, a hog, a staircase warm-up and a change of variance alone, with
// every segment longer than the grid step the tests use.
func gridCases(n int) []struct {
	name string
	xs   []float64
} {
	var cases []struct {
		name string
		xs   []float64
	}
	add := func(name string, xs []float64) {
		cases = append(cases, struct {
			name string
			xs   []float64
		}{name, xs})
	}
	for seed := range uint64(2) {
		add(fmt.Sprintf("flat/%d", seed), series(seed, n, 0.02, flat))
		add(fmt.Sprintf("step +5%% at 1237/%d", seed), series(seed, n, 0.02, step(1237, 0.05)))
		add(fmt.Sprintf("step -8%% at 401/%d", seed), series(seed, n, 0.02, step(401, -0.08)))
		add(fmt.Sprintf("hog +20%% over 1001-1777/%d", seed), series(seed, n, 0.02, hog(1001, 1777, 0.2)))
		add(fmt.Sprintf("staircase/%d", seed), series(seed, n, 0.01, func(_ *rand.Rand, i int) float64 {
			switch {
			case i < 211:
				return 1.3
			case i < 517:
				return 1.15
			case i < 1003:
				return 1.05
			}
			return 1
		}))
		xs := series(seed, n, 0.01, flat)
		for i := 1499; i < n; i++ {
			xs[i] = 100 + 4*(xs[i]-100)
		}
		add(fmt.Sprintf("variance ×4 from 1499/%d", seed), xs)
	}
	return cases
}

// TestGridMatchesExact: on series whose segments are longer than a grid
// step, the search on a grid of 120 positions, with its refinement, finds
// the changes the exact search over all 2400 samples finds, to the
// sample, and Classify says the same of them.
func TestGridMatchesExact(t *testing.T) {
	const n, most = 2400, 120
	if gridStep(n, most) < 10 {
		t.Fatalf("grid step %d: the test wants changes well off the grid", gridStep(n, most))
	}
	for _, c := range gridCases(n) {
		ys := logs(c.xs)
		floor := varianceFloor(ys)
		sigma := noiseSigma(ys, floor)
		exact := detectOn(ys, floor, sigma, DefaultPenalty(n), n)
		fast := detectOn(ys, floor, sigma, DefaultPenalty(n), most)
		if !slices.Equal(fast, exact) {
			t.Errorf("%s: grid search finds %v, exact search %v", c.name, fast, exact)
		}
		if want, got := classify(c.xs, n), classify(c.xs, most); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: on the grid %s at %v (%s), exactly %s at %v (%s)",
				c.name, got.Class, got.Changes, got.Reason, want.Class, want.Changes, want.Reason)
		}
	}
}

// TestGridFindsChanges: the cases above have the changes they were built
// with, so that TestGridMatchesExact compares searches that found
// something. The weaker changes' likeliest place is a sample or three off
// where they were built (the exact search puts them there too).
func TestGridFindsChanges(t *testing.T) {
	want := map[string][]int{
		"flat": nil, "step +5% at 1237": {1237}, "step -8% at 401": {401},
		"hog +20% over 1001-1777": {1001, 1777}, "staircase": {211, 517, 1003},
		"variance ×4 from 1499": {1499},
	}
	for _, c := range gridCases(2400) {
		name := c.name[:len(c.name)-2]
		ys := logs(c.xs)
		floor := varianceFloor(ys)
		got := detectOn(ys, floor, noiseSigma(ys, floor), DefaultPenalty(len(ys)), 120)
		if !nearWithin(got, want[name], 3) {
			t.Errorf("%s: changes %v, want %v ±3", c.name, got, want[name])
		}
	}
}

// TestClassifyLong: a long series, searched on the grid, is classified as
// its shape is, with its changes placed to the sample or next to it.
func TestClassifyLong(t *testing.T) {
	const n = 200_000
	for _, tt := range []struct {
		name    string
		level   func(*rand.Rand, int) float64
		class   Class
		changes []int
	}{
		{"flat", flat, Flat, nil},
		{"step +10% at 123457", step(123_457, 0.1), Slowdown, []int{123_457}},
		{"step -10% at 777", step(777, -0.1), Warmup, []int{777}},
		{"hog +10% over 50001-90001", hog(50_001, 90_001, 0.1), NoSteadyState, []int{50_001, 90_001}},
	} {
		xs := series(1, n, 0.02, tt.level)
		r := Classify(xs)
		checkResult(t, xs, r)
		if r.Class != tt.class || !near(r.Changes, tt.changes) {
			t.Errorf("%s: %s at %v (%s), want %s at %v ±1", tt.name, r.Class, r.Changes, r.Reason, tt.class, tt.changes)
		}
	}
}

// TestRefineNeverWorsens: moving the changes found on a grid never raises
// the total cost, and keeps every segment at least MinSegment long.
func TestRefineNeverWorsens(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 3))
		n := 200 + r.IntN(800)
		ys := make([]float64, n)
		level := 0.0
		for i := range ys {
			if r.IntN(60) == 0 {
				level = r.NormFloat64() * 0.05
			}
			ys[i] = level + 0.02*r.NormFloat64()
		}
		floor := varianceFloor(ys)
		c := newCosts(ys, floor)
		step := 2 + r.IntN(20)
		pen := DefaultPenalty(n)
		cps := c.pelt(grid(n, step), pen, MinSegment)
		before := totalCost(c, cps, n, pen)
		cps = c.refine(cps, n, step, MinSegment, pen)
		if after := totalCost(c, cps, n, pen); after > before {
			t.Errorf("seed %d: refining raised the cost from %v to %v", seed, before, after)
		}
		if !increasingInside(cps, n) {
			t.Errorf("seed %d: refined changes %v leave a segment shorter than %d", seed, cps, MinSegment)
		}
	}
}

// nearWithin reports whether got has as many changes as want, each
// within tol samples of want's.
func nearWithin(got, want []int, tol int) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] < want[i]-tol || got[i] > want[i]+tol {
			return false
		}
	}
	return true
}

func totalCost(c costs, cps []int, n int, pen float64) float64 {
	bounds := append(append([]int{0}, cps...), n)
	sum := -pen
	for i := 1; i < len(bounds); i++ {
		sum += c.cost(bounds[i-1], bounds[i]) + pen
	}
	return sum
}

// TestMergeSorted: merging two sorted runs in place sorts the whole.
func TestMergeSorted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var buf []float64
	for range 200 {
		s := make([]float64, r.IntN(40))
		for i := range s {
			s[i] = float64(r.IntN(10))
		}
		m := 0
		if len(s) > 0 {
			m = r.IntN(len(s) + 1)
		}
		slices.Sort(s[:m])
		slices.Sort(s[m:])
		want := slices.Sorted(slices.Values(s))
		buf = mergeSorted(s, m, buf)
		if !slices.Equal(s, want) {
			t.Fatalf("merge at %d: %v, want %v", m, s, want)
		}
	}
}

// BenchmarkDetect times Detect on a flat series, PELT's worst case (it can
// prune nothing), on one with a step and on a warm-up, up to the 100000
// samples --samples allows; "exact" is the search over every sample that
// Detect used for any length before it bounded the work, for the ratio.
func BenchmarkDetect(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		for _, sc := range []struct {
			name  string
			level func(*rand.Rand, int) float64
		}{
			{"flat", flat},
			{"step", step(n*2/3+7, 0.05)},
			{"warmup", decay(0.5, float64(n)/15)},
		} {
			xs := series(1, n, 0.02, sc.level)
			b.Run(fmt.Sprintf("n=%d/%s", n, sc.name), func(b *testing.B) {
				for b.Loop() {
					Detect(xs, DefaultPenalty(n))
				}
			})
			if n > 10_000 {
				continue // the exact search takes a minute or more here
			}
			ys := logs(xs)
			floor := varianceFloor(ys)
			sigma := noiseSigma(ys, floor)
			b.Run(fmt.Sprintf("n=%d/%s/exact", n, sc.name), func(b *testing.B) {
				for b.Loop() {
					detectOn(ys, floor, sigma, DefaultPenalty(n), n)
				}
			})
		}
	}
}
