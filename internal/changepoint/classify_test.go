package changepoint

import (
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
)

// seeds is how many seeded series each case of TestClassify draws.
const seeds = 40

func TestClassify(t *testing.T) {
	for _, tt := range []struct {
		name  string
		n     int
		sigma float64
		level func(*rand.Rand, int) float64
		edit  func([]float64) // applied after drawing, if set
		want  []Class         // classes every seed must get
		most  Class           // and at least minMost of the seeds get this one
		// changes, if set, are where the changes must be, within ±1.
		changes []int
	}{
		{name: "flat 1%", n: 31, sigma: 0.01, level: flat, want: []Class{Flat}},
		{name: "flat 3%", n: 31, sigma: 0.03, level: flat, want: []Class{Flat}},
		{name: "step up 20% at 15", n: 31, sigma: 0.02, level: step(15, 0.2), want: []Class{Slowdown}, changes: []int{15}},
		{name: "step down 20% at 10", n: 31, sigma: 0.02, level: step(10, -0.2), want: []Class{Warmup}, changes: []int{10}},
		// Within 1% of its plateau from sample 8 on. At 2% noise about 2%
		// of such series look flat (see TestSimulatedRates).
		{name: "warm-up decay 1+0.5·exp(-i/2)", n: 31, sigma: 0.02, level: decay(0.5, 2), want: []Class{Warmup, Flat}, most: Warmup},
		{name: "warm-up decay, 1% noise", n: 31, sigma: 0.01, level: decay(0.5, 2), want: []Class{Warmup}},
		{name: "last third +10%, 1% noise", n: 31, sigma: 0.01, level: step(21, 0.1), want: []Class{Slowdown}, changes: []int{21}},
		// Bimodal noise has no order: never a warm-up or a slowdown.
		{name: "bimodal 50/50 at +10%", n: 31, sigma: 0.02, level: bimodal(0.1), want: []Class{Flat, NoSteadyState}, most: Flat},
		{name: "bimodal 50/50 at +10%, 1% noise", n: 100, sigma: 0.01, level: bimodal(0.1), want: []Class{Flat, NoSteadyState}, most: Flat},
		{name: "one outlier ×3", n: 31, sigma: 0.02, level: flat, edit: func(xs []float64) { xs[17] *= 3 }, want: []Class{Flat}},
		{name: "outliers at both ends", n: 31, sigma: 0.02, level: flat, edit: func(xs []float64) { xs[0] *= 2; xs[30] *= 1.5 }, want: []Class{Flat}},
		{name: "two adjacent outliers", n: 31, sigma: 0.02, level: flat, edit: func(xs []float64) { xs[29] *= 1.5; xs[30] *= 1.6 }, want: []Class{Flat}},
		{name: "one fast outlier", n: 31, sigma: 0.02, level: flat, edit: func(xs []float64) { xs[3] *= 0.5 }, want: []Class{Flat}},
		// A hog over the middle third: the run came back to its first
		// level, so it has no one steady state.
		{name: "hog +40% over the middle third", n: 31, sigma: 0.02, level: hog(10, 21, 0.4), want: []Class{NoSteadyState}, changes: []int{10, 21}},
		{name: "too short last segment", n: 31, sigma: 0.02, level: step(26, 0.3), want: []Class{NoSteadyState}, changes: []int{26}},
		// Up, down, up, down, then a long fast stretch: three turns.
		{name: "many changes", n: 100, sigma: 0.01, level: blocks(15, 60, 0.3), want: []Class{NoSteadyState}, changes: []int{15, 30, 45, 60}},
		// Blocks too short to pay for their changepoints read as one noisy
		// stretch that quietens: a warm-up when the noisy stretch's median
		// falls above the quiet level, flat when it falls on it.
		{name: "short blocks, then quiet", n: 60, sigma: 0.01, level: blocks(6, 36, 0.2), want: []Class{Warmup, Flat}, most: Warmup},
		{name: "variance triples in the middle", n: 31, sigma: 0.02, level: flat, edit: func(xs []float64) {
			for i := 10; i < 21; i++ {
				xs[i] = 100 + 3*(xs[i]-100)
			}
		}, want: []Class{Flat}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nMost := 0
			for seed := range uint64(seeds) {
				xs := series(seed, tt.n, tt.sigma, tt.level)
				if tt.edit != nil {
					tt.edit(xs)
				}
				r := Classify(xs)
				checkResult(t, xs, r)
				if !slices.Contains(tt.want, r.Class) {
					t.Errorf("seed %d: %s (%s), want one of %v", seed, r.Class, r.Reason, tt.want)
				}
				if r.Class == tt.most {
					nMost++
				}
				if tt.changes != nil && !near(r.Changes, tt.changes) {
					t.Errorf("seed %d: changes %v, want %v ±1 (%s)", seed, r.Changes, tt.changes, r.Reason)
				}
			}
			if tt.most != "" && nMost < seeds*9/10 {
				t.Errorf("%s for %d of %d seeds, want at least 90%%", tt.most, nMost, seeds)
			}
		})
	}
}

