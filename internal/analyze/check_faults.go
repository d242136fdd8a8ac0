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
	p, ok := readPageFaults(e)
	if !ok {
		return finding.Finding{}, false
	}
	cycles, steady := collections(e)
	p.steady = steady && f.GCOn
	sev, tail := p.verdict()
	ev := p.evidence()
	if p.steady {
		// Said first: it is why a share or a slow set that would be
		// a warning is only noted.
		ev["gc_cycles"] = cycles
		tail = p.steadyLead(cycles) + "; " + tail
	}
	return finding.Finding{
		Code:     result.CodePageFaults,
		Severity: sev,
		Message: fmt.Sprintf("%d of %s had page faults (%d in all, at most %d in one sample): %s",
			p.faulted, units.Count(p.samples, "sample"), p.total, p.most, tail),
		Evidence: ev,
	}, true
}

// pageFaults is what checkPageFaults reads of an experiment's samples
// whose faults were counted.
type pageFaults struct {
	samples, faulted int     // samples counted, and those that faulted
	total, most      int64   // faults in all, and in the sample with the most
	fewest           float64 // faults in the sample with the fewest
	above            int     // how many samples lie above p90
	// cut: the heavy samples have more faults than this; heavy and rest
	// are the ns/op of the heavy samples and of the others, heavyFaultNs
	// the time per op of each heavy sample's faults at FaultCostMaxNs.
	cut               float64
	heavy, rest       []float64
	heavyFaultNs      []float64
	heavyMed, restMed float64 // the medians of heavy and rest, when both have samples
	share             float64 // the median share of a sample's time its faults take at FaultCostNs each
	steady            bool    // the faults are the collector's steady state
}

// readPageFaults counts the faults of e's samples and sorts the samples
// into heavy and the rest; false when no sample counted faults or none
// faulted.
func readPageFaults(e result.Experiment) (pageFaults, bool) {
	var p pageFaults
	var counts []float64 // faults of every counted sample
	var times []float64  // its ns/op
	var shares []float64 // the share of its time FaultCostNs per fault makes
	var iters []float64  // its iterations
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
			p.faulted++
			p.total = satAdd(p.total, n)
			p.most = max(p.most, n)
		}
	}
	if p.faulted == 0 {
		return p, false
	}
	p.samples = len(counts)
	p.above = aboveP90(p.samples)
	p.fewest = slices.Min(counts)
	p.classify(counts, times, iters)
	if len(shares) > 0 {
		p.share = stats.Median(shares)
	}
	return p, true
}

// classify sorts the samples into heavy, those with more faults than
// halfway between the fewest and the most, and the rest.
func (p *pageFaults) classify(counts, times, iters []float64) {
	p.cut = (p.fewest + float64(p.most)) / 2
	for i, c := range counts {
		if c > p.cut {
			p.heavy = append(p.heavy, times[i])
			p.heavyFaultNs = append(p.heavyFaultNs, c*FaultCostMaxNs/iters[i])
		} else {
			p.rest = append(p.rest, times[i])
		}
	}
	if len(p.heavy) > 0 && len(p.rest) > 0 {
		p.heavyMed, p.restMed = stats.Median(p.heavy), stats.Median(p.rest)
	}
}

// verdict is the finding's severity and what its message says of the
// faults, the rules in the order checkPageFaults's comment gives them.
func (p *pageFaults) verdict() (finding.Severity, string) {
	lead, they := p.subject()
	heavyMed, restMed := units.Duration(p.heavyMed), units.Duration(p.restMed)
	switch {
	case p.share > PageFaultsMaxShare && !p.steady:
		return finding.Warn, fmt.Sprintf("at ~%s each they take about %s of a typical sample (over %s): the time includes the kernel mapping memory "+
			"(the heap grew, or pages returned to the OS were touched again); a longer --warmup may help, if the heap was still growing",
			units.Duration(FaultCostNs), units.Pct(p.share), units.Pct(PageFaultsMaxShare))
	case p.fewest == float64(p.most):
		return finding.Info, "every sample faulted equally often, so the faults are part of every time, not of a few slow samples"
	case len(p.heavy) <= p.above:
		return finding.Info, fmt.Sprintf("%s%s are no more than lie above p90 (%d), so min, median and p90 are not moved by the faults", lead, they, p.above)
	case p.heavyMed <= p.restMed*(1+PageFaultsMinExcess):
		return finding.Info, fmt.Sprintf("%s%s are not slower than the others (median %s/op against %s/op), so the faults cost little",
			lead, they, heavyMed, restMed)
	case stats.Median(p.heavyFaultNs) < (p.heavyMed-p.restMed)/2:
		return finding.Info, fmt.Sprintf("%s%s are slower (median %s/op against %s/op), but even at %s a fault their faults explain at most %s/op of it: "+
			"something else slowed those samples",
			lead, they, heavyMed, restMed, units.Duration(FaultCostMaxNs), units.Duration(stats.Median(p.heavyFaultNs)))
	case p.steady:
		return finding.Info, fmt.Sprintf("%s%s are the slower ones (median %s/op against %s/op), more than lie above p90 (%d), "+
			"which is how the program's own time varies as collections come and go: unstable and the series' shape judge that",
			lead, they, heavyMed, restMed, p.above)
	}
	return finding.Warn, fmt.Sprintf("%s%s are the slow ones (median %s/op against %s/op) and more than lie above p90 (%d), so they move the median or p90: "+
		"memory was mapped while measuring (the heap grew, or pages returned to the OS were touched again); a longer --warmup may help, if the heap was still growing",
		lead, they, heavyMed, restMed, p.above)
}

// subject is how the message speaks of the heavy samples: as "they" when
// they are all the faulting ones; else as "those", led by where they
// were cut.
func (p *pageFaults) subject() (lead, they string) {
	if len(p.heavy) == p.faulted {
		return "", "they"
	}
	return fmt.Sprintf("%d had more than %s (halfway between the fewest, %d, and the most, %d), and ",
		len(p.heavy), units.Sig(p.cut, 3), int64(p.fewest), p.most), "those"
}

// steadyLead says the faults are the collector's steady state, after
// cycles collections in the samples.
func (p *pageFaults) steadyLead(cycles int64) string {
	lead := fmt.Sprintf("the collector ran in the samples (%s), so they are the heap's steady state, memory freed and faulted in again, which the program pays as well",
		units.Count(int(min(cycles, math.MaxInt32)), "cycle"))
	if p.share > PageFaultsMaxShare {
		lead = fmt.Sprintf("at ~%s each they take about %s of a typical sample, but %s", units.Duration(FaultCostNs), units.Pct(p.share), lead)
	}
	return lead
}

// evidence is the numbers the finding rests on.
func (p *pageFaults) evidence() map[string]any {
	ev := map[string]any{
		"faulted_samples": p.faulted, "samples": p.samples, "faults": p.total, "max_faults": p.most,
		"fewest_faults": p.fewest, "heavy_cut": p.cut, "heavy_samples": len(p.heavy), "above_p90": p.above,
		"fault_share": p.share,
	}
	if len(p.heavy) > 0 && len(p.rest) > 0 {
		ev["heavy_median_ns"], ev["rest_median_ns"] = p.heavyMed, p.restMed
	}
	return ev
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
