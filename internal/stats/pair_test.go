package stats

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/stats/statstest"
	"github.com/benchy-dev/benchy/internal/units"
)

// The estimates alone; the verdicts drawn from them are tested in
// internal/compare (verdict_test.go).

func excludesOne(e Estimate) bool { return e.CIHigh < 1 || e.CILow > 1 }

// Each estimate's interval holds its ratio, and where the test is the one
// the interval inverts (all but UnpairedAt's Mann-Whitney) the interval
// excludes 1 exactly when P is below 1 minus its level: at 95%, at a
// family's level and at a look's share.
func TestIntervalAgreesWithItsTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(90, 90))
	excluded := 0
	for i := range uint64(200) {
		change := 0.005 * float64(i%5)
		base := statstest.Noisy(100+i, 31, 100, 0.01)
		level := FamilyLevel(1+int(i%3), DefaultAlpha)
		old, cur := statstest.Runs(rng, 1+int(i%4), 11, 100, 0.01, 0.005), statstest.Runs(rng, 1+int(i%3), 11, 100*(1+change), 0.01, 0.005)
		pb, pc := statstest.PairedProcesses(400+i, 3+int(i%20), change)
		for _, e := range []Estimate{
			PairedWith(base, statstest.Scaled(200+i, base, 1+change, 0.01), Design{Level: level}),
			PairedWith(base, statstest.Scaled(300+i, base, 1+change, 0.01), Design{Level: level, Share: 0.3}),
			RunsAt(old, cur, DefaultRunNoise, level),
			PairedRuns(pb, pc, level),
		} {
			if e.Refused != "" {
				t.Fatalf("refused: %s", e.Refused)
			}
			if !(e.CILow <= e.Ratio && e.Ratio <= e.CIHigh) {
				t.Fatalf("ratio %v outside its interval [%v, %v]", e.Ratio, e.CILow, e.CIHigh)
			}
			if excludesOne(e) != (e.P < 1-e.Level) {
				t.Fatalf("interval [%v, %v] at %v and p %v disagree: %+v", e.CILow, e.CIHigh, e.Level, e.P, e)
			}
			if excludesOne(e) {
				excluded++
			}
		}
	}
	if excluded == 0 || excluded == 800 {
		t.Errorf("%d of 800 intervals exclude 1: the data should give both", excluded)
	}
}

// Samples that cannot give an estimate are refused, with why, and no
// figure is left that looks like one.
func TestRefused(t *testing.T) {
	five := statstest.Noisy(40, 5, 100, 0.01)
	six := statstest.Noisy(41, 6, 100, 0.01)
	for _, tt := range []struct {
		name string
		e    Estimate
		why  string
	}{
		{"too few rounds", PairedWith(five, five, Design{}), "too few rounds: 5, need at least 6"},
		{"too few at a family's level", PairedWith(six, six, Design{Level: FamilyLevel(3, DefaultAlpha)}), "need at least 7 to tell at the 98.3"},
		{"unequal rounds", PairedWith(six, five, Design{}), "6 base, 5 candidate"},
		{"too few samples", UnpairedAt(six, five, Confidence), "too few samples: 6+5"},
		{"zero time", UnpairedAt(six, []float64{1, 2, 0, 4, 5, 6}, Confidence), "candidate sample 3 is not a positive time"},
		{"one paired run", PairedRuns([][]float64{six}, [][]float64{six}, Confidence), "too few paired runs: 1"},
		{"unequal runs", PairedRuns([][]float64{six, six}, [][]float64{six}, Confidence), "as many of each"},
		{"an empty run", RunsAt([][]float64{six, nil}, [][]float64{six, six}, DefaultRunNoise, Confidence), "a run has no sample"},
	} {
		if !strings.Contains(tt.e.Refused, tt.why) || !math.IsNaN(tt.e.Ratio) || !math.IsNaN(tt.e.P) {
			t.Errorf("%s: refused %q, ratio %v, p %v; want %q and NaN", tt.name, tt.e.Refused, tt.e.Ratio, tt.e.P, tt.why)
		}
	}
}

// The inputs are not changed (benchmath sorts what it is given).
func TestInputsUntouched(t *testing.T) {
	base := statstest.Noisy(30, 9, 100, 0.05)
	cand := statstest.Noisy(31, 9, 90, 0.05)
	b0, c0 := append([]float64(nil), base...), append([]float64(nil), cand...)
	PairedWith(base, cand, Design{Level: Confidence})
	UnpairedAt(base, cand, Confidence)
	for i := range base {
		if base[i] != b0[i] || cand[i] != c0[i] {
			t.Fatal("input modified")
		}
	}
}

func TestFamilyLevel(t *testing.T) {
	for _, tt := range []struct {
		m    int
		want string
	}{{0, "95%"}, {1, "95%"}, {3, "98.3%"}, {100, "99.95%"}} {
		if got := units.Level(FamilyLevel(tt.m, DefaultAlpha)); got != tt.want {
			t.Errorf("m=%d: level %s, want %s", tt.m, got, tt.want)
		}
	}
	if units.Level(0) != "95%" {
		t.Errorf("level 0 (an older file) reads %s, want 95%%", units.Level(0))
	}
}

func TestResamples(t *testing.T) {
	for _, tt := range []struct{ n, want int }{{0, 10000}, {62, 10000}, {4000, 5000}, {200000, 1000}} {
		if got := Resamples(tt.n); got != tt.want {
			t.Errorf("Resamples(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// The O(n) resampled median is the median of the drawn values.
func TestResamplerMedian(t *testing.T) {
	for _, n := range []int{1, 2, 3, 6, 31} {
		r := newResampler(statstest.Noisy(uint64(n), n, 100, 0.1))
		src := rand.NewPCG(9, 9)
		rng := rand.New(src)
		for range 50 {
			// Replay the same draws to build the resample by hand.
			state := *src
			replay := rand.New(&state)
			got := r.median(rng)
			draw := make([]float64, n)
			for i := range draw {
				draw[i] = r.sorted[replay.IntN(n)]
			}
			if want := Median(draw); got != want {
				t.Fatalf("n=%d: resampled median %v, want %v", n, got, want)
			}
		}
	}
}