// blocks alternates between 1 and 1+d every width samples before sample
// until, and is 1 from there on.
func blocks(width, until int, d float64) func(*rand.Rand, int) float64 {
	return func(_ *rand.Rand, i int) float64 {
		if i < until && (i/width)%2 == 1 {
			return 1 + d
		}
		return 1
	}
}

func near(got, want []int) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] < want[i]-1 || got[i] > want[i]+1 {
			return false
		}
	}
	return true
}

// TestClassifyResult pins the fields a finding is built from.
func TestClassifyResult(t *testing.T) {
	warm := Classify(series(3, 31, 0.01, step(9, -0.12)))
	if warm.Class != Warmup || warm.SteadyFrom != 9 || warm.Ref != 0 || math.Abs(warm.Change+0.12) > 0.02 {
		t.Errorf("warm-up: %+v", warm)
	}
	if want := regexp.MustCompile(`^the last 22 of 31 samples run 1[0-4]% faster than the first 9$`); !want.MatchString(warm.Reason) {
		t.Errorf("warm-up Reason %q, want it to match %v", warm.Reason, want)
	}

	// A warm-up, then a slowdown: the steady state is compared with the
	// fastest segment, not the first.
	xs := series(4, 40, 0.01, func(_ *rand.Rand, i int) float64 {
		switch {
		case i < 8:
			return 1.5
		case i < 25:
			return 1
		}
		return 1.1
	})
	slow := Classify(xs)
	if slow.Class != Slowdown || slow.SteadyFrom != 25 || slow.Ref != 1 || math.Abs(slow.Change-0.10) > 0.02 {
		t.Errorf("slowdown: %+v", slow)
	}
	if want := regexp.MustCompile(`^the last 15 of 40 samples run \d+(\.\d)?% slower than samples 8-24$`); !want.MatchString(slow.Reason) {
		t.Errorf("slowdown Reason %q, want it to match %v", slow.Reason, want)
	}

	hogged := Classify(series(5, 31, 0.02, hog(10, 21, 0.4)))
	if hogged.Class != NoSteadyState || hogged.SteadyFrom != -1 || hogged.Ref != -1 || hogged.Change != 0 {
		t.Errorf("hog: %+v", hogged)
	}
	if want := regexp.MustCompile(`^samples 10-20 ran \d+% slower, then the run came back to .* the first 10: it did not settle into one state$`); !want.MatchString(hogged.Reason) {
		t.Errorf("hog Reason %q, want it to match %v", hogged.Reason, want)
	}

	// A warm-up, a hog, then back to the warm level: the Reason names the
	// hog, not the warm-up.
	xs = series(7, 40, 0.01, func(_ *rand.Rand, i int) float64 {
		switch {
		case i < 6:
			return 1.5
		case i >= 18 && i < 28:
			return 1.4
		}
		return 1
	})
	back := Classify(xs)
	if want := regexp.MustCompile(`^samples 18-27 ran (39|40|41)% slower, then the run came back to the level of samples 6-17: it did not settle into one state$`); back.Class != NoSteadyState || !want.MatchString(back.Reason) {
		t.Errorf("warm-up, hog, back: %s %q, want no steady state matching %v", back.Class, back.Reason, want)
	}

	fl := Classify(series(6, 31, 0.02, flat))
	if fl.Class != Flat || fl.SteadyFrom != 0 || !fl.Judged || len(fl.Segments) != 1 || fl.Reason != "no change in 31 samples" {
		t.Errorf("flat: %+v", fl)
	}
}

