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

// faults returns the page faults counted inside s: perf's page-faults
// (minor and major), else getrusage's minor faults. known is false when s
// carries neither.
func faults(s result.Sample) (n int64, known bool) {
	if n, ok := s.Counters[result.CounterPageFaults]; ok {
		return n, true
	}
	n, known = s.Counters[result.CounterMinorFaults]
	return n, known
}

// PageFaultsMinExcess: the samples with the most faults count as the slow
// ones when their median ns/op is more than 5% above the others'; 5% is
// the least change benchy calls a difference elsewhere (FirstSlowMinExcess,
// DriftMinChange), smaller gaps are the noise of a quiet machine.
const PageFaultsMinExcess = 0.05

// FaultCostNs is roughly what one minor page fault costs: the trap, the
// kernel's bookkeeping and zeroing a 4 KiB page take on the order of a
// microsecond on current x86 and arm64 cores (more in a VM, where the
// host may fault too). It turns fault counts into a share of the time.
const FaultCostNs = 1000

// FaultCostMaxNs is what a fault may cost at most before benchy says the
// faults cannot explain a slowdown: ten times FaultCostNs, for a VM where
// the host faults too, for huge pages, and for the cache misses a fresh
// page brings after it. Only a slowdown even that cannot explain is put
// on something else.
const FaultCostMaxNs = 10 * FaultCostNs

// PageFaultsMaxShare: when faults take more than 5% of a typical sample,
// the number measures the kernel mapping memory as much as the code, on
// every sample alike, so no slow-sample rule would catch it.
const PageFaultsMaxShare = 0.05

