package compare

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/stats/statstest"
)

// The verdicts drawn from the statistics' estimates: each helper estimates
// as a comparison of that kind does, at 95%, and judges the estimate alone
// against threshold.

func excludesOne(p result.Pair) bool { return p.CIHigh < 1 || p.CILow > 1 }

// judgePaired is an interleaved comparison (stats.PairedWith).
func judgePaired(base, cand []float64, threshold float64) result.Pair {
	return Judge(stats.PairedWith(base, cand, stats.Design{Level: stats.Confidence}), Rule{Threshold: threshold})
}

// judgeUnpaired is two runs' samples pooled (stats.UnpairedAt).
func judgeUnpaired(base, cand []float64, threshold float64) result.Pair {
	return Judge(stats.UnpairedAt(base, cand, stats.Confidence), Rule{Threshold: threshold})
}

// judgeRuns is separate runs with the run as the unit (stats.RunsAt).
func judgeRuns(base, cand [][]float64, threshold float64) result.Pair {
	return Judge(stats.RunsAt(base, cand, stats.DefaultRunNoise, stats.Confidence), Rule{Threshold: threshold})
}

// judgePairedRuns is runs taken in pairs (stats.PairedRuns).
func judgePairedRuns(base, cand [][]float64, threshold float64) result.Pair {
	return Judge(stats.PairedRuns(base, cand, stats.Confidence), Rule{Threshold: threshold})
}

func TestPairedVerdicts(t *testing.T) {
	base := statstest.Noisy(1, 31, 100, 0.01)
	tests := []struct {
		name    string
		cand    []float64
		verdict string
		reason  string // substring of Reason
	}{
		{"clear win", statstest.Scaled(2, base, 0.5, 0.01), result.Faster, ""},
		{"clear loss", statstest.Scaled(3, base, 1.8, 0.01), result.Slower, ""},
		{"small loss over threshold", statstest.Scaled(4, base, 1.123, 0.005), result.Slower, ""},
		{"overlap", statstest.Noisy(5, 31, 100.5, 0.05), result.NoDifference, "interval includes 1"},
		{"A/A", statstest.Noisy(6, 31, 100, 0.01), result.NoDifference, ""},
		{"identical", base, result.NoDifference, "interval includes 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := judgePaired(base, tt.cand, DefaultThreshold)
			if p.Verdict != tt.verdict || !strings.Contains(p.Reason, tt.reason) {
				t.Errorf("verdict %q (%s), want %q (%s)\n%+v", p.Verdict, p.Reason, tt.verdict, tt.reason, p)
			}
			if !(p.CILow <= p.Ratio && p.Ratio <= p.CIHigh) {
				t.Errorf("ratio %v outside its interval [%v, %v]", p.Ratio, p.CILow, p.CIHigh)
			}
			if (p.Verdict == result.Faster || p.Verdict == result.Slower) && (!excludesOne(p) || p.AdjustedP >= 0.05 || p.Reason != "") {
				t.Errorf("claimed %s without the evidence: %+v", p.Verdict, p)
			}
			if p.N != 31 || !p.Paired || p.Comparisons != 1 || p.AdjustedP != p.P {
				t.Errorf("n %d paired %v comparisons %d p %v adjusted %v", p.N, p.Paired, p.Comparisons, p.P, p.AdjustedP)
			}
		})
	}
}

// A change that is real (the interval excludes 1, p tiny) but smaller than
// the threshold is not claimed, and the reason says so.
func TestTinyButSignificant(t *testing.T) {
	for _, paired := range []bool{true, false} {
		base := statstest.Noisy(10, 31, 100, 0.0005)
		cand := statstest.Scaled(11, base, 1.005, 0.0005)
		if !paired {
			cand = statstest.Noisy(12, 31, 100.5, 0.0005)
		}
		p := compareFunc(paired)(base, cand, DefaultThreshold)
		if !excludesOne(p) || p.P >= 0.001 {
			t.Fatalf("paired=%v: test data not significant: CI [%v, %v] p %v", paired, p.CILow, p.CIHigh, p.P)
		}
		if p.Verdict != result.NoDifference || !strings.Contains(p.Reason, "within the 2% threshold") {
			t.Errorf("paired=%v: verdict %q reason %q", paired, p.Verdict, p.Reason)
		}
		// With no threshold the same data is a difference.
		if q := compareFunc(paired)(base, cand, 0); q.Verdict != result.Slower {
			t.Errorf("paired=%v, threshold 0: verdict %q, want slower", paired, q.Verdict)
		}
	}
}