// TestClassifyUnjudged: series that cannot be judged are Flat over one
// segment, not judged, with a Reason that says why.
func TestClassifyUnjudged(t *testing.T) {
	ok := series(1, 31, 0.02, step(10, -0.3))
	for _, tt := range []struct {
		name   string
		xs     []float64
		reason string
	}{
		{"empty", nil, "too few samples to find a change: 0 (need 10)"},
		{"too few", ok[:7], "too few samples to find a change: 7 (need 10)"},
		{"NaN", append(slices.Clone(ok), math.NaN()), "cannot judge: sample 31 is NaN; times must be positive and finite"},
		{"+Inf", slices.Insert(slices.Clone(ok), 3, math.Inf(1)), "cannot judge: sample 3 is +Inf; times must be positive and finite"},
		{"zero", slices.Insert(slices.Clone(ok), 0, 0), "cannot judge: sample 0 is 0; times must be positive and finite"},
		{"negative", slices.Insert(slices.Clone(ok), 5, -2), "cannot judge: sample 5 is -2; times must be positive and finite"},
	} {
		r := Classify(tt.xs)
		checkResult(t, tt.xs, r)
		if r.Class != Flat || r.Judged || r.Reason != tt.reason || r.SteadyFrom != 0 {
			t.Errorf("%s: %+v, want Flat, not judged, Reason %q", tt.name, r, tt.reason)
		}
	}
	if r := Classify(slices.Repeat([]float64{7}, 31)); r.Class != Flat || !r.Judged {
		t.Errorf("constant series: %+v, want a judged Flat", r)
	}
}

// checkResult fails t unless r is a well-formed classification of xs.
func checkResult(t *testing.T, xs []float64, r Result) {
	t.Helper()
	n := len(xs)
	if !slices.Contains([]Class{Flat, Warmup, Slowdown, NoSteadyState}, r.Class) {
		t.Fatalf("class %q", r.Class)
	}
	if r.Reason == "" {
		t.Errorf("%s with no Reason", r.Class)
	}
	for i, c := range r.Changes {
		if c <= 0 || c >= n || (i > 0 && c <= r.Changes[i-1]) {
			t.Fatalf("changes %v not strictly increasing inside (0, %d)", r.Changes, n)
		}
	}
	if n == 0 {
		if len(r.Segments) != 0 {
			t.Fatalf("segments %v for no samples", r.Segments)
		}
	} else {
		if len(r.Segments) != len(r.Changes)+1 {
			t.Fatalf("%d segments for %d changes", len(r.Segments), len(r.Changes))
		}
		for i, s := range r.Segments {
			start, end := 0, n
			if i > 0 {
				start = r.Changes[i-1]
			}
			if i < len(r.Changes) {
				end = r.Changes[i]
			}
			if s.Start != start || s.End != end {
				t.Fatalf("segment %d is [%d,%d), want [%d,%d)", i, s.Start, s.End, start, end)
			}
		}
	}
	last := 0
	if len(r.Segments) > 0 {
		last = r.Segments[len(r.Segments)-1].Start
	}
	switch r.Class {
	case Flat:
		if r.SteadyFrom != 0 || len(r.Changes) != 0 || r.Ref != -1 || r.Change != 0 {
			t.Errorf("flat with SteadyFrom %d, changes %v, Ref %d, Change %v", r.SteadyFrom, r.Changes, r.Ref, r.Change)
		}
	case NoSteadyState:
		if r.SteadyFrom != -1 || r.Ref != -1 || r.Change != 0 || !r.Judged {
			t.Errorf("no steady state with SteadyFrom %d, Ref %d, Change %v, judged %v", r.SteadyFrom, r.Ref, r.Change, r.Judged)
		}
	case Warmup, Slowdown:
		if r.SteadyFrom != last || last <= 0 || !r.Judged {
			t.Errorf("%s with SteadyFrom %d, last segment from %d", r.Class, r.SteadyFrom, last)
		}
		if r.Ref < 0 || r.Ref >= len(r.Segments)-1 {
			t.Fatalf("%s with Ref %d of %d segments", r.Class, r.Ref, len(r.Segments))
		}
		if (r.Class == Warmup) != (r.Change < 0) || r.Change == 0 {
			t.Errorf("%s with Change %v", r.Class, r.Change)
		}
	}
}
