package fit

import (
	"fmt"
	"strings"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// Thresholds of the machine checks.
const (
	// BusyPct: a CPU busier than this in the window is running something
	// besides the benchmark. An idle CPU shows 0-3% (timer ticks, kernel
	// threads, and one tick of 10 ms is already 1% of a second), so 5% is
	// the first level that is clearly work, and already enough to take
	// turns with the measured thread or, on an SMT sibling, share its core.
	BusyPct = 5.0
	// LoadPerCPU: a 1-minute load average above this fraction of the
	// online CPUs means that at any moment half the CPUs have a task to
	// run: the measured CPU or its SMT sibling will be given work during
	// the samples, and the scheduler has little room to keep it off.
	LoadPerCPU = 0.5
	// MinQuotaCPUs: a CPU quota below one CPU throttles even a single
	// thread inside every period, so the measured time includes pauses
	// that are not the code's: error. Any larger quota is a warning,
	// because the Go runtime's other threads (GC) share it.
	MinQuotaCPUs = 1.0
)

// A check looks at one aspect of the machine for measuring on a CPU and
// adds what it finds.
type check func(s *machine.Snapshot, cpu int, add adder)

// adder records one finding.
type adder func(code string, sev finding.Severity, ev map[string]any, format string, args ...any)

// checks are the machine checks, in the order their findings are listed.
var checks = []check{checkFrequency, checkBusy, checkLoad, checkCore, checkSteal, checkHypervisor, checkThrottled, checkQuota, checkSpeed}

// Check returns the findings about the machine for measuring on cpu.
// Facts that are unknown produce no finding except no-cpufreq, and
// busy-unknown when the busy of the CPU or its SMT sibling was measured
// over too few ticks (or not at all) to be judged.
func Check(s *machine.Snapshot, cpu int) []finding.Finding {
	var fs []finding.Finding
	add := func(code string, sev finding.Severity, ev map[string]any, format string, args ...any) {
		fs = append(fs, finding.Finding{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), Evidence: ev})
	}
	for _, c := range checks {
		c(s, cpu, add)
	}
	return fs
}

// checkFrequency: what sets the CPU's clock (the cpufreq driver, the
// governor, turbo, the allowed range).
func checkFrequency(s *machine.Snapshot, cpu int, add adder) {
	c := s.CPUEntry(cpu)
	if !c.Driver.Known() {
		add(machine.CodeNoCPUFreq, finding.Info, map[string]any{"reason": c.Driver.Reason},
			"cpu%d: governor and frequency cannot be known (%s)", cpu, c.Driver.Reason)
	}
	if g, ok := c.Governor.Get(); ok && g != "performance" {
		add(machine.CodeGovernor, finding.Warn, map[string]any{"governor": g},
			"cpu%d governor is %s, not performance: the frequency follows the load and changes under the benchmark", cpu, g)
	}
	if on, ok := s.Turbo.On.Get(); ok && on {
		add(machine.CodeTurbo, finding.Warn, map[string]any{"intel_pstate_no_turbo": s.Turbo.NoTurbo, "cpufreq_boost": s.Turbo.Boost},
			"turbo/boost is on: the top frequency depends on temperature and on how many cores are busy, so runs are less comparable")
	}
	lo, ok1 := c.MinFreqKHz.Get()
	hi, ok2 := c.MaxFreqKHz.Get()
	if ok1 && ok2 && lo != hi {
		add(machine.CodeFreqRange, finding.Warn, map[string]any{"scaling_min_freq_khz": lo, "scaling_max_freq_khz": hi},
			"cpu%d may run anywhere from %d to %d kHz (scaling_min_freq != scaling_max_freq)", cpu, lo, hi)
	}
}

// checkBusy: the CPU and its SMT siblings over the busy window, and which
// of them could not be judged.
func checkBusy(s *machine.Snapshot, cpu int, add adder) {
	if b, ok := judgedBusy(s, cpu); ok && b.Busy.Value > BusyPct {
		add(machine.CodeCPUBusy, finding.Warn, map[string]any{"busy_pct": b.Busy.Value, "ticks": b.Ticks, "window_ns": int64(s.BusyWindow)},
			"cpu%d was %s busy over %s (more than %s): something else runs there and takes turns with the benchmark",
			cpu, units.PctOver(b.Busy.Value/100, BusyPct/100), units.Window(s.BusyWindow), units.Pct(BusyPct/100))
	}
	sib, _ := s.CPUEntry(cpu).Siblings.Get()
	for _, o := range sib {
		if b, ok := judgedBusy(s, o); ok && b.Busy.Value > BusyPct {
			add(machine.CodeSiblingBusy, finding.Warn, map[string]any{"sibling": o, "busy_pct": b.Busy.Value, "ticks": b.Ticks},
				"cpu%d, the SMT sibling of cpu%d, was %s busy (more than %s): it shares the core's execution units",
				o, cpu, units.PctOver(b.Busy.Value/100, BusyPct/100), units.Pct(BusyPct/100))
		}
	}
	if unjudged := unjudged(s, append(machine.CPUList{cpu}, sib...)); len(unjudged.cpus) > 0 {
		add(machine.CodeBusyUnknown, finding.Info, map[string]any{"cpus": unjudged.cpus.String(), "min_ticks": machine.MinBusyTicks, "window_ns": int64(s.BusyWindow)},
			"busy over %s cannot be judged for %s; judging takes at least %d ticks (a window of %s at USER_HZ 100), so cpu-busy, sibling-busy and steal were not checked there",
			units.Window(s.BusyWindow), unjudged.words, machine.MinBusyTicks, machine.MinBusyWindow)
	}
}

