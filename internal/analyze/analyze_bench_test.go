package analyze

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// BenchmarkAnalyzeLarge times Analyze of the fixture result with one
// experiment of n samples (2% noise, flat: the changepoint search's worst
// case, and counters in every sample, as a run records them) up to the
// 100000 that --samples allows and a million that the loader accepts.
func BenchmarkAnalyzeLarge(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000, 1_000_000} {
		r := fixtureResult()
		rng := rand.New(rand.NewPCG(1, 2))
		samples := make([]result.Sample, n)
		for i := range samples {
			ns := int64(314 * 32000 * (1 + 0.02*rng.NormFloat64()))
			samples[i] = result.Sample{Iters: 32000, Ns: ns, CPU: 1, Counters: map[string]int64{
				result.CounterTaskClock: ns - 2000, result.CounterInvoluntaryCS: 0, result.CounterPageFaults: 0}}
		}
		r.Experiments[0].Samples = samples
		r.Settings.Samples = n
		b.Run(fmt.Sprintf("samples=%d", n), func(b *testing.B) {
			for b.Loop() {
				Analyze(r)
			}
		})
	}
}
