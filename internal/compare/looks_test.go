package compare

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// noise is how noisy constructed rounds are: each sample's own noise
// (sd, in logs), and a chance slow that a sample is up to worst slower.
type noise struct{ sd, slow, worst float64 }

var (
	// quietNoise gives the ±0.5% A/A interval at 31 rounds measured for
	// small kernels (see rounds).
	quietNoise = noise{0.006, 0.1, 0.2}
	// busyNoise has three times the noise and a slow sample in three.
	busyNoise = noise{0.018, 0.3, 0.5}
)

// playRun plays a run with looks on constructed rounds, as the harness
// takes them: one round at a time, at each look Decided may end it, and
// after budget rounds (a busy noise's time running out; 0 for none) it
// ends. The run is then judged as Interleaved judges a result. Each
// round's two samples share a noise state, so their ratio has a median
// of exactly 1+change.
func playRun(rng *rand.Rand, m noise, change, threshold float64, budget int, looks []int) result.Pair {
	st := result.Settings{Samples: DefaultRounds, Compare: []string{"a", "b"}, Threshold: threshold,
		Looks: looks, RoundsBudget: DefaultBudget}
	var base, cand []float64
	stop := ""
	for n := 0; n < DefaultRounds; n++ {
		if contains(looks, n) && Decided(st, experiments(base, cand)) {
			stop = result.StopDecided
			break
		}
		if budget > 0 && n >= budget && n >= MinRounds(1) {
			stop = result.StopBudget
			break
		}
		b, c := m.draw(rng, change)
		base, cand = append(base, b), append(cand, c)
	}
	res := &result.Result{Settings: st, RoundsStop: stop, Experiments: experiments(base, cand)}
	return Interleaved(res)[0]
}

