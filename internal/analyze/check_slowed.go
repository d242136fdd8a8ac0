package analyze

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// The probes around an experiment see only its two ends; the host shares a
// core for stretches of seconds that may fall anywhere between them. So
// every sample is followed by a short speed check of its own (the
// reference loop, Sample.RefNs), and a sample is slowed when the check
// before it or after it ran the loop more than SlowCoreRatio slower than
// the best the run measured. The evidence is outside the code under test:
// a sample is never left out for its own slowness.

// Slowed lists, by index, the samples whose speed check before or after
// them (the previous sample's check, or the probe before the first) ran
// the reference loop more than SlowCoreRatio slower than best ns per
// iteration; a check after a sample in which the program's own collector
// ran is no evidence (ownCollector). Nil when best is unknown or no sample
// was checked.
func Slowed(e result.Experiment, best float64) []int {
	if best <= 0 || !slices.ContainsFunc(e.Samples, func(s result.Sample) bool { return s.RefNs > 0 }) {
		return nil
	}
	limit := best * (1 + SlowCoreRatio)
	prev := 0.0
	if e.Reference != nil {
		prev = e.Reference.BeforeNs
	}
	out := []int{}
	for i, s := range e.Samples {
		ref := s.RefNs
		if ownCollector(s) {
			ref = 0 // no evidence: the program's own collector may have slowed it
		}
		if max(prev, ref) > limit {
			out = append(out, i)
		}
		prev = ref
	}
	return out
}

// ownCollector reports whether the program's own collector ran during
// sample s. Its workers run beside the measured thread, on other CPUs, one
// of which may be the measured core's other hardware thread: a check right
// after such a sample may read the program's own cost, which is never a
// reason to leave a sample out.
func ownCollector(s result.Sample) bool {
	return s.Counters[result.CounterGCCycles] > 0 || s.Counters[result.CounterGCCPU] > 0
}

// checkSlowedSamples judges the checks beside the samples, where they were
// taken: slowed samples left out of the statistics (info), or too many of
// them to leave out (slow-core, warn). ok is false when no sample was
// checked: the probes around the experiment judge then (checkSlowCore).
func checkSlowedSamples(e result.Experiment, f Facts) (fd finding.Finding, found, checked bool) {
	if e.Slowed == nil {
		return finding.Finding{}, false, false
	}
	n, k := len(e.Samples), len(e.Slowed)
	if k == 0 {
		return finding.Finding{}, false, true
	}
	worst := 0.0
	for _, i := range e.Slowed {
		worst = max(worst, e.Samples[i].RefNs)
	}
	ratio := worst / f.RunRefNs
	ev := map[string]any{"slowed_samples": k, "samples": n, "worst_ref_ns": worst, "run_best_ref_ns": f.RunRefNs, "worst_ratio": ratio}
	what := fmt.Sprintf("%d of %s %s taken while the core ran a reference loop up to %s slower than its best in the run (%s ns per iteration against %s): the host or a sibling hardware thread took a share of the core",
		k, units.Count(n, "sample"), were(k), units.Pct(ratio-1), units.Sig(worst, 3), units.Sig(f.RunRefNs, 3))
	if result.CleanEnough(n, k) {
		return finding.Finding{Code: result.CodeSlowedSamples, Severity: finding.Info, Evidence: ev,
			Message: what + fmt.Sprintf("; the statistics are of the %d others", n-k)}, true, true
	}
	return finding.Finding{Code: result.CodeSlowCore, Severity: finding.Warn, Evidence: ev,
		Message: what + fmt.Sprintf("; too few others (%d) to judge on them alone, so the times may be too long by as much", n-k)}, true, true
}

// were is "was" for one, "were" for more.
func were(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// checkRemeasured says that e was measured more than once because the
// machine slowed it (a slowed core touched too many of its samples, or
// its speed checks ran slow through it), where each attempt was taken
// and how slowed it was, and which one the statistics are of; or that it
// was measured once, on the CPU the run had moved to (e.CPU is set only
// when that is not the run's).
func checkRemeasured(e result.Experiment, f Facts) (finding.Finding, bool) {
	if len(e.Attempts) == 0 && e.CPU != nil {
		return finding.Finding{
			Code:     result.CodeRemeasured,
			Severity: finding.Info,
			Message: fmt.Sprintf("measured on cpu%d, where the run had moved: the host slowed the core under an experiment before it, and its attempt on cpu%d was kept",
				*e.CPU, *e.CPU),
			Evidence: map[string]any{"attempts": 1, "judged_cpu": *e.CPU, "moved": true},
		}, true
	}
	if len(e.Attempts) == 0 {
		return finding.Finding{}, false
	}
	var parts []string
	cpus := []int{}
	for _, a := range e.Attempts {
		parts = append(parts, "cpu"+strconv.Itoa(a.CPU)+" "+attemptSlowing(a.Experiment(), f))
		cpus = append(cpus, a.CPU)
	}
	judgedCPU := f.CPU
	return finding.Finding{
		Code:     result.CodeRemeasured,
		Severity: finding.Info,
		Message: fmt.Sprintf("measured again %s, the host having slowed the core (%s): the statistics are of the attempt on cpu%d, %s",
			times(len(e.Attempts)), strings.Join(parts, "; "), judgedCPU, attemptSlowing(e, f)),
		Evidence: map[string]any{"attempts": len(e.Attempts) + 1, "earlier_cpus": cpus, "judged_cpu": judgedCPU},
	}, true
}

// attemptSlowing says how the machine slowed an attempt: the samples a
// slowed core touched, and the median of its speed checks against the
// run's best when it was SlowClockRatio or more slower.
func attemptSlowing(e result.Experiment, f Facts) string {
	s := fmt.Sprintf("%d of %d slowed", len(e.Slowed), len(e.Samples))
	if over, ok := checksOver(e, f.RunRefNs); ok && over >= SlowClockRatio {
		s += fmt.Sprintf(", its checks %s slower", units.Pct(over))
	}
	return s
}

// times is "once", "twice", or "n times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
