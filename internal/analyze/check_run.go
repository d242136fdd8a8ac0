package analyze

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// switched reports whether another task took the CPU inside s: an
// involuntary context switch (getrusage). Voluntary switches are left out
// on purpose: a pinned compute loop blocks only when Go's own scheduler
// parks its locked thread (sysmon preempts a goroutine that ran 10 ms,
// and a locked thread sleeps until its goroutine is handed back), which
// costs microseconds, happens in every sample of 10 ms or more, and is
// not another task on the CPU. Only where getrusage is missing does perf's
// context-switches (which does not split the two) stand in. known is false
// when s has neither counter.
func switched(s result.Sample) (yes, known bool) {
	if inv, ok := s.Counters[result.CounterInvoluntaryCS]; ok {
		return inv > 0, true
	}
	cs, ok := s.Counters[result.CounterContextSwitches]
	return cs > 0, ok
}

// moved reports whether s ran on another CPU than cpu or counted a
// migration. A negative cpu means no pin to compare with.
func moved(s result.Sample, cpu int) bool {
	return (cpu >= 0 && s.CPU != cpu) ||
		s.Counters[result.CounterMigrations] > 0 ||
		s.Counters[result.CounterNrMigrations] > 0
}

// OffCPUDisturbed and OffCPUMinNs: a sample whose thread was off the CPU
// for more than 1% of its wall time, and more than 50 µs, was disturbed.
// Another task that takes the CPU holds it for a scheduler slice of
// 0.75 ms or more; the floor keeps shorter waits of the thread's own from
// counting in short samples. (Go's runtime parking the locked thread when
// sysmon preempts it costs 150-200 µs per 10 ms here, and does count.) On
// this kind of machine every result corrupted by a competing task lost
// 43-62%. Waiting for the collector is left out by result.OffCPUShare.
const (
	OffCPUDisturbed = 0.01
	OffCPUMinNs     = 50_000
)

// OffCPUInflated: when the median sample lost more than 5% of its time off
// the CPU, the median itself is that much too high: the number is not
// believable. 5% is the least change benchy calls a difference elsewhere.
const OffCPUInflated = 0.05

// DisturbedQuantile: a disturbance only adds time, so disturbed samples
// rank among the slowest. While there are no more of them than samples
// above the 90th percentile, min, median and p90 are those of undisturbed
// samples, and the finding is info; beyond that it is a warning.
const DisturbedQuantile = 0.9

// aboveP90 is how many of n samples rank above the 90th percentile
// (DisturbedQuantile): as many slow samples as that leave min, median and
// p90 untouched.
func aboveP90(n int) int {
	return n - int(math.Ceil(DisturbedQuantile*float64(n)))
}

// checkDisturbed: samples in which another task had the CPU. Graded by
// what it cost, where the on-CPU time was counted: the share of each
// sample's wall time the thread was off the CPU. A few disturbed samples
// that all rank above p90 are noted; more are a warning (they move p90 or
// the median); a median sample that lost more than OffCPUInflated is an
// error, since the headline number itself is inflated. Without on-CPU time,
// involuntary context switches are counted, which cannot tell a harmless
// preemption from one that cost half the sample.
func checkDisturbed(e result.Experiment) (finding.Finding, bool) {
	if shares, ok := result.OffCPUShares(e); ok {
		return disturbedByTime(e, shares)
	}
	n := 0
	for _, s := range e.Samples {
		if yes, _ := switched(s); yes {
			n++
		}
	}
	if n == 0 {
		return finding.Finding{}, false
	}
	total := len(e.Samples)
	above := aboveP90(total)
	sev, tail := finding.Info, "no more than lie above p90, so min, median and p90 are undisturbed"
	if n > above {
		sev, tail = finding.Warn, "more than lie above p90: another task shared the CPU while measuring"
	}
	verb := "were"
	if n == 1 {
		verb = "was"
	}
	return finding.Finding{
		Code:     result.CodeDisturbed,
		Severity: sev,
		Message:  fmt.Sprintf("%d of %s %s preempted (another task took the CPU inside the sample: an involuntary context switch), %s", n, units.Count(total, "sample"), verb, tail),
		Evidence: map[string]any{"disturbed_samples": n, "samples": total, "above_p90": above},
	}, true
}

