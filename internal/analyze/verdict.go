package analyze

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
)

// envBearing lists the environment codes that, as warnings, say something
// else may run on, or slow, the measured CPU: read from a one-second window
// before the run (cpu-busy, sibling-busy, steal, load) or from how the
// process is limited (throttled, cgroup-quota). They are a risk, not
// evidence: a number is made doubtful by what happened to its own samples.
// So they join the reasons only of an experiment whose samples show
// interference (interferenceCodes), where they name its likely cause; on
// the others they stay notes. (On 62 clean results of a shared VM, the
// window alone called 20 doubtful, 12 by load; with this rule 5, and no
// corrupted result was missed.) The other environment warnings (governor,
// turbo, freq-range, efficiency-core, no-cpufreq) describe how the CPU
// was set up: they change what a number means, not whether it was measured
// correctly. Environment errors of any code make every number doubtful.
// An environment finding never makes a number "not believable".
var envBearing = []string{machine.CodeCPUBusy, machine.CodeSiblingBusy, machine.CodeSteal, machine.CodeLoad, machine.CodeThrottled, machine.CodeCgroupQuota, machine.CodeSlowCPU, result.CodeCPUShared}

// interferenceCodes are the experiment findings that show the machine
// interfered with the samples themselves: time off the CPU, a core or a
// clock that slowed around them, a drift, a sample on another CPU.
var interferenceCodes = []string{result.CodeDisturbed, result.CodeSlowCore, result.CodeSlowClock, result.CodeFreqChange, result.CodeDrift, result.CodeMigrated}

// Interfered reports whether own, an experiment's findings, show the
// machine interfering with its samples (a finding of interferenceCodes at
// warn or above).
func Interfered(own []finding.Finding) bool {
	for _, f := range own {
		if f.Severity >= finding.Warn && slices.Contains(interferenceCodes, f.Code) {
			return true
		}
	}
	return false
}

// bears reports whether environment finding f makes the numbers of an
// experiment doubtful; interfered says its samples show interference.
func bears(f finding.Finding, interfered bool) bool {
	return f.Severity == finding.Error ||
		(interfered && f.Severity == finding.Warn && slices.Contains(envBearing, f.Code))
}

// reasonOrder ranks the reasons of a verdict, most telling first: what
// shows the number cannot be right, then what removed the work, then a
// fault of the benchmark itself (setup timed with it, a loop that changes
// its own input, a parallel benchmark that cannot be pinned), which stays on any machine, then what the machine
// did to the samples, then what the samples show, and last what only says
// there were too few of them. The first reason is the one
// the one-screen report shows; codes not listed rank before the last two,
// and the environment's after all of the experiment's own.
var reasonOrder = []string{
	result.CodeFailed, result.CodeNoSamples, result.CodeImpossible, result.CodeEmptyLoop, result.CodeFolded, result.CodeDebugBuild, result.CodeBelowClock,
	result.CodeMigrated, result.CodeNoLoadInLoop, result.CodeSetupInTimer, result.CodeInputConsumed, result.CodeNotPinned,
	result.CodeDisturbed, result.CodeSlowCore, result.CodeSlowClock, result.CodeFreqChange, result.CodeDrift,
	result.CodeUnstable, result.CodeFirstSlow, result.CodeSpawn, result.CodePageFaults, result.CodeGC, result.CodeShortSamples, result.CodeFewSamples,
}

// rank is code's place in reasonOrder.
func rank(code string) int {
	if i := slices.Index(reasonOrder, code); i >= 0 {
		return i
	}
	return slices.Index(reasonOrder, result.CodeShortSamples)
}

// Verdict judges one experiment from its own findings and the run's
// environment findings, and returns the codes that decided it, most
// telling first (reasonOrder).
func Verdict(own, env []finding.Finding) (verdict string, reasons []string) {
	verdict, reasons = judge(own, env)
	envCodes := map[string]bool{}
	for _, f := range env {
		envCodes[f.Code] = true
	}
	slices.SortStableFunc(reasons, func(a, b string) int {
		if envCodes[a] != envCodes[b] {
			if envCodes[a] {
				return 1
			}
			return -1
		}
		return rank(a) - rank(b)
	})
	return verdict, reasons
}

// judge is Verdict before the reasons are ranked.
func judge(own, env []finding.Finding) (verdict string, reasons []string) {
	addCodes := func(fs []finding.Finding, keep func(finding.Finding) bool) {
		for _, f := range fs {
			if keep(f) && !slices.Contains(reasons, f.Code) {
				reasons = append(reasons, f.Code)
			}
		}
	}
	if w, ok := finding.Worst(own); ok && w == finding.Error {
		addCodes(own, func(f finding.Finding) bool { return f.Severity == finding.Error })
		return result.VerdictNotBelievable, reasons
	}
	addCodes(own, func(f finding.Finding) bool { return f.Severity == finding.Warn })
	interfered := Interfered(own)
	addCodes(env, func(f finding.Finding) bool { return bears(f, interfered) })
	if len(reasons) > 0 {
		return result.VerdictDoubtful, reasons
	}
	return result.VerdictBelievable, nil
}

// Summary is the one-line count of verdicts with their reasons:
// "7 believable, 1 doubtful (unstable), 1 not believable (impossible)".
func Summary(r *result.Result) string {
	if len(r.Experiments) == 0 {
		return "no experiments"
	}
	var parts []string
	for _, v := range []string{result.VerdictBelievable, result.VerdictDoubtful, result.VerdictNotBelievable} {
		n, reasons := tally(r, v)
		if n == 0 {
			continue
		}
		s := fmt.Sprintf("%d %s", n, v)
		if len(reasons) > 0 {
			s += " (" + strings.Join(reasons, ", ") + ")"
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no verdicts: the result was not analyzed"
	}
	return strings.Join(parts, ", ")
}

// tally counts r's experiments with verdict v and gathers their reasons,
// each once, in the order they first appear.
func tally(r *result.Result, v string) (n int, reasons []string) {
	for _, e := range r.Experiments {
		if e.Verdict != v {
			continue
		}
		n++
		for _, c := range e.Reasons {
			reasons = result.AppendOnce(reasons, c)
		}
	}
	return n, reasons
}

// StrictFailures returns the names of the experiments that fail --strict
// at level: finding.Error selects the not believable ones, finding.Warn the
// doubtful ones too. Experiments without a verdict (not analyzed) fail,
// since nothing vouches for them.
func StrictFailures(r *result.Result, level finding.Severity) []string {
	var names []string
	for _, e := range r.Experiments {
		switch e.Verdict {
		case result.VerdictBelievable:
			continue
		case result.VerdictDoubtful:
			if level > finding.Warn {
				continue
			}
		}
		names = append(names, e.Label())
	}
	return names
}