func compareFunc(paired bool) func(a, b []float64, th float64) result.Pair {
	if paired {
		return judgePaired
	}
	return judgeUnpaired
}

func TestUnpairedVerdicts(t *testing.T) {
	base := statstest.Noisy(20, 31, 100, 0.02)
	tests := []struct {
		name    string
		cand    []float64
		verdict string
	}{
		{"clear win", statstest.Noisy(21, 31, 50, 0.02), result.Faster},
		{"clear loss", statstest.Noisy(22, 25, 130, 0.02), result.Slower},
		{"overlap", statstest.Noisy(23, 31, 100.5, 0.02), result.NoDifference},
		{"A/A", statstest.Noisy(24, 31, 100, 0.02), result.NoDifference},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := judgeUnpaired(base, tt.cand, DefaultThreshold)
			if p.Verdict != tt.verdict {
				t.Errorf("verdict %q (%s), want %q", p.Verdict, p.Reason, tt.verdict)
			}
			if want := p.CandidateMedian / p.BaseMedian; p.Ratio != want {
				t.Errorf("ratio %v, want the ratio of medians %v", p.Ratio, want)
			}
			if !(p.CILow <= p.Ratio && p.Ratio <= p.CIHigh) || p.CILow <= 0 {
				t.Errorf("ratio %v outside its interval [%v, %v]", p.Ratio, p.CILow, p.CIHigh)
			}
			if p.Paired || p.BaseN != 31 || p.CandidateN != len(tt.cand) {
				t.Errorf("paired %v, n %d+%d", p.Paired, p.BaseN, p.CandidateN)
			}
			// Fixed seed: the same data give the same interval.
			if q := judgeUnpaired(base, tt.cand, DefaultThreshold); q != p {
				t.Errorf("not reproducible:\n%+v\n%+v", p, q)
			}
		})
	}
}

func TestRefusedEstimateIsNotComparable(t *testing.T) {
	five := statstest.Noisy(40, 5, 100, 0.01)
	six := statstest.Noisy(41, 6, 100, 0.01)
	tests := []struct {
		name   string
		f      func([]float64, []float64, float64) result.Pair
		a, b   []float64
		reason string
	}{
		{"too few rounds", judgePaired, five, statstest.Scaled(1, five, 0.5, 0), "too few rounds: 5, need at least 6"},
		{"too few samples", judgeUnpaired, six, five, "too few samples: 6+5"},
		{"unequal rounds", judgePaired, six, five, "one sample of each per round: 6 base, 5 candidate"},
		{"empty", judgePaired, nil, nil, "too few rounds: 0"},
		{"zero time", judgeUnpaired, six, []float64{1, 2, 0, 4, 5, 6}, "candidate sample 3 is not a positive time"},
		{"NaN", judgePaired, []float64{1, 2, 3, math.NaN(), 5, 6}, six, "base sample 4"},
		{"Inf", judgeUnpaired, []float64{math.Inf(1), 2, 3, 4, 5, 6}, six, "base sample 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.f(tt.a, tt.b, DefaultThreshold)
			if p.Verdict != result.NotComparable || !strings.Contains(p.Reason, tt.reason) {
				t.Errorf("verdict %q reason %q, want not comparable: %s", p.Verdict, p.Reason, tt.reason)
			}
			// Bonferroni leaves it alone.
			ps := []result.Pair{p}
			bonferroni(ps, stats.DefaultAlpha)
			if ps[0].Verdict != result.NotComparable {
				t.Errorf("Bonferroni decided a pair that is not comparable: %q", ps[0].Verdict)
			}
		})
	}
}