// checkLoad: the load average against the online CPUs.
func checkLoad(s *machine.Snapshot, _ int, add adder) {
	l, ok := s.Load.Get()
	if !ok {
		return
	}
	if on, ok := s.Online.Get(); ok && len(on) > 0 && l.Load1 > LoadPerCPU*float64(len(on)) {
		add(machine.CodeLoad, finding.Warn, map[string]any{"load1": l.Load1, "online_cpus": len(on)},
			"1-minute load average %.2f is high for %d CPUs (more than %.1f per CPU)", l.Load1, len(on), LoadPerCPU)
	}
}

// checkCore: what kind of CPU this is among the others (an efficiency
// core, not isolated, cpu0).
func checkCore(s *machine.Snapshot, cpu int, add adder) {
	c := s.CPUEntry(cpu)
	if t, ok := c.CoreType.Get(); ok && t == machine.CoreEfficiency {
		add(machine.CodeEfficiencyCore, finding.Warn, map[string]any{"core_type_from": c.CoreTypeFrom},
			"cpu%d is an efficiency core, not one of the fastest (from %s)", cpu, c.CoreTypeFrom)
	}
	if iso, ok := s.Isolated.Get(); ok && !iso.Has(cpu) {
		add(machine.CodeNotIsolated, finding.Info, map[string]any{"isolated": iso.String()},
			"cpu%d is not isolated: the scheduler may put other tasks on it", cpu)
	}
	if cpu == 0 {
		add(machine.CodeCPU0, finding.Info, nil, "cpu0 takes more interrupts and kernel work than the other CPUs")
	}
}

// checkSteal: time the hypervisor gave to someone else, on this CPU or
// (as a note) on the others.
func checkSteal(s *machine.Snapshot, cpu int, add adder) {
	b, ok := judgedBusy(s, cpu)
	switch {
	case ok && b.Steal.Value > 0:
		add(machine.CodeSteal, finding.Warn, map[string]any{"steal_pct": b.Steal.Value, "ticks": b.Ticks},
			"cpu%d lost %.1f%% of the window to steal: the hypervisor ran someone else on this CPU", cpu, b.Steal.Value)
	case ok:
		if busy, _ := s.Busy.Get(); machine.AnySteal(busy) {
			add(machine.CodeSteal, finding.Info, nil, "other CPUs had steal time in the window: the host is shared")
		}
	}
}

// checkHypervisor: a virtual machine, whose host decides the clock.
func checkHypervisor(s *machine.Snapshot, _ int, add adder) {
	if hv, ok := s.Hypervisor.Get(); ok && hv {
		add(machine.CodeVirtualMachine, finding.Info, nil,
			"this is a virtual machine: the host decides frequency and may run other guests on the same cores")
	}
}

// checkThrottled: the CPU was slowed for heat since boot.
func checkThrottled(s *machine.Snapshot, cpu int, add adder) {
	c := s.CPUEntry(cpu)
	for _, th := range []struct {
		name string
		f    machine.Fact[int64]
	}{{"core_throttle_count", c.CoreThrottles}, {"package_throttle_count", c.PkgThrottles}} {
		if n, ok := th.f.Get(); ok && n > 0 {
			add(machine.CodeThrottled, finding.Warn, map[string]any{th.name: n},
				"cpu%d %s is %d: it was slowed down for heat since boot", cpu, th.name, n)
		}
	}
}

// checkQuota: a CPU quota on the process's cgroup.
func checkQuota(s *machine.Snapshot, _ int, add adder) {
	q, ok := s.Cgroup.Quota.Get()
	if !ok || !q.Limited {
		return
	}
	sev := finding.Warn
	if q.CPUs < MinQuotaCPUs {
		sev = finding.Error
	}
	add(machine.CodeCgroupQuota, sev, map[string]any{"cpus": q.CPUs, "quota_us": q.QuotaUs, "period_us": q.PeriodUs},
		"a CPU quota of %.2f CPUs (%d us per %d us, %s) limits this process", q.CPUs, q.QuotaUs, q.PeriodUs, q.From)
}

// unjudgedBusy names the CPUs whose busy cannot be judged and why.
type unjudgedBusy struct {
	cpus  machine.CPUList
	words string // "cpu1 (1 tick), cpu3 (unknown: no tick between the two reads of /proc/stat)"
}

// unjudged returns which of cpus have a busy in the window that cannot be
// judged: too few ticks, unknown, or no entry. With no busy window at all
// (Busy unknown) there is nothing to say here: the header says why.
func unjudged(s *machine.Snapshot, cpus machine.CPUList) unjudgedBusy {
	var u unjudgedBusy
	if !s.Busy.Known() {
		return u
	}
	var words []string
	for _, c := range cpus {
		b, ok := s.BusyOf(c)
		switch {
		case ok && b.Judged():
			continue
		case !ok:
			words = append(words, fmt.Sprintf("cpu%d (not in /proc/stat)", c))
		case !b.Busy.Known():
			words = append(words, fmt.Sprintf("cpu%d (%s)", c, b.Busy))
		default:
			words = append(words, fmt.Sprintf("cpu%d (%s)", c, units.Count(b.Ticks, "tick")))
		}
		u.cpus = append(u.cpus, c)
	}
	u.words = strings.Join(words, ", ")
	return u
}
