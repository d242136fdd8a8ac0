package harness_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// A disturbance that repeats at a period near the fixed order's (ABBA
// repeats every four samples) slows the same candidate round after
// round, and the sign test, which assumes independent rounds, claims a
// difference between identical candidates. Rows drawn at random keep the
// claims within the test's own rate (5%, 2.5% each way). The figures are those of RoundOrders' comment.
func TestRandomRoundsBreakAPeriodicDisturbance(t *testing.T) {
	const runs, rounds = 400, 101
	blocks := func(seed uint64) func(int) []int { // ABBA or BAAB, at random
		rng := rand.New(rand.NewPCG(seed, 1))
		var first int
		return func(r int) []int {
			if r%2 == 0 {
				first = rng.IntN(2)
			}
			return harness.RoundOrder(2, first+r%2)
		}
	}
	orders := []struct {
		name  string
		order func(seed uint64) func(int) []int
	}{
		{"fixed", func(uint64) func(int) []int { return harness.RoundOrders(2, 0) }},
		{"blocks", blocks},
		{"random", func(seed uint64) func(int) []int { return harness.RoundOrders(2, seed) }},
	}
	periods := []struct {
		name   string
		period func(*rand.Rand) float64
	}{
		{"45 ms", func(*rand.Rand) float64 { return 45 }},
		{"35-60 ms", func(rng *rand.Rand) float64 { return 35 + 25*rng.Float64() }},
		{"none", nil}, // a 1% cost of going second and a 3% drift instead
	}
	for _, pd := range periods {
		claims := map[string][3]int{} // A/A claims, +1% claimed faster, slower
		for _, o := range orders {
			rng := rand.New(rand.NewPCG(45, 45))
			var aa, wrong, right int
			for i := range runs {
				seed := uint64(i + 1)
				if p := disturbedRun(rng, o.order(seed), 0, pd.period, rounds); p.Verdict == result.Faster || p.Verdict == result.Slower {
					aa++
				}
				switch disturbedRun(rng, o.order(seed+runs), 0.01, pd.period, rounds).Verdict {
				case result.Faster:
					wrong++
				case result.Slower:
					right++
				}
			}
			claims[o.name] = [3]int{aa, wrong, right}
			t.Logf("period %s, %-6s order: identical code claimed in %3d of %d runs; +1%% claimed faster in %3d, slower in %3d", pd.name, o.name, aa, runs, wrong, right)
		}
		fixed, random := claims["fixed"], claims["random"]
		if pd.period != nil && fixed[0] <= runs/25 {
			t.Errorf("period %s: the fixed order claimed %d of %d A/A runs; the model should line up with it in more than 4%%", pd.name, fixed[0], runs)
		}
		if random[0] > runs/20 || random[1] > runs/40 {
			t.Errorf("period %s: random rows claimed %d of %d A/A runs and %d +1%% runs the wrong way; want at most the test's 5%% and 2.5%%", pd.name, random[0], runs, random[1])
		}
		if pd.period == nil && random[2] < fixed[2]*9/10 {
			t.Errorf("no disturbance: random rows claimed a real +1%% in %d of %d runs, the fixed order in %d: the order should cost little", random[2], runs, fixed[2])
		}
	}
}

// disturbedRun simulates one interleaved run of two candidates whose
// samples take 10 ms (0.8% noise, the candidate change longer) and a
// disturbance that slows the thread to two thirds of its speed for a
// quarter of every period ms (drawn by period), in the order given, and
// judges it as run --compare does (95%, the 0.25% floor, the measured
// drift). With no period, the second sample of a round is 1% faster and
// the machine slows by 3% over the run instead.
func disturbedRun(rng *rand.Rand, order func(int) []int, change float64, period func(*rand.Rand) float64, rounds int) result.Pair {
	const duty, slowdown, gap = 0.25, 0.5, 0.2
	every, second, drift := 0.0, 0.0, 0.0
	if period != nil {
		every = period(rng)
	} else {
		second, drift = 0.01, 0.03
	}
	phase := rng.Float64() * every
	base, cand := make([]float64, rounds), make([]float64, rounds)
	now := 0.0
	for r := range rounds {
		for pos, i := range order(r) {
			work := 10 * math.Exp(0.008*rng.NormFloat64()) * (1 + drift*float64(r)/float64(rounds))
			if i == 1 {
				work *= 1 + change
			}
			if pos == 1 {
				work *= 1 - second
			}
			d := work
			if every > 0 {
				d += slowdown * disturbed(now, now+work, every, phase, duty)
			}
			if i == 0 {
				base[r] = d
			} else {
				cand[r] = d
			}
			now += d + gap
		}
	}
	return compare.Judge(stats.PairedWith(base, cand, stats.Design{Level: stats.Confidence}), compare.Rule{Threshold: 0.0025, Measured: true})
}

// disturbed is how much of [from, to] falls in the disturbance's windows
// [k·period+phase, k·period+phase+duty·period].
func disturbed(from, to, period, phase, duty float64) float64 {
	total := 0.0
	for k := math.Floor((from-phase)/period) - 1; k*period+phase <= to; k++ {
		lo, hi := max(from, k*period+phase), min(to, k*period+phase+duty*period)
		total += max(0, hi-lo)
	}
	return total
}