// Bonferroni multiplies each p-value by the number tested: p = 0.01, 0.04,
// 0.03, 0.005 adjust to 0.04, 0.16, 0.12, 0.02; at alpha 0.05 the first
// and the last are rejected. The pair not comparable is left out of m.
func TestBonferroni(t *testing.T) {
	raw := []float64{0.01, 0.04, 0.03, 0.005}
	want := []float64{0.04, 0.16, 0.12, 0.02}
	wantVerdict := []string{result.Faster, result.NoDifference, result.NoDifference, result.Faster}
	pairs := make([]result.Pair, len(raw))
	for i, p := range raw {
		pairs[i] = result.Pair{Ratio: 0.5, CILow: 0.4, CIHigh: 0.6, P: p, AdjustedP: p, Alpha: stats.DefaultAlpha,
			Comparisons: 1, Threshold: DefaultThreshold, Paired: true, N: 31, Level: stats.FamilyLevel(4, stats.DefaultAlpha)}
	}
	pairs = append(pairs, result.Pair{Verdict: result.NotComparable, Reason: "too few rounds", P: math.NaN()})
	bonferroni(pairs, 0.05)
	for i := range raw {
		if math.Abs(pairs[i].AdjustedP-want[i]) > 1e-12 {
			t.Errorf("p=%v adjusted to %v, want %v", raw[i], pairs[i].AdjustedP, want[i])
		}
		if pairs[i].Verdict != wantVerdict[i] || pairs[i].Comparisons != 4 {
			t.Errorf("p=%v: verdict %q over %d comparisons, want %q over 4", raw[i], pairs[i].Verdict, pairs[i].Comparisons, wantVerdict[i])
		}
	}
	if pairs[1].Reason != "p=0.16 is not below 0.050" {
		t.Errorf("reason %q", pairs[1].Reason)
	}
	if pairs[4].Verdict != result.NotComparable {
		t.Errorf("not comparable pair decided: %q", pairs[4].Verdict)
	}
	// One comparison: nothing to adjust.
	one := []result.Pair{{Ratio: 0.5, CILow: 0.4, CIHigh: 0.6, P: 0.03, Threshold: DefaultThreshold}}
	bonferroni(one, 0.05)
	if one[0].AdjustedP != 0.03 || one[0].Comparisons != 1 || one[0].Verdict != result.Faster {
		t.Errorf("one comparison: %+v", one[0])
	}
}

// A family of interleaved comparisons: the intervals at 1-alpha/m agree
// with the Bonferroni-adjusted p-values in every pair, and with too few
// rounds for that level the pair says how many it needs.
func TestPairedFamilyAgrees(t *testing.T) {
	const m = 3
	level := stats.FamilyLevel(m, stats.DefaultAlpha)
	for i := range uint64(300) {
		base := statstest.Noisy(7000+i, 9+int(i%40), 100, 0.02)
		pairs := []result.Pair{
			Judge(stats.PairedWith(base, statstest.Scaled(8000+i, base, 1+0.002*float64(i%10), 0.02), stats.Design{Level: level}), Rule{}),
			Judge(stats.PairedWith(base, statstest.Scaled(9000+i, base, 1, 0.02), stats.Design{Level: level}), Rule{}),
			Judge(stats.PairedWith(base, statstest.Scaled(9500+i, base, 0.99, 0.02), stats.Design{Level: level}), Rule{}),
		}
		bonferroni(pairs, stats.DefaultAlpha)
		for _, p := range pairs {
			if excludesOne(p) != (p.AdjustedP < p.Alpha) || p.Comparisons != m || p.Level != level {
				t.Fatalf("n=%d: interval [%v, %v] at %v and adjusted p %v over %d disagree", p.N, p.CILow, p.CIHigh, p.Level, p.AdjustedP, p.Comparisons)
			}
		}
	}
	p := Judge(stats.PairedWith(statstest.Noisy(1, 6, 100, 0.01), statstest.Noisy(2, 6, 100, 0.01), stats.Design{Level: level}), Rule{})
	if p.Verdict != result.NotComparable || !strings.Contains(p.Reason, "need at least 7") || !strings.Contains(p.Reason, "98.3") {
		t.Errorf("6 rounds at %v: %q (%s), want not comparable, need 7", level, p.Verdict, p.Reason)
	}
}

