package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestDefaultPenalty(t *testing.T) {
	if got, want := DefaultPenalty(31), 15*math.Log(31); got != want {
		t.Errorf("DefaultPenalty(31) = %v, want 15·log(31) = %v", got, want)
	}
	if DefaultPenalty(1) != 0 || DefaultPenalty(0) != 0 {
		t.Error("DefaultPenalty of fewer than 2 samples must be 0")
	}
}

// optimal is optimal partitioning without pruning: the O(n²) dynamic
// pelt returns the changepoints minimising the penalised normal
// mean-and-variance cost of ys with segments of at least minSeg samples,
// weighing every sample as a changepoint: the exact search the grid's is
// held to.
func pelt(ys []float64, pen float64, minSeg int, floor float64) []int {
	return newCosts(ys, floor).pelt(grid(len(ys), 1), pen, minSeg)
}

// program PELT must agree with. It returns the least penalised cost.
func optimal(ys []float64, pen float64, minSeg int, floor float64) float64 {
	n := len(ys)
	f := make([]float64, n+1)
	f[0] = -pen
	for t := 1; t <= n; t++ {
		f[t] = math.Inf(1)
		for s := 0; s <= t-minSeg; s++ {
			if s != 0 && s < minSeg {
				continue
			}
			f[t] = min(f[t], f[s]+segCost(ys[s:t], floor)+pen)
		}
	}
	return f[n]
}

// segCost is the cost pelt gives one segment, computed directly.
func segCost(ys []float64, floor float64) float64 {
	m := float64(len(ys))
	var mean, v float64
	for _, y := range ys {
		mean += y
	}
	mean /= m
	for _, y := range ys {
		v += (y - mean) * (y - mean)
	}
	v /= m
	if v >= floor {
		return m * math.Log(v)
	}
	return m * (math.Log(floor) + v/floor - 1)
}

// TestPELTIsExact checks that pruning never loses the optimum: the
// segmentation PELT returns costs what optimal partitioning finds, on
// series with and without changes and at several penalties.
func TestPELTIsExact(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		n := 6 + r.IntN(60)
		ys := make([]float64, n)
		level, sd := 0.0, 0.02
		for i := range ys {
			if r.IntN(8) == 0 {
				level, sd = r.NormFloat64()*0.1, 0.005+0.03*r.Float64()
			}
			ys[i] = level + sd*r.NormFloat64()
		}
		if seed%5 == 0 { // ties, to exercise the floor
			for i := range ys {
				ys[i] = math.Round(ys[i]*50) / 50
			}
		}
		floor := varianceFloor(ys)
		for _, pen := range []float64{0, 5, DefaultPenalty(n)} {
			cps := pelt(ys, pen, MinSegment, floor)
			bounds := append(append([]int{0}, cps...), n)
			got := -pen
			for i := 1; i < len(bounds); i++ {
				if bounds[i]-bounds[i-1] < MinSegment {
					t.Fatalf("seed %d: segment %d-%d shorter than %d", seed, bounds[i-1], bounds[i], MinSegment)
				}
				got += segCost(ys[bounds[i-1]:bounds[i]], floor) + pen
			}
			if want := optimal(ys, pen, MinSegment, floor); math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
				t.Errorf("seed %d n %d pen %.1f: PELT cost %v (changes %v), optimum %v", seed, n, pen, got, cps, want)
			}
		}
	}
}