// experiments are "a" and "b" with the ns/op of base and cand.
func experiments(base, cand []float64) []result.Experiment {
	var es []result.Experiment
	for _, side := range []struct {
		name string
		xs   []float64
	}{{"a", base}, {"b", cand}} {
		e := result.Experiment{Name: side.name, Verdict: result.VerdictBelievable}
		for _, x := range side.xs {
			e.Samples = append(e.Samples, result.Sample{Iters: 1000, Ns: int64(x * 1000)})
		}
		es = append(es, e)
	}
	return es
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

func claimed(p result.Pair) bool { return p.Verdict == result.Faster || p.Verdict == result.Slower }

// draw is one round's base and candidate samples on m, the candidate
// change slower.
func (m noise) draw(rng *rand.Rand, change float64) (b, c float64) {
	r := 100 * (1 + 0.05*rng.NormFloat64())
	b = r * math.Exp(m.sd*rng.NormFloat64())
	c = r * math.Exp(m.sd*rng.NormFloat64()) * (1 + change)
	if rng.Float64() < m.slow {
		b *= 1 + m.worst*rng.Float64()
	}
	if rng.Float64() < m.slow {
		c *= 1 + m.worst*rng.Float64()
	}
	return b, c
}

// With no threshold, a run that stops at the first look whose interval
// excludes 1 claims identical code as different more often than its 95%
// says, unless each look spends only its share of alpha. The second half
// is the rule without the shares (every look at 95%), which this
// simulation must show failing, or it could not tell the two apart.
func TestLooksHoldTheFalseClaimRate(t *testing.T) {
	looks := Looks(DefaultRounds)
	const runs = 2000
	rng := rand.New(rand.NewPCG(18, 3))
	ours := 0
	for range runs {
		if claimed(playRun(rng, quietNoise, 0, 0, 0, looks)) {
			ours++
		}
	}
	naive := 0
	for range runs {
		var base, cand []float64
		for n := 1; n <= DefaultRounds; n++ {
			b, c := quietNoise.draw(rng, 0)
			base, cand = append(base, b), append(cand, c)
			if contains(looks, n) && claimed(Judge(stats.PairedWith(base, cand, stats.Design{Level: stats.Confidence}), Rule{Measured: true})) {
				naive++
				break
			}
		}
	}
	if float64(ours)/runs > 0.05 {
		t.Errorf("looks with their shares: %d of %d A/A runs claimed, want at most 5%%", ours, runs)
	}
	if float64(naive)/runs <= 0.05 {
		t.Errorf("every look at 95%%: %d of %d A/A runs claimed; the simulation should show more than 5%%", naive, runs)
	}
	t.Logf("A/A claimed with no floor: looks with shares %d of %d, every look at 95%% %d of %d", ours, runs, naive, runs)
}

// The defaults, looks and a time budget together, on constructed rounds:
// the final interval covers the true ratio at least 95% of the time
// whatever ended the run (a clear verdict, the budget of a busy noise,
// the planned end); identical code is never claimed on a quiet machine; a
// real +1% is claimed in at least 9 of 10 quiet runs. On a busy machine
// whose time runs out after 40 rounds the interval is wide beside the
// 0.25% floor, and identical code is claimed about as often as its 95%
// level allows on one side (2.5%; 2.2% here): the test holds it there.
func TestLooksKeepCoverage(t *testing.T) {
	looks := Looks(DefaultRounds)
	rng := rand.New(rand.NewPCG(18, 4))
	for _, c := range []struct {
		name   string
		m      noise
		budget int // rounds before the time runs out, 0 for none
		change float64
		claims float64 // least share claimed, or most for A/A
	}{
		{"quiet A/A", quietNoise, 0, 0, 0},
		{"quiet +1%", quietNoise, 0, 0.01, 0.9},
		{"quiet +2%", quietNoise, 0, 0.02, 0.99},
		{"busy A/A, 40 rounds of time", busyNoise, 40, 0, 0.04},
		{"busy +1%, 40 rounds of time", busyNoise, 40, 0.01, 0},
		{"busy +2%, 15 rounds of time", busyNoise, 15, 0.02, 0},
	} {
		const runs = 500
		missed, claims, rounds := 0, 0, 0
		for range runs {
			p := playRun(rng, c.m, c.change, DefaultFloor, c.budget, looks)
			if !(p.CILow <= 1+c.change && 1+c.change <= p.CIHigh) {
				missed++
			}
			if claimed(p) {
				claims++
			}
			rounds += p.N
		}
		// 5% of 500 is 25, with a standard deviation of about 5.
		if missed > 30 {
			t.Errorf("%s: the interval missed the true ratio in %d of %d runs, want at most 5%%", c.name, missed, runs)
		}
		switch share := float64(claims) / runs; {
		case c.change == 0 && share > c.claims:
			t.Errorf("%s: claimed %d of %d runs of identical code, want at most %.0f%%", c.name, claims, runs, 100*c.claims)
		case c.change > 0 && share < c.claims:
			t.Errorf("%s: claimed %d of %d, want at least %.0f%%", c.name, claims, runs, 100*c.claims)
		}
		t.Logf("%s: missed %d, claimed %d of %d, %.1f rounds on average", c.name, missed, claims, runs, float64(rounds)/runs)
	}
}

// A look is decided only when the comparison is clear on every basis the
// analysis may choose: here wall time shows the candidate 5% slower (the
// machine took the CPU from it) while on-CPU time, which the analysis of
// a busy run judges on, shows the same code with ±3% noise.
func TestDecidedOnEveryBasis(t *testing.T) {
	rng := rand.New(rand.NewPCG(18, 5))
	st := result.Settings{Samples: DefaultRounds, Looks: Looks(DefaultRounds), Threshold: DefaultFloor}
	wallOnly := experiments(nil, nil)
	both := experiments(nil, nil)
	for range 61 {
		for side := range 2 {
			on := int64(100_000 * math.Exp(0.03*rng.NormFloat64()))
			wall := int64(100_000*(1+0.05*float64(side))) + 1000
			s := result.Sample{Iters: 1000, Ns: wall, Counters: map[string]int64{result.CounterThreadCPU: on}}
			both[side].Samples = append(both[side].Samples, s)
			s.Counters = nil
			wallOnly[side].Samples = append(wallOnly[side].Samples, s)
		}
	}
	if !Decided(st, wallOnly) {
		t.Errorf("wall time alone, 5%% slower in every round: not decided, want decided")
	}
	if Decided(st, both) {
		t.Errorf("on-CPU time the same with ±3%% noise: decided, want not (the analysis may judge on it)")
	}
}