// A/A runs claim a difference rarely: with no threshold at all, over 200
// A/A comparisons of each kind (fixed seeds, so the count is stable), the
// statistics alone claim at most about alpha of them.
func TestAAFalseClaims(t *testing.T) {
	for _, paired := range []bool{true, false} {
		claims := 0
		for i := range uint64(200) {
			a := statstest.Noisy(1000+i, 31, 100, 0.02)
			b := statstest.Noisy(5000+i, 31, 100, 0.02)
			if v := compareFunc(paired)(a, b, 0).Verdict; v != result.NoDifference {
				claims++
			}
		}
		if claims > 12 {
			t.Errorf("paired=%v: %d of 200 A/A comparisons claimed a difference", paired, claims)
		}
		t.Logf("paired=%v: %d of 200 A/A comparisons claimed a difference with threshold 0", paired, claims)
	}
}

// FuzzCompare: any times, even garbage, give a verdict and never panic;
// a claimed difference always has its evidence.
func FuzzCompare(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(2))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(0))
	f.Fuzz(func(t *testing.T, b []byte, th uint8) {
		xs := make([]float64, len(b))
		for i, v := range b {
			xs[i] = float64(v)
		}
		half := len(xs) / 2
		for _, p := range []result.Pair{judgePaired(xs[:half], xs[half:2*half], float64(th)/100), judgeUnpaired(xs[:half], xs[half:], float64(th)/100)} {
			switch p.Verdict {
			case result.Faster, result.Slower:
				if !excludesOne(p) || !(p.AdjustedP < p.Alpha) || math.Abs(p.Ratio-1) <= p.Threshold {
					t.Fatalf("claim without evidence: %+v", p)
				}
			case result.NoDifference, result.NotComparable:
			default:
				t.Fatalf("verdict %q", p.Verdict)
			}
			if p.Verdict == result.NoDifference && p.Reason == "" {
				t.Fatalf("no difference without a reason: %+v", p)
			}
		}
	})
}

// A change past the threshold whose interval reaches back inside it is not
// claimed: it may be no bigger than the noise.
func TestIntervalMustClearTheThreshold(t *testing.T) {
	p := result.Pair{Ratio: 1.025, CILow: 1.005, CIHigh: 1.04, AdjustedP: 0.001, P: 0.001, Alpha: 0.05, Threshold: 0.02}
	if v, why := verdict(p); v != result.NoDifference || !strings.Contains(why, "reaches within the 2% threshold") {
		t.Errorf("verdict = %q (%s), want no difference: the interval reaches inside 2%%", v, why)
	}
	p.CILow = 1.021
	if v, _ := verdict(p); v != result.Slower {
		t.Errorf("interval 2.1%%..4%%: verdict %q, want slower", v)
	}
	p = result.Pair{Ratio: 0.97, CILow: 0.95, CIHigh: 0.985, AdjustedP: 0.001, P: 0.001, Alpha: 0.05, Threshold: 0.02}
	if v, _ := verdict(p); v != result.NoDifference {
		t.Errorf("interval -5%%..-1.5%%: verdict %q, want no difference", v)
	}
	p.CIHigh = 0.975
	if v, _ := verdict(p); v != result.Faster {
		t.Errorf("interval -5%%..-2.5%%: verdict %q, want faster", v)
	}
}