func TestDetectFindsSteps(t *testing.T) {
	for _, tt := range []struct {
		name string
		xs   []float64
		want []int
	}{
		{"flat", series(1, 40, 0.02, flat), nil},
		{"up 30% at 20", series(1, 40, 0.02, step(20, 0.3)), []int{20}},
		{"down 30% at 12", series(2, 40, 0.02, step(12, -0.3)), []int{12}},
		{"hog 40% over 13-26", series(3, 40, 0.02, hog(13, 27, 0.4)), []int{13, 27}},
	} {
		if got := Detect(tt.xs, DefaultPenalty(len(tt.xs))); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Detect = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestDetectIgnoresSpikes is why Detect clips: without it one spike at
// either end of a flat series is cut off into a segment of its own nearly
// every time, whatever the minimum segment length.
func TestDetectIgnoresSpikes(t *testing.T) {
	const n = 31
	rawHits := 0
	for seed := range uint64(50) {
		for _, pos := range [][]int{{0}, {1}, {15}, {29}, {30}, {0, 1}, {15, 16}, {29, 30}, {4, 20}, {0, 30}} {
			for _, mag := range []float64{1.2, 1.5, 3, 100, 0.5} {
				xs := series(seed, n, 0.02, flat)
				for _, p := range pos {
					xs[p] *= mag
				}
				if got := Detect(xs, DefaultPenalty(n)); got != nil {
					t.Errorf("seed %d, ×%v at %v: Detect = %v, want none", seed, mag, pos, got)
				}
				if len(pos) == 1 && (pos[0] == 0 || pos[0] == n-1) && mag == 1.5 {
					if len(pelt(logs(xs), DefaultPenalty(n), 4, floorSigma*floorSigma)) > 0 {
						rawHits++
					}
				}
			}
		}
	}
	if rawHits < 90 {
		t.Errorf("unclipped PELT cut off a ×1.5 end spike in only %d of 100 series; the clipping may no longer be needed", rawHits)
	}
}

func TestDetectRejects(t *testing.T) {
	ok := series(1, 20, 0.02, step(10, 0.5))
	for _, tt := range []struct {
		name string
		xs   []float64
		pen  float64
	}{
		{"NaN", append(slices.Clone(ok), math.NaN()), 10},
		{"+Inf", append(slices.Clone(ok), math.Inf(1)), 10},
		{"zero", append(slices.Clone(ok), 0), 10},
		{"negative", append(slices.Clone(ok), -5), 10},
		{"too short", ok[:2*MinSegment-1], 0},
		{"NaN penalty", ok, math.NaN()},
		{"infinite penalty", ok, math.Inf(1)},
	} {
		if got := Detect(tt.xs, tt.pen); got != nil {
			t.Errorf("%s: Detect = %v, want nil", tt.name, got)
		}
	}
	if got := Detect(ok, -1); !slices.Equal(got, Detect(ok, 0)) {
		t.Errorf("a negative penalty must count as 0: %v vs %v", got, Detect(ok, 0))
	}
}

// TestDetectIsScaleFree: the same run in ns, s or ps has the same changes.
func TestDetectIsScaleFree(t *testing.T) {
	for seed := range uint64(20) {
		xs := series(seed, 31, 0.02, decay(0.5, 2))
		want := Detect(xs, DefaultPenalty(31))
		for _, c := range []float64{1e-9, 1e-3, 1e3, 1e9} {
			ys := make([]float64, len(xs))
			for i, x := range xs {
				ys[i] = x * c
			}
			if got := Detect(ys, DefaultPenalty(31)); !slices.Equal(got, want) {
				t.Errorf("seed %d, ×%g: Detect = %v, want %v", seed, c, got, want)
			}
		}
	}
}

// round3 rounds to three significant digits, as Go's benchmark output does.
func round3(xs []float64) {
	for i, x := range xs {
		p := math.Pow(10, math.Floor(math.Log10(x))-2)
		xs[i] = math.Round(x/p) * p
	}
}

// TestDetectTies: runs of equal samples, from a constant series or from
// times printed to three digits, must not look like segments.
func TestDetectTies(t *testing.T) {
	if got := Detect(slices.Repeat([]float64{42}, 31), DefaultPenalty(31)); got != nil {
		t.Errorf("constant series: Detect = %v, want none", got)
	}
	for seed := range uint64(50) {
		for _, scale := range []float64{0.015, 1.5, 10} { // 1.5 ns, 150 ns, 1 µs
			xs := series(seed, 31, 0.002, flat)
			for i := range xs {
				xs[i] *= scale
			}
			round3(xs)
			if got := Detect(xs, DefaultPenalty(31)); got != nil {
				t.Errorf("seed %d, quantised flat at %g: Detect = %v, want none", seed, xs[0], got)
			}
		}
		xs := series(seed, 31, 0.002, step(20, 0.05))
		round3(xs)
		if got := Detect(xs, DefaultPenalty(31)); !slices.Equal(got, []int{20}) {
			t.Errorf("seed %d, quantised 5%% step at 20: Detect = %v", seed, got)
		}
	}
}

// The analysis reads a caller's series and never reorders it: the medians
// it takes of windows and segments are of copies (a median that sorted
// in place would leave a report's series in sorted order).
func TestInputUnchanged(t *testing.T) {
	xs := series(7, 120, 0.02, step(60, 0.3))
	ws := make([]float64, len(xs))
	for i := range ws {
		ws[i] = 1 + float64(i%3)
	}
	orig, origW := slices.Clone(xs), slices.Clone(ws)
	Detect(xs, DefaultPenalty(len(xs)))
	DetectWeighted(xs, ws, DefaultPenalty(len(xs)))
	Classify(xs)
	if !slices.Equal(xs, orig) || !slices.Equal(ws, origW) {
		t.Error("the analysis changed its input")
	}
}
