package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/stats/statstest"
)

func TestLooks(t *testing.T) {
	if got := Looks(101); !slices.Equal(got, []int{31, 61, 101}) {
		t.Errorf("Looks(101) = %v, want [31 61 101]", got)
	}
	if got := Looks(MinLookRounds - 1); got != nil {
		t.Errorf("Looks(%d) = %v, want none: too few rounds to look early", MinLookRounds-1, got)
	}
}

// The planned shares of the looks add up to all of alpha, grow from the
// first look to the last (O'Brien-Fleming: little early), and a run that
// ends for a reason of its own spends what the earlier looks left.
func TestLookShares(t *testing.T) {
	looks := Looks(101)
	var sum float64
	var shares []float64
	for _, n := range looks {
		w := LookShare(looks, n, true)
		shares = append(shares, w)
		sum += w
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("planned shares %v add to %v, want 1", shares, sum)
	}
	if !(shares[0] < 0.02 && shares[0] < shares[1] && shares[1] < shares[2]) {
		t.Errorf("planned shares %v: want a small first one, growing", shares)
	}
	if w := LookShare(looks, 101, false); w != shares[2] {
		t.Errorf("the last look: share %v, want its planned %v", w, shares[2])
	}
	if w := LookShare(looks, 20, false); w != 1 {
		t.Errorf("stopped by time before any look: share %v, want all of alpha", w)
	}
	if w := LookShare(looks, 70, false); math.Abs(w-(1-shares[0]-shares[1])) > 1e-12 {
		t.Errorf("stopped by time after two looks: share %v, want what they left, %v", w, 1-shares[0]-shares[1])
	}
	if w := LookShare(nil, 50, true); w != 1 {
		t.Errorf("no looks: share %v, want 1", w)
	}
}

// A look's interval and its p-value agree at the look's level, and a smaller share
// makes the interval wider.
func TestPairedAtALook(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	fixedBase, fixedCand := statstest.Noisy(3, 61, 100, 1), statstest.Noisy(4, 61, 100.4, 1)
	prevWidth := 0.0
	for _, share := range []float64{1, 0.77, 0.23, 0.008} {
		q := PairedWith(fixedBase, fixedCand, Design{Level: Confidence, Share: share})
		if w := q.CIHigh - q.CILow; !(w >= prevWidth) {
			t.Errorf("share %v: width %v, narrower than %v at a larger share", share, w, prevWidth)
		} else {
			prevWidth = w
		}
		for range 200 {
			base, cand := make([]float64, 61), make([]float64, 61)
			for i := range base {
				base[i] = 100 * math.Exp(0.01*rng.NormFloat64())
				cand[i] = 100.4 * math.Exp(0.01*rng.NormFloat64())
			}
			p := PairedWith(base, cand, Design{Level: Confidence, Share: share})
			if excludes := p.CILow > 1 || p.CIHigh < 1; excludes != (p.P < 1-p.Level) {
				t.Fatalf("share %v: CI %v-%v but p %v at level %v", share, p.CILow, p.CIHigh, p.P, p.Level)
			}
			if want := 1 - 0.05*share; math.Abs(p.Level-want) > 1e-12 {
				t.Fatalf("share %v: level %v, want %v", share, p.Level, want)
			}
		}
	}
}