// The paired test uses the pairing: a true +3% on a machine drifting by
// 20% over the rounds is found, though the two samples overlap wholly.
func TestPairedFindsAChangeOnADriftingMachine(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	base := make([]float64, 31)
	cand := make([]float64, 31)
	for i := range base {
		drift := 100 * (1 + 0.2*float64(i)/31)
		base[i] = drift * (1 + 0.005*rng.NormFloat64())
		cand[i] = drift * 1.03 * (1 + 0.005*rng.NormFloat64())
	}
	p := judgePaired(base, cand, 0.01)
	if p.Verdict != result.Slower || !(p.P < 0.001) {
		t.Errorf("verdict %q p %v, want slower with p < 0.001: %s", p.Verdict, p.P, p.Reason)
	}
	if q := stats.MannWhitney(base, cand); q < 0.05 {
		t.Logf("note: Mann-Whitney on the same data gives p = %v", q)
	}
}

// Runs differ as wholes: with a 3% run-to-run variation, pooling the
// samples of one run per side (judgeUnpaired) claims a difference between
// identical programs most of the time; Runs, with the run as the unit (or
// the assumed run noise for one run per side), rarely.
func TestRunsAsTheUnit(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var pooled, single, several int
	const trials = 200
	for range trials {
		a1, b1 := statstest.Runs(rng, 1, 31, 100, 0.03, 0.01), statstest.Runs(rng, 1, 31, 100, 0.03, 0.01)
		if v := judgeUnpaired(a1[0], b1[0], DefaultThreshold).Verdict; v == result.Faster || v == result.Slower {
			pooled++
		}
		if v := judgeRuns(a1, b1, DefaultThreshold).Verdict; v == result.Faster || v == result.Slower {
			single++
		}
		a3, b3 := statstest.Runs(rng, 3, 31, 100, 0.03, 0.01), statstest.Runs(rng, 3, 31, 100, 0.03, 0.01)
		if v := judgeRuns(a3, b3, DefaultThreshold).Verdict; v == result.Faster || v == result.Slower {
			several++
		}
	}
	t.Logf("false claims in %d A/A comparisons with 3%% run-to-run variation: pooled samples %d, one run per side %d, three runs per side %d",
		trials, pooled, single, several)
	if pooled < trials/3 {
		t.Errorf("the simulation does not show the problem: pooled samples claimed only %d of %d", pooled, trials)
	}
	if single > trials/20 || several > trials/20 {
		t.Errorf("Runs claimed %d (one run per side) and %d (three) of %d A/A comparisons, want at most 5%%", single, several, trials)
	}
	// A real +20% is still found with three runs per side.
	a, b := statstest.Runs(rng, 3, 31, 100, 0.03, 0.01), statstest.Runs(rng, 3, 31, 120, 0.03, 0.01)
	if p := judgeRuns(a, b, DefaultThreshold); p.Verdict != result.Slower || p.BaseRuns != 3 || p.CandidateRuns != 3 {
		t.Errorf("+20%% over 3+3 runs: %+v", p)
	}
}

func TestOneRunPerSideSaysWhatItCanTell(t *testing.T) {
	base := statstest.Noisy(60, 31, 100, 0.005)
	p := judgeRuns([][]float64{base}, [][]float64{statstest.Noisy(61, 31, 104, 0.005)}, DefaultThreshold)
	if p.Verdict != result.NoDifference || p.Detectable < 0.08 || p.Detectable > 0.09 {
		t.Errorf("+4%% from one run per side: %q, detectable %v; want no difference and about 8.7%%", p.Verdict, p.Detectable)
	}
	if q := judgeRuns([][]float64{base}, [][]float64{statstest.Noisy(62, 31, 130, 0.005)}, DefaultThreshold); q.Verdict != result.Slower {
		t.Errorf("+30%% from one run per side: %q (%s)", q.Verdict, q.Reason)
	}
}

