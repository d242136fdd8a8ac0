package analyze

import (
	"fmt"
	"math"
	"slices"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// UnstableMADRatio: the median absolute deviation may be at most 5% of
// the median. Repeated samples on a quiet pinned CPU agree within 1-2%; at
// 5% the noise is as large as the differences people look for. The spread
// is judged by the MAD alone: a few far samples inflate the standard
// deviation while the median and the MAD stay put (3% of samples at twice
// the time made 61% of steady runs "unstable" by a standard-deviation
// rule), and those are outliers, which the outliers finding counts.
const UnstableMADRatio = 0.05

// checkUnstable: the samples spread too much to give one number.
func checkUnstable(st result.Stats) (finding.Finding, bool) {
	if st.N < 2 || st.Median <= 0 {
		return finding.Finding{}, false
	}
	madRatio := st.MAD / st.Median
	if madRatio <= UnstableMADRatio {
		return finding.Finding{}, false
	}
	return finding.Finding{
		Code:     result.CodeUnstable,
		Severity: finding.Warn,
		Message: fmt.Sprintf("the median absolute deviation is %s of the median (over %s): the samples do not agree on one number",
			units.PctOver(madRatio, UnstableMADRatio), units.Pct(UnstableMADRatio)),
		Evidence: map[string]any{"mad_ratio": madRatio, "limit": UnstableMADRatio},
	}, true
}

const (
	// TukeyK is Tukey's fence factor: a sample further than 1.5 interquartile
	// ranges outside the quartiles is an outlier (about 0.7% of a normal
	// distribution would be).
	TukeyK = 1.5
	// OutlierMinSamples: with fewer samples the quartiles are the extremes
	// themselves and fences mean nothing.
	OutlierMinSamples = 4
)

// checkOutliers counts samples beyond Tukey's fences. Outliers are normal
// in benchmark times (interrupts, page faults); they are worth knowing, and
// the median ignores them.
func checkOutliers(e result.Experiment) (finding.Finding, bool) {
	xs := result.NsPerOp(e.Samples)
	if len(xs) < OutlierMinSamples {
		return finding.Finding{}, false
	}
	slices.Sort(xs)
	q1 := stats.Quantile(0.25, xs)
	q3 := stats.Quantile(0.75, xs)
	lo, hi := q1-TukeyK*(q3-q1), q3+TukeyK*(q3-q1)
	low, high := 0, 0
	for _, x := range xs {
		if x < lo {
			low++
		} else if x > hi {
			high++
		}
	}
	if low+high == 0 {
		return finding.Finding{}, false
	}
	return finding.Finding{
		Code:     result.CodeOutliers,
		Severity: finding.Info,
		Message: fmt.Sprintf("%d of %s outside Tukey's fences (%s to %s, quartiles ± 1.5 IQR): %d low, %d high",
			low+high, units.Count(len(xs), "sample"), units.Duration(lo), units.Duration(hi), low, high),
		Evidence: map[string]any{"low": low, "high": high, "fence_low_ns": lo, "fence_high_ns": hi},
	}, true
}

const (
	// FirstSlowSigmas: the first sample is "far slower" when it lies more
	// than 10 σ (estimated from the MAD) above the median of the rest;
	// noise alone practically never does that.
	FirstSlowSigmas = 10
	// FirstSlowMinExcess: and at least 5% above it, so that a MAD of 0
	// (identical integer times) does not flag a difference of 1 ns.
	FirstSlowMinExcess = 0.05
)

// checkFirstSlow: the first sample is far slower than the rest, so the
// warm-up did not reach the steady state (cold caches, lazy page faults,
// a clock still ramping up).
func checkFirstSlow(e result.Experiment) (finding.Finding, bool) {
	if len(e.Samples) < 3 || e.Samples[0].Iters <= 0 {
		return finding.Finding{}, false
	}
	first := e.Samples[0].NsPerOp()
	rest := result.NsPerOp(e.Samples[1:])
	if len(rest) < 2 {
		return finding.Finding{}, false
	}
	med := stats.Median(rest)
	m := stats.MAD(rest, med)
	limit := med + FirstSlowSigmas*stats.MADToSigma*m
	if first <= limit || first <= med*(1+FirstSlowMinExcess) {
		return finding.Finding{}, false
	}
	return finding.Finding{
		Code:     result.CodeFirstSlow,
		Severity: finding.Warn,
		Message: fmt.Sprintf("the first sample took %s/op, the others %s (median) ± %s (MAD): beyond median + 10 x 1.4826 x MAD = %s; the warm-up was too short",
			units.Duration(first), units.Duration(med), units.Duration(m), units.Duration(limit)),
		Evidence: map[string]any{"first_ns": first, "median_rest_ns": med, "mad_rest_ns": m, "limit_ns": limit},
	}, true
}

const (
	// DriftAlpha: the halves must differ at p < 0.01 (Mann-Whitney). Each
	// experiment is tested once per run, and a run holds about ten of them:
	// 0.01 keeps false alarms to about one run in ten.
	DriftAlpha = 0.01
	// DriftMinChange: and their medians by more than 5%, so that a tiny but
	// consistent change over many samples is not called drift.
	DriftMinChange = 0.05
	// DriftMinSamples: with 5 samples per half the smallest possible p-value
	// is 0.008, the first below DriftAlpha.
	DriftMinSamples = 10
)

// checkDrift: the first and second halves of the samples (in the order
// taken) differ, so the machine or the program changed during the run.
func checkDrift(e result.Experiment) (finding.Finding, bool) {
	xs := result.NsPerOp(e.Samples)
	if len(xs) < DriftMinSamples {
		return finding.Finding{}, false
	}
	a, b := xs[:len(xs)/2], xs[len(xs)/2:]
	ma, mb := stats.Median(a), stats.Median(b)
	if ma <= 0 {
		return finding.Finding{}, false
	}
	change := (mb - ma) / ma
	p := stats.MannWhitney(a, b)
	if p >= DriftAlpha || math.Abs(change) <= DriftMinChange {
		return finding.Finding{}, false
	}
	dir := "slower"
	if change < 0 {
		dir = "faster"
	}
	return finding.Finding{
		Code:     result.CodeDrift,
		Severity: finding.Warn,
		Message: fmt.Sprintf("the second half of the samples is %s %s than the first (median %s vs %s; Mann-Whitney p = %s < %s): something changed during the run",
			units.Pct(math.Abs(change)), dir, units.Duration(mb), units.Duration(ma), units.Sig(p, 2), units.Sig(DriftAlpha, 2)),
		Evidence: map[string]any{"first_half_median_ns": ma, "second_half_median_ns": mb, "change": change, "p": p},
	}, true
}
