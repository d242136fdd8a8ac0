package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/stats/statstest"
)

// The orders of the signed-rank interval are the published critical
// values of the two-sided test at 5% (T <= c rejects): the lower end is
// the (c+1)-th Walsh average.
func TestSignedRankOrder(t *testing.T) {
	critical := map[int]int{6: 0, 7: 2, 8: 3, 9: 5, 10: 8, 12: 13, 16: 29, 20: 52, 25: 89, 30: 137}
	for n, c := range critical {
		k, cov := signedRankOrder(signedRankCDF(n), 0.95)
		if k != c+1 || !(cov >= 0.95) {
			t.Errorf("n=%d: order %d (coverage %.4f), want %d, at least 0.95", n, k, cov, c+1)
		}
	}
	if k, _ := signedRankOrder(signedRankCDF(5), 0.95); k != 0 {
		t.Errorf("n=5: order %d, want none (2·2^-5 > 5%%)", k)
	}
	// The normal approximation beyond the exact counts meets them.
	exact := signedRankCDF(signedRankExactUpTo)
	n := signedRankExactUpTo
	m := n * (n + 1) / 2
	mean, sd := float64(m)/2, math.Sqrt(float64(n*(n+1)*(2*n+1))/24)
	for _, t0 := range []int{m / 4, m / 3, m / 2} {
		approx := 1 - normalSurvival((float64(t0)+0.5-mean)/sd)
		if math.Abs(approx-exact[t0]) > 1e-4 {
			t.Errorf("n=%d, t=%d: normal %v, exact %v", n, t0, approx, exact[t0])
		}
	}
}

// The centre is the median of the Walsh averages: of -1, 2, 3 they are
// -1, 0.5, 1, 2, 2.5, 3, and the median is 1.5 (the mean 1.33, the
// median 2).
func TestHodgesLehmannCentre(t *testing.T) {
	c, lo, hi, cov, _ := HodgesLehmann([]float64{3, -1, 2}, 0.95)
	if c != 1.5 || !math.IsInf(lo, -1) || !math.IsInf(hi, 1) || cov != 1 {
		t.Errorf("centre %v [%v, %v] coverage %v, want 1.5 with no interval at 95%% from 3 values", c, lo, hi, cov)
	}
}

// The interval and the p-value are one method: the interval excludes 0
// exactly when p < 1-level.
func TestHodgesLehmannAgreesWithItsTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 400 {
		n := 6 + trial%60
		xs := make([]float64, n)
		shift := float64(trial%7-3) * 0.2
		for i := range xs {
			xs[i] = shift + rng.NormFloat64()
		}
		_, lo, hi, _, p := HodgesLehmann(xs, 0.95)
		if excludes := lo > 0 || hi < 0; excludes != (p < 0.05) {
			t.Fatalf("n=%d: interval [%v, %v], p=%v disagree", n, lo, hi, p)
		}
	}
}

// For normal noise the interval covers the centre as often as it says,
// and is narrower than the sign test's over the same values: what the
// symmetry it assumes buys.
func TestHodgesLehmannCoverageAndWidth(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const trials, n = 2000, 24
	covered := 0
	var hlWidth, signWidth float64
	for range trials {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = rng.NormFloat64()
		}
		_, lo, hi, _, _ := HodgesLehmann(xs, 0.95)
		if lo <= 0 && hi >= 0 {
			covered++
		}
		hlWidth += hi - lo
		slo, shi, _ := SignInterval(slices.Sorted(slices.Values(xs)), 0.95)
		signWidth += shi - slo
	}
	t.Logf("coverage %.3f, width %.3f of the sign interval's", float64(covered)/trials, hlWidth/signWidth)
	if c := float64(covered) / trials; c < 0.93 || c > 0.98 {
		t.Errorf("covered in %.3f of %d, want about 0.95", c, trials)
	}
	if r := hlWidth / signWidth; r > 0.9 {
		t.Errorf("width %.2f of the sign interval's, want narrower", r)
	}
}

// Identical code over 24 process pairs, one process in some runs slowed
// 60% on either side: the interval excludes 1 in at most 5% of runs, as
// its level says, and a +1.5% change is found in most.
func TestPairedRunsRobustAA(t *testing.T) {
	claimed, found := 0, 0
	const runs = 400
	for i := range uint64(runs) {
		base, cand := statstest.PairedProcesses(1000+i, 24, 0)
		slowed := cand
		if i%2 == 0 {
			slowed = base
		}
		if i%3 != 0 {
			for k := range slowed[int(i)%24] {
				slowed[int(i)%24][k] *= 1.6
			}
		}
		if p := PairedRuns(base, cand, Confidence); excludesOne(p) {
			claimed++
		}
		base, cand = statstest.PairedProcesses(5000+i, 24, 0.015)
		if p := PairedRuns(base, cand, Confidence); p.CILow > 1 {
			found++
		}
	}
	t.Logf("A/A: interval excludes 1 in %d of %d; +1.5%% found in %d", claimed, runs, found)
	if claimed > runs*5/100 || found < runs*8/10 {
		t.Errorf("A/A claimed in %d of %d (want at most 5%%), +1.5%% found in %d (want at least 80%%)", claimed, runs, found)
	}
}