func TestInconclusive(t *testing.T) {
	p := judgePaired(statstest.Noisy(70, 31, 100, 0.01), statstest.Noisy(71, 31, 130, 0.01), DefaultThreshold)
	markInconclusive(&p, "the machine was busy (a: slow-core); rerun on a quieter machine")
	if p.Verdict != result.Inconclusive || p.Judged() || p.Reason != "the machine was busy (a: slow-core); rerun on a quieter machine" {
		t.Errorf("%+v", p)
	}
	ps := []result.Pair{p, judgePaired(statstest.Noisy(72, 31, 100, 0.01), statstest.Noisy(73, 31, 50, 0.01), DefaultThreshold)}
	bonferroni(ps, stats.DefaultAlpha)
	if ps[0].Verdict != result.Inconclusive || ps[0].Comparisons != 2 {
		t.Errorf("after Bonferroni: %q over %d comparisons, want inconclusive over 2", ps[0].Verdict, ps[0].Comparisons)
	}
}

// One run against several: the run-to-run variation is measured on the
// side with several runs, not assumed. Three old runs whose medians agree
// within 0.5% let one new run tell a 6% change that one run per side,
// assuming 3%, cannot; three that spread by 10% tell it less than the
// assumption would.
func TestOneRunAgainstSeveralMeasuresTheNoise(t *testing.T) {
	cand := [][]float64{statstest.Noisy(80, 31, 106, 0.005)}
	tight := [][]float64{statstest.Noisy(81, 31, 100, 0.005), statstest.Noisy(82, 31, 100.5, 0.005), statstest.Noisy(83, 31, 99.7, 0.005)}
	p := judgeRuns(tight, cand, DefaultThreshold)
	if p.RunNoiseAssumed || !(p.RunNoise > 0 && p.RunNoise < 0.01) || p.Verdict != result.Slower {
		t.Errorf("+6%% against 3 tight runs: %q (%s), noise %v assumed %v; want slower, noise measured below 1%%", p.Verdict, p.Reason, p.RunNoise, p.RunNoiseAssumed)
	}
	one := judgeRuns(tight[:1], cand, DefaultThreshold)
	if !one.RunNoiseAssumed || one.RunNoise != stats.DefaultRunNoise || one.Verdict != result.NoDifference {
		t.Errorf("+6%% one run a side: %q, noise %v assumed %v; want no difference, 3%% assumed", one.Verdict, one.RunNoise, one.RunNoiseAssumed)
	}
	wide := [][]float64{statstest.Noisy(84, 31, 100, 0.005), statstest.Noisy(85, 31, 110, 0.005), statstest.Noisy(86, 31, 91, 0.005)}
	w := judgeRuns(wide, cand, DefaultThreshold)
	if w.RunNoiseAssumed || !(w.RunNoise > 0.05) || !(w.Detectable > one.Detectable) || w.Verdict == result.Slower {
		t.Errorf("+6%% against 3 spread runs: %q, noise %v, detectable %v (one a side %v)", w.Verdict, w.RunNoise, w.Detectable, one.Detectable)
	}
	if excludesOne(p) != (p.AdjustedP < p.Alpha) || excludesOne(w) != (w.AdjustedP < w.Alpha) {
		t.Errorf("interval and p disagree: %+v %+v", p, w)
	}
}

