package analyze

import (
	"fmt"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// FewSamplesMin is the fewest samples a number is believed from. A median
// withstands (n-1)/2 disturbed samples: one of 3 or 4, two from 5 on. Below
// 5 the other checks are blind as well: Tukey's fences need
// OutlierMinSamples, drift needs DriftMinSamples, and a spread (MAD) of 3
// values rests on one deviation. benchstat asks for 6 before it gives a
// confidence interval; 5 is the least at which a single bad pair of
// samples does not decide the number.
const FewSamplesMin = 5

// checkFewSamples: too few samples to judge spread, outliers or drift;
// the median of so few moves with one or two disturbed samples.
func checkFewSamples(st result.Stats) (finding.Finding, bool) {
	if st.N == 0 || st.N >= FewSamplesMin {
		return finding.Finding{}, false
	}
	moving := "one slow sample is" // of 1 or 2
	if st.N >= 3 {
		moving = "two slow samples are"
	}
	return finding.Finding{
		Code:     result.CodeFewSamples,
		Severity: finding.Warn,
		Message: fmt.Sprintf("only %s (fewer than %d): spread, outliers and drift cannot be judged, and %s enough to move the median; take more (--samples)",
			units.Count(st.N, "sample"), FewSamplesMin, moving),
		Evidence: map[string]any{"samples": st.N, "min_samples": FewSamplesMin},
	}, true
}

// checkShortSamples: the iterations were calibrated to make each sample
// last at least the sample time, yet the median sample was shorter. The
// calibration runs were slower than the samples (cold caches, a clock
// still ramping up, a disturbance), so the samples hold fewer clock steps
// and fewer iterations than planned. Below-clock judges whether that
// matters for the clock; this only says it happened.
func checkShortSamples(e result.Experiment, f Facts) (finding.Finding, bool) {
	if f.FixedIters != 0 || f.SampleTime <= 0 {
		return finding.Finding{}, false // fixed iterations, or nothing asked
	}
	var ns []float64
	var iters int64
	for _, s := range e.Samples {
		if s.Iters > 0 {
			ns = append(ns, float64(s.Ns))
			iters = max(iters, s.Iters)
		}
	}
	// At MaxIters calibration stopped at its cap, not at the sample time:
	// the loop is too fast to fill a sample, which impossible judges.
	if len(ns) == 0 || iters >= harness.MaxIters {
		return finding.Finding{}, false
	}
	med := stats.Median(ns)
	want := float64(f.SampleTime.Nanoseconds())
	if med >= want {
		return finding.Finding{}, false
	}
	return finding.Finding{
		Code:     result.CodeShortSamples,
		Severity: finding.Info,
		Message: fmt.Sprintf("the median sample lasted %s, less than the %s asked (--sample-time): the calibration runs were slower than the samples, so each holds fewer iterations than planned",
			units.Duration(med), units.Duration(want)),
		Evidence: map[string]any{"median_sample_ns": med, "sample_time_ns": int64(f.SampleTime / time.Nanosecond)},
	}, true
}

// SpawnDominatedRatio: a program that runs for less than ten times what
// starting a process costs is measured mostly as the start: the fork, the
// exec, the dynamic loader, benchy's own wait. Its time says little of
// its work, and a change of the work hides in the start's noise.
const SpawnDominatedRatio = 10

// checkSpawn: a program whose median run lasts less than
// SpawnDominatedRatio times the cost of starting one.
func checkSpawn(e result.Experiment, st result.Stats, f Facts) (finding.Finding, bool) {
	if e.Kind != result.KindProcess || f.SpawnNs <= 0 || st.N == 0 || st.Median >= SpawnDominatedRatio*f.SpawnNs {
		return finding.Finding{}, false
	}
	return finding.Finding{
		Code:     result.CodeSpawn,
		Severity: finding.Warn,
		Message: fmt.Sprintf("a run lasts %s, less than %d times what starting a process costs here (%s): the time is mostly the start, not the work; give it more work per run",
			units.Duration(st.Median), SpawnDominatedRatio, units.Duration(f.SpawnNs)),
		Evidence: map[string]any{"median_ns": st.Median, "spawn_ns": f.SpawnNs, "ratio": st.Median / f.SpawnNs},
	}, true
}
