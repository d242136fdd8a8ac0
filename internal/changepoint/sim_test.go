package changepoint

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestSimulatedRates prints how often Classify returns each class for
// series of 31 samples with 2% normal noise, over 1000 seeds per scenario:
// sample i is 100·level(i)·(1 + 0.02·Z), Z standard normal, drawn by series
// for seeds 0 to 999. It prints rather than asserts, so it runs only with
// CHANGEPOINT_SIM=1:
//
//	CHANGEPOINT_SIM=1 go test -run SimulatedRates -v ./internal/changepoint/
func TestSimulatedRates(t *testing.T) {
	if os.Getenv("CHANGEPOINT_SIM") == "" {
		t.Skip("set CHANGEPOINT_SIM=1 to run the simulation")
	}
	const n, sigma, seeds = 31, 0.02, 1000
	for _, sc := range []struct {
		name  string
		level func(*rand.Rand, int) float64
	}{
		{"linear drift +10% over the series", drift(n, 0.10)},
		{"hog +40% over samples 10-20", hog(10, 21, 0.40)},
		{"bimodal 50/50 at +10%, random order", bimodal(0.10)},
		{"flat", flat},
		{"step +10% at sample 20", step(20, 0.10)},
		{"warm-up 1+0.5·exp(-i/2)", decay(0.5, 2)},
		{"warm-up 1+0.3·exp(-i/3)", decay(0.3, 3)},
		{"step -10% at sample 10", step(10, -0.10)},
		{"step +20% at sample 20", step(20, 0.20)},
	} {
		counts := map[Class]int{}
		for seed := range uint64(seeds) {
			counts[Classify(series(seed, n, sigma, sc.level)).Class]++
		}
		var b strings.Builder
		for _, c := range []Class{Flat, Warmup, Slowdown, NoSteadyState} {
			fmt.Fprintf(&b, "  %s %5.1f%%", c, 100*float64(counts[c])/seeds)
		}
		t.Logf("%-40s%s", sc.name, b.String())
	}
}

// BenchmarkClassify times Classify on a flat series, where PELT can prune
// little and is quadratic, and on a warm-up.
func BenchmarkClassify(b *testing.B) {
	for _, n := range []int{31, 1000} {
		for _, sc := range []struct {
			name  string
			level func(*rand.Rand, int) float64
		}{
			{"flat", flat},
			{"warmup", decay(0.5, float64(n)/15)},
		} {
			xs := series(1, n, 0.02, sc.level)
			b.Run(fmt.Sprintf("n=%d/%s", n, sc.name), func(b *testing.B) {
				for b.Loop() {
					Classify(xs)
				}
			})
		}
	}
}