// Processes taken in pairs keep their pairing: a 3% slowdown that
// rounds' shared ±4% hides from a comparison of the sides as separate
// runs (Welch on 5+5 process medians) is found on the per-pair ratios,
// and identical code is claimed rarely.
func TestPairedRunsKeepThePairing(t *testing.T) {
	found, foundApart, false_ := 0, 0, 0
	for i := range uint64(100) {
		base, cand := statstest.PairedProcesses(300+i, 5, 0.03)
		p := judgePairedRuns(base, cand, DefaultThreshold)
		if !p.PairedRuns || excludesOne(p) != (p.AdjustedP < p.Alpha) {
			t.Fatalf("paired runs: %+v", p)
		}
		if p.Verdict == result.Slower {
			found++
		}
		if judgeRuns(base, cand, DefaultThreshold).Verdict == result.Slower {
			foundApart++
		}
		base, cand = statstest.PairedProcesses(700+i, 5, 0)
		if v := judgePairedRuns(base, cand, 0).Verdict; v == result.Slower || v == result.Faster {
			false_++
		}
	}
	if found < 80 || foundApart > found/2 || false_ > 10 {
		t.Errorf("+3%%: found in %d of 100 paired, %d as separate runs; A/A claimed %d of 100 with no threshold", found, foundApart, false_)
	}
	t.Logf("+3%%: found in %d of 100 paired, %d as separate runs; A/A claimed %d of 100 with no threshold", found, foundApart, false_)
	p := judgePairedRuns([][]float64{{1, 2, 3}}, [][]float64{{1, 2, 3}, {1, 2, 3}}, 0)
	if p.Verdict != result.NotComparable || !strings.Contains(p.Reason, "as many of each") {
		t.Errorf("unequal runs: %q (%s)", p.Verdict, p.Reason)
	}
}

// From stats.RobustPairsFrom pairs on, one disturbed process among many moves
// neither the estimate nor the interval much: 24 pairs of a true +3%
// with one candidate process 60% slow still read +3% within a narrow
// interval (the mean and its t-interval read +5.2%, +1.1% to +9.5%);
// below, the mean and the t-test judge, as before.
func TestPairedRunsOneDisturbedProcess(t *testing.T) {
	base, cand := statstest.PairedProcesses(11, 24, 0.03)
	for k := range cand[7] {
		cand[7][k] *= 1.6
	}
	p := judgePairedRuns(base, cand, 0.01)
	if p.Verdict != result.Slower || !(p.CILow > 1.01 && p.CIHigh < 1.05) || math.Abs(p.Ratio-1.03) > 0.01 {
		t.Errorf("24 pairs, one disturbed: %s %.4f [%.4f, %.4f], want slower, about +3%% within [+1%%, +5%%]", p.Verdict, p.Ratio, p.CILow, p.CIHigh)
	}
	if excludesOne(p) != (p.AdjustedP < p.Alpha) {
		t.Errorf("interval and p disagree: %+v", p)
	}
	few, fewCand := statstest.PairedProcesses(11, stats.RobustPairsFrom-1, 0.03)
	q := judgePairedRuns(few, fewCand, 0.01)
	d := make([]float64, len(few))
	for k := range d {
		d[k] = math.Log(stats.Median(fewCand[k]) / stats.Median(few[k]))
	}
	if want := math.Exp(stats.Mean(d)); math.Abs(q.Ratio-want) > 1e-12 {
		t.Errorf("%d pairs: ratio %v, want the mean pair's %v", len(few), q.Ratio, want)
	}
}

// A look of a run with looks spends a share of alpha: the estimate's
// interval is taken at 1-0.05·share, and Judge divides its p-value by the
// share, so the adjusted p-value and the interval agree at every share.
func TestJudgeAtALook(t *testing.T) {
	for i := range uint64(100) {
		base := statstest.Noisy(600+i, 61, 100, 0.01)
		cand := statstest.Scaled(700+i, base, 1.002*float64(1+i%3), 0.01)
		for _, share := range []float64{1, 0.77, 0.23, 0.008} {
			e := stats.PairedWith(base, cand, stats.Design{Level: stats.Confidence, Share: share})
			p := Judge(e, Rule{})
			if want := min(1, e.P/share); p.AdjustedP != want || p.Alpha != stats.DefaultAlpha {
				t.Fatalf("share %v: adjusted p %v (alpha %v), want %v", share, p.AdjustedP, p.Alpha, want)
			}
			if excludesOne(p) != (p.AdjustedP < p.Alpha) {
				t.Fatalf("share %v: interval [%v, %v] and adjusted p %v disagree", share, p.CILow, p.CIHigh, p.AdjustedP)
			}
		}
	}
}