// offCPUDisturbed reports whether sample s lost enough of its wall time
// off the CPU to be disturbed (OffCPUDisturbed, OffCPUMinNs); false when
// it has no on-CPU time.
func offCPUDisturbed(s result.Sample) bool {
	share, ok := result.OffCPUShare(s)
	return ok && share > OffCPUDisturbed && share*float64(s.Ns) > OffCPUMinNs
}

// disturbedSamples lists, by index, the samples of e that were disturbed:
// by the time the thread spent off the CPU where on-CPU time was counted
// (OffCPUDisturbed), else by an involuntary context switch; a sample that
// moved to another CPU counts too. nil when nothing tells (no sample has
// the counters to judge by).
func disturbedSamples(e result.Experiment, cpu int) []int {
	out, known := []int{}, false
	_, byTime := result.OffCPUShares(e)
	for i, s := range e.Samples {
		var hit bool
		switch {
		case byTime && s.Iters > 0:
			hit, known = offCPUDisturbed(s), true
		default:
			sw, k := switched(s)
			hit, known = sw, known || k
		}
		if hit || moved(s, cpu) {
			out = append(out, i)
			known = true
		}
	}
	if !known {
		return nil
	}
	return out
}

// disturbedByTime is checkDisturbed on the off-CPU shares of e's samples.
func disturbedByTime(e result.Experiment, shares []float64) (finding.Finding, bool) {
	n := 0
	for _, s := range e.Samples {
		if s.Iters > 0 && offCPUDisturbed(s) {
			n++
		}
	}
	worst := slices.Max(shares)
	if n == 0 {
		return finding.Finding{}, false
	}
	total, above := len(shares), aboveP90(len(shares))
	med := stats.Median(shares)
	var sev finding.Severity
	var tail string
	switch {
	case med > OffCPUInflated:
		sev = finding.Error
		tail = fmt.Sprintf("the median sample itself lost %s (over %s), so the median is that much too high: another task had the CPU",
			units.PctOver(med, OffCPUInflated), units.Pct(OffCPUInflated))
	case n > above:
		sev = finding.Warn
		tail = fmt.Sprintf("more than lie above p90 (%d): another task shared the CPU while measuring, and p90 or the median moved", above)
	default:
		sev = finding.Info
		tail = fmt.Sprintf("no more than lie above p90 (%d), so min, median and p90 are undisturbed", above)
	}
	return finding.Finding{
		Code:     result.CodeDisturbed,
		Severity: sev,
		Message: fmt.Sprintf("%d of %s lost more than %s of their time off the CPU (the worst %s): %s",
			n, units.Count(total, "sample"), units.Pct(OffCPUDisturbed), units.Pct(worst), tail),
		Evidence: map[string]any{"disturbed_samples": n, "samples": total, "above_p90": above,
			"median_off_cpu_share": med, "max_off_cpu_share": worst, "threshold": OffCPUDisturbed, "min_ns": OffCPUMinNs},
	}, true
}

// checkMigrated: a sample ran on another CPU than the pinned one, or
// counted a migration. The pin did not hold, so the number belongs to no
// known CPU.
func checkMigrated(e result.Experiment, f Facts) (finding.Finding, bool) {
	n := 0
	var cpus []int
	for _, s := range e.Samples {
		if moved(s, f.CPU) {
			n++
			if s.CPU != f.CPU && !slices.Contains(cpus, s.CPU) {
				cpus = append(cpus, s.CPU)
			}
		}
	}
	if n == 0 {
		return finding.Finding{}, false
	}
	where := ""
	if len(cpus) > 0 {
		slices.Sort(cpus)
		names := make([]string, len(cpus))
		for i, c := range cpus {
			names[i] = fmt.Sprintf("cpu%d", c)
		}
		where = " (seen on " + strings.Join(names, ", ") + ")"
	}
	return finding.Finding{
		Code:     result.CodeMigrated,
		Severity: finding.Error,
		Message: fmt.Sprintf("%d of %s left cpu%d or counted a migration%s: the pin did not hold",
			n, units.Count(len(e.Samples), "sample"), f.CPU, where),
		Evidence: map[string]any{"migrated_samples": n, "pinned_cpu": f.CPU, "other_cpus": cpus},
	}, true
}