// checkPageFaults: page faults inside samples mean memory was mapped while
// measuring (the heap grew, or pages the runtime had returned to the OS
// were touched again), and each fault adds kernel time that depends on the
// OS, not on the code. The rule, like disturbed's: the "heavy" samples are
// those with more faults than halfway between the fewest and the most of
// any sample (any fault, when some had none and the rest had few), so that
// a few hundred faults in every sample do not hide the samples with
// thousands. They are a warning when there are more of them than lie above
// p90 (DisturbedQuantile) and their median ns/op is more than
// PageFaultsMinExcess above the others': then they are the slow ones, and
// too many to stay above p90, so they move the p90 or the median.
// Otherwise the faults are noted (info).
//
// Faults taking more than PageFaultsMaxShare of every sample are a warning
// too. Neither is, when the collector ran in most samples (f.GCOn, and
// collections counted: see collections): then the faults are the heap's
// steady state, memory freed and faulted in again cycle after cycle,
// which the program pays as well and no longer warm-up removes, and the
// samples that faulted more are those in which more collecting fell: the
// program's own time varying, which unstable and the series' shape judge.
// concat/quadratic, 50 collections a sample, faulted 4-10 k times in every
// one of them and was doubtful for that alone, run after run on a quiet
// machine; its time follows the collector's CPU time (28-53 ms of
// 57-92 ms), not its faults. A heap still growing shows in the series.
func checkPageFaults(e result.Experiment, f Facts) (finding.Finding, bool) {
	var counts []float64 // faults of every counted sample
	var times []float64  // its ns/op
	var shares []float64 // the share of its time FaultCostNs per fault makes
	var iters []float64  // its iterations
	var total, most int64
	faulted := 0
	for _, s := range e.Samples {
		n, ok := faults(s)
		if !ok || s.Iters <= 0 {
			continue
		}
		counts = append(counts, float64(n))
		times = append(times, s.NsPerOp())
		iters = append(iters, float64(s.Iters))
		if s.Ns > 0 {
			shares = append(shares, float64(n)*FaultCostNs/float64(s.Ns))
		}
		if n > 0 {
			faulted++
			total = satAdd(total, n)
			most = max(most, n)
		}
	}
	if faulted == 0 {
		return finding.Finding{}, false
	}
	samples := len(counts)
	above := aboveP90(samples)
	fewest := slices.Min(counts)
	cut := (fewest + float64(most)) / 2
	var heavy, rest, heavyFaultNs []float64 // heavyFaultNs: fault time per op
	for i, c := range counts {
		if c > cut {
			heavy = append(heavy, times[i])
			heavyFaultNs = append(heavyFaultNs, c*FaultCostMaxNs/iters[i])
		} else {
			rest = append(rest, times[i])
		}
	}
	// The message speaks of the faulting samples as "they" when they are
	// the heavy ones; else of the heavy ones, with where they were cut.
	they, lead := "they", ""
	if len(heavy) != faulted {
		they, lead = "those", fmt.Sprintf("%d had more than %s (halfway between the fewest, %d, and the most, %d), and ",
			len(heavy), units.Sig(cut, 3), int64(fewest), most)
	}
	ev := map[string]any{
		"faulted_samples": faulted, "samples": samples, "faults": total, "max_faults": most,
		"fewest_faults": fewest, "heavy_cut": cut, "heavy_samples": len(heavy), "above_p90": above,
	}
	var heavyMed, restMed float64
	if len(heavy) > 0 && len(rest) > 0 {
		heavyMed, restMed = stats.Median(heavy), stats.Median(rest)
		ev["heavy_median_ns"], ev["rest_median_ns"] = heavyMed, restMed
	}
	share := 0.0
	if len(shares) > 0 {
		share = stats.Median(shares)
	}
	ev["fault_share"] = share
	cycles, steady := collections(e)
	steady = steady && f.GCOn
	sev := finding.Info
	var tail string
	switch {
	case share > PageFaultsMaxShare && !steady:
		sev = finding.Warn
		tail = fmt.Sprintf("at ~%s each they take about %s of a typical sample (over %s): the time includes the kernel mapping memory "+
			"(the heap grew, or pages returned to the OS were touched again); a longer --warmup may help, if the heap was still growing",
			units.Duration(FaultCostNs), units.Pct(share), units.Pct(PageFaultsMaxShare))
	case fewest == float64(most):
		tail = "every sample faulted equally often, so the faults are part of every time, not of a few slow samples"
	case len(heavy) <= above:
		tail = fmt.Sprintf("%s%s are no more than lie above p90 (%d), so min, median and p90 are not moved by the faults", lead, they, above)
	case heavyMed <= restMed*(1+PageFaultsMinExcess):
		tail = fmt.Sprintf("%s%s are not slower than the others (median %s/op against %s/op), so the faults cost little",
			lead, they, units.Duration(heavyMed), units.Duration(restMed))
	case stats.Median(heavyFaultNs) < (heavyMed-restMed)/2:
		tail = fmt.Sprintf("%s%s are slower (median %s/op against %s/op), but even at %s a fault their faults explain at most %s/op of it: "+
			"something else slowed those samples",
			lead, they, units.Duration(heavyMed), units.Duration(restMed), units.Duration(FaultCostMaxNs), units.Duration(stats.Median(heavyFaultNs)))
	case steady:
		tail = fmt.Sprintf("%s%s are the slower ones (median %s/op against %s/op), more than lie above p90 (%d), "+
			"which is how the program's own time varies as collections come and go: unstable and the series' shape judge that",
			lead, they, units.Duration(heavyMed), units.Duration(restMed), above)
	default:
		sev = finding.Warn
		tail = fmt.Sprintf("%s%s are the slow ones (median %s/op against %s/op) and more than lie above p90 (%d), so they move the median or p90: "+
			"memory was mapped while measuring (the heap grew, or pages returned to the OS were touched again); a longer --warmup may help, if the heap was still growing",
			lead, they, units.Duration(heavyMed), units.Duration(restMed), above)
	}
	if steady {
		// Said first: it is why a share or a slow set that would be
		// a warning is only noted.
		ev["gc_cycles"] = cycles
		lead := fmt.Sprintf("the collector ran in the samples (%s), so they are the heap's steady state, memory freed and faulted in again, which the program pays as well",
			units.Count(int(min(cycles, math.MaxInt32)), "cycle"))
		if share > PageFaultsMaxShare {
			lead = fmt.Sprintf("at ~%s each they take about %s of a typical sample, but %s", units.Duration(FaultCostNs), units.Pct(share), lead)
		}
		tail = lead + "; " + tail
	}
	return finding.Finding{
		Code:     result.CodePageFaults,
		Severity: sev,
		Message: fmt.Sprintf("%d of %s had page faults (%d in all, at most %d in one sample): %s",
			faulted, units.Count(samples, "sample"), total, most, tail),
		Evidence: ev,
	}, true
}

// satAdd adds positive counts without wrapping around: a damaged file may
// hold absurd counters.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// collections is how many collections ran inside e's samples (the
// experiment's count, else the sum of the samples' own gc-cycles), and
// whether they ran in most of them: more than half of the samples that
// count their collections had one, or, where none counts them, there were
// at least as many as samples. A heap still growing collects too, once
// each time it doubles, but in a few samples, not in most.
func collections(e result.Experiment) (n int64, most bool) {
	counted, collected := 0, 0
	for _, s := range e.Samples {
		c, ok := s.Counters[result.CounterGCCycles]
		if !ok || s.Iters <= 0 {
			continue
		}
		counted++
		if c > 0 {
			collected++
			n = satAdd(n, c)
		}
	}
	if e.GC.Cycles > 0 {
		n = int64(e.GC.Cycles)
	}
	if counted > 0 {
		return n, 2*collected > counted
	}
	return n, n > 0 && n >= int64(len(e.Samples))
}