// checkGC: collections ran while sampling, so their pauses and write
// barriers are in some samples and not others. With --gc the user asked
// for that, and it is only noted.
func checkGC(e result.Experiment, f Facts) (finding.Finding, bool) {
	if e.GC.Cycles == 0 {
		return finding.Finding{}, false
	}
	if f.GCOn {
		return finding.Finding{
			Code: result.CodeGC, Severity: finding.Info,
			Message:  fmt.Sprintf("%s ran while sampling, the collector on: their cost is part of the times", units.Count(int(e.GC.Cycles), "GC cycle")),
			Evidence: map[string]any{"cycles": e.GC.Cycles, "gc_on": true},
		}, true
	}
	why := ""
	if f.MemoryLimit > 0 {
		why = fmt.Sprintf(": the heap reached the memory limit (%d MiB, half of what this process may use), and the collector ran as a last resort; a shorter --sample-time, or --gc, measures without that", f.MemoryLimit>>20)
	}
	return finding.Finding{
		Code: result.CodeGC, Severity: finding.Warn,
		Message:  fmt.Sprintf("%s ran while sampling although the collector was off: some samples carry their pauses%s", units.Count(int(e.GC.Cycles), "GC cycle"), why),
		Evidence: map[string]any{"cycles": e.GC.Cycles, "gc_on": false, "memory_limit_bytes": f.MemoryLimit},
	}, true
}

// AllocsMinPerOp: fewer than one allocation per op is not the op's own
// work done every time but the runtime's and the harness's background
// allocations (about a hundred over a sampling phase) spread over the ops,
// or amortized growth; Go's testing truncates allocs/op for the same
// reason.
const AllocsMinPerOp = 1

// checkAllocs notes heap allocations: they are often the cost being
// measured. With the collector off (the default) the time leaves out
// collecting them, which a program that allocates pays: concat/quadratic
// read 8.5 ms that way against 12.5-15.8 ms under go test and 42.7 ms with
// --gc. The finding says what the number leaves out and how to include it.
func checkAllocs(e result.Experiment, f Facts) (finding.Finding, bool) {
	if e.GC.AllocsPerOp < AllocsMinPerOp {
		return finding.Finding{}, false
	}
	noun := "allocations"
	if e.GC.AllocsPerOp == 1 {
		noun = "allocation"
	}
	msg := fmt.Sprintf("%s heap %s per op (%s B/op), measured outside the timed samples",
		units.Sig(e.GC.AllocsPerOp, 3), noun, units.Sig(e.GC.BytesPerOp, 3))
	if !f.GCOn {
		msg += "; the collector was off, so the time leaves out collecting them, which a real program pays: --gc on measures with it"
	}
	return finding.Finding{
		Code: result.CodeAllocs, Severity: finding.Info, Message: msg,
		Evidence: map[string]any{"allocs_per_op": e.GC.AllocsPerOp, "bytes_per_op": e.GC.BytesPerOp, "gc_on": f.GCOn},
	}, true
}

// FreqChangeRatio: a clock that moves by 5% moves every time by 5%, the
// size of the differences benchy is meant to show.
const FreqChangeRatio = 0.05

// checkFreqChange: the effective clock differed before and after the run.
func checkFreqChange(f Facts) (finding.Finding, bool) {
	if f.ClockBeforeHz <= 0 || f.ClockAfterHz <= 0 {
		return finding.Finding{}, false
	}
	change := (f.ClockAfterHz - f.ClockBeforeHz) / f.ClockBeforeHz
	if math.Abs(change) <= FreqChangeRatio {
		return finding.Finding{}, false
	}
	sign := "+"
	if change < 0 {
		sign = "-"
	}
	return finding.Finding{
		Code: result.CodeFreqChange, Severity: finding.Warn,
		Message: fmt.Sprintf("the effective clock moved from %s before to %s after the run (%s%s, over %s; %s): samples ran at different speeds",
			units.Hz(f.ClockBeforeHz), units.Hz(f.ClockAfterHz), sign, units.Pct(math.Abs(change)), units.Pct(FreqChangeRatio), cmp.Or(f.ClockSource, "source unknown")),
		Evidence: map[string]any{"before_hz": f.ClockBeforeHz, "after_hz": f.ClockAfterHz, "change": change},
	}, true
}
