package machine

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteHeader writes the header a person reads in five seconds before
// trusting a number: the load average, the target CPU, the busy grid, then
// the other facts. Findings are not part of it.
func (s *Snapshot) WriteHeader(w io.Writer, cpu int) error {
	var b strings.Builder
	b.WriteString(s.loadLine() + "\n")
	b.WriteString(s.targetLine(cpu) + "\n")
	if busy, ok := s.Busy.Get(); ok {
		fmt.Fprintf(&b, "busy CPUs over %s:\n", roundWindow(s.BusyWindow))
		if err := WriteBusyGrid(&b, busy); err != nil {
			return err
		}
		if anySteal(busy) {
			fmt.Fprintf(&b, "steal over %s:\n", roundWindow(s.BusyWindow))
			writeGrid(&b, busy, func(c CPUBusy) float64 { return c.Steal })
		}
	} else {
		fmt.Fprintf(&b, "busy CPUs: %s\n", s.Busy)
	}
	s.writeFacts(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteBusyGrid writes every CPU's busy, eight to a line:
// "cpu0    5%  cpu1    4%  ...".
func WriteBusyGrid(w io.Writer, busy []CPUBusy) error {
	var b strings.Builder
	writeGrid(&b, busy, func(c CPUBusy) float64 { return c.Busy })
	_, err := io.WriteString(w, b.String())
	return err
}

func writeGrid(b *strings.Builder, busy []CPUBusy, pct func(CPUBusy) float64) {
	for i, c := range busy {
		if i%8 != 0 {
			b.WriteString("  ")
		}
		fmt.Fprintf(b, "%-5s%4.0f%%", fmt.Sprintf("cpu%d", c.CPU), pct(c))
		if i%8 == 7 || i == len(busy)-1 {
			b.WriteByte('\n')
		}
	}
}

// roundWindow writes a window to the millisecond: "1s", "1.002s".
func roundWindow(d time.Duration) string { return d.Round(time.Millisecond).String() }

func (s *Snapshot) loadLine() string {
	l, ok := s.Load.Get()
	if !ok {
		return "load average " + s.Load.String()
	}
	line := fmt.Sprintf("load average %.2f %.2f %.2f (1, 5, 15 min), %d/%d tasks runnable",
		l.Load1, l.Load5, l.Load15, l.Runnable, l.Tasks)
	if p, ok := s.CPUPressure.Get(); ok {
		line += fmt.Sprintf(", cpu pressure %.2f%% (some avg10)", p)
	}
	return line
}

// targetLine is "cpu2: governor powersave, scaling_cur_freq 3288160 kHz
// (max 4700000), performance core, SMT sibling cpu3".
func (s *Snapshot) targetLine(cpu int) string {
	c := s.cpu(cpu)
	var parts []string
	if g, ok := c.Governor.Get(); ok {
		parts = append(parts, "governor "+g)
		if f, ok := c.CurFreqKHz.Get(); ok {
			p := fmt.Sprintf("scaling_cur_freq %d kHz", f)
			if m, ok := c.CPUInfoMaxKHz.Get(); ok {
				p += fmt.Sprintf(" (max %d)", m)
			}
			parts = append(parts, p)
		}
	} else {
		parts = append(parts, "governor unknown ("+c.Governor.Reason+")")
	}
	if t, ok := c.CoreType.Get(); ok && s.Hybrid() {
		parts = append(parts, t+" core")
	}
	if sib, ok := c.Siblings.Get(); ok && len(sib) == 0 {
		parts = append(parts, "no SMT sibling")
	} else if ok {
		parts = append(parts, "SMT sibling cpu"+strings.ReplaceAll(sib.String(), ",", ",cpu"))
	}
	if iso, ok := s.Isolated.Get(); ok && iso.Has(cpu) {
		parts = append(parts, "isolated")
	}
	return fmt.Sprintf("cpu%d: %s", cpu, strings.Join(parts, ", "))
}

func (s *Snapshot) writeFacts(b *strings.Builder) {
	fmt.Fprintf(b, "host %s, kernel %s, %s %s/%s, GOMAXPROCS %d, NumCPU %d, at %s\n",
		s.Hostname, s.Kernel, s.GoVersion, s.GOOS, s.GOARCH, s.GOMAXPROCS, s.NumCPU, s.When.Format(time.RFC3339))
	fmt.Fprintf(b, "cpu model %s; hypervisor %s\n", s.CPUModel, yesNo(s.Hypervisor))
	fmt.Fprintf(b, "cpus online %s, possible %s, allowed %s (%s), isolated %s, nohz_full %s\n",
		listOrNone(s.Online), listOrNone(s.Possible), listOrNone(s.Allowed), s.AllowedFrom,
		listOrNone(s.Isolated), listOrNone(s.NohzFull))
	fmt.Fprintf(b, "cgroup v%s %s, cpuset %s, cpu quota %s\n",
		s.Cgroup.Version, s.Cgroup.Path, listOrNone(s.Cgroup.Cpuset), quotaWords(s.Cgroup.Quota))
	fmt.Fprintf(b, "clocksource %s (available: %s); SMT control %s, active %s\n",
		s.Clocksource, s.ClocksourceAvailable, s.SMTControl, yesNo(s.SMTActive))
	fmt.Fprintf(b, "turbo %s\n", turboWords(s.Turbo))
	b.WriteString("per CPU:\n")
	fmt.Fprintf(b, "  %-16s%s\n", "SMT cores", s.smtCores())
	rows := []struct {
		name string
		val  func(CPU) string
	}{
		{"core type", func(c CPU) string { return c.CoreType.String() }},
		{"cpu_capacity", func(c CPU) string { return c.Capacity.String() }},
		{"package", func(c CPU) string { return c.Package.String() }},
		{"throttles", throttleWords},
	}
	freqRows := []struct {
		name string
		val  func(CPU) string
	}{
		{"driver", func(c CPU) string { return c.Driver.String() }},
		{"governor", func(c CPU) string { return c.Governor.String() }},
		{"epp", func(c CPU) string { return c.EPP.String() }},
		{"min kHz", func(c CPU) string { return c.MinFreqKHz.String() }},
		{"max kHz", func(c CPU) string { return c.MaxFreqKHz.String() }},
		{"cpuinfo max kHz", func(c CPU) string { return c.CPUInfoMaxKHz.String() }},
	}
	// Without cpufreq, one line says so instead of six identical ones.
	if noFreq := s.groupBy(func(c CPU) string { return c.Driver.String() }); strings.HasPrefix(noFreq, unknownPrefix) && !strings.Contains(noFreq, " on ") {
		fmt.Fprintf(b, "  %-16s%s\n", "cpufreq", noFreq)
	} else {
		rows = append(freqRows, rows...)
	}
	for _, r := range rows {
		fmt.Fprintf(b, "  %-16s%s\n", r.name, s.groupBy(r.val))
	}
	if len(s.CPUs) > 0 && s.CPUs[0].CoreTypeFrom != "" {
		fmt.Fprintf(b, "  %-16s%s\n", "core type from", s.CPUs[0].CoreTypeFrom)
	}
}

// groupBy writes each distinct value with the CPUs that have it:
// "performance on 0-7; efficiency on 8-15", or the value alone when every
// CPU has it.
func (s *Snapshot) groupBy(val func(CPU) string) string {
	var order []string
	cpus := map[string][]int{}
	for _, c := range s.CPUs {
		v := val(c)
		if _, ok := cpus[v]; !ok {
			order = append(order, v)
		}
		cpus[v] = append(cpus[v], c.CPU)
	}
	if len(order) == 1 {
		return order[0]
	}
	parts := make([]string, len(order))
	for i, v := range order {
		parts[i] = v + " on " + FormatCPUList(cpus[v])
	}
	return strings.Join(parts, "; ")
}

func quotaWords(f Fact[Quota]) string {
	q, ok := f.Get()
	switch {
	case !ok:
		return f.String()
	case !q.Limited:
		return "none (" + q.From + ")"
	}
	return fmt.Sprintf("%.2f CPUs (%d/%d us, %s)", q.CPUs, q.QuotaUs, q.PeriodUs, q.From)
}

func yesNo(f Fact[bool]) string {
	if v, ok := f.Get(); ok {
		return map[bool]string{true: "yes", false: "no"}[v]
	}
	return f.String()
}

func onOff(f Fact[bool]) string {
	if v, ok := f.Get(); ok {
		return map[bool]string{true: "on", false: "off"}[v]
	}
	return f.String()
}

// smtCores lists the hardware threads of each core that has more than one,
// "0-1 2-3 4-5 6-7; no sibling on 8-15".
func (s *Snapshot) smtCores() string {
	var cores []string
	var single []int
	seen := map[string]bool{}
	for _, c := range s.CPUs {
		sib, ok := c.Siblings.Get()
		switch {
		case !ok:
			return c.Siblings.String()
		case len(sib) == 0:
			single = append(single, c.CPU)
			continue
		}
		core := FormatCPUList(append([]int{c.CPU}, sib...))
		if !seen[core] {
			seen[core] = true
			cores = append(cores, core)
		}
	}
	out := strings.Join(cores, " ")
	if len(single) > 0 {
		if out != "" {
			out += "; "
		}
		out += "no sibling on " + FormatCPUList(single)
	}
	return out
}

// turboWords is "on (intel_pstate active, no_turbo 0)", naming only the
// sources that could be read.
func turboWords(t Turbo) string {
	var src []string
	if v, ok := t.IntelPstateStatus.Get(); ok {
		src = append(src, "intel_pstate "+v)
	}
	if t.NoTurbo.Known() {
		src = append(src, "no_turbo "+map[bool]string{true: "1", false: "0"}[t.NoTurbo.Value])
	}
	if v, ok := t.AmdPstateStatus.Get(); ok {
		src = append(src, "amd_pstate "+v)
	}
	if t.Boost.Known() {
		src = append(src, "cpufreq/boost "+map[bool]string{true: "1", false: "0"}[t.Boost.Value])
	}
	if len(src) == 0 {
		return onOff(t.On)
	}
	return onOff(t.On) + " (" + strings.Join(src, ", ") + ")"
}

// throttleWords is "core 12, package 37", or the reason both are unknown.
func throttleWords(c CPU) string {
	if !c.CoreThrottles.Known() && c.CoreThrottles.Reason == c.PkgThrottles.Reason {
		return c.CoreThrottles.String()
	}
	return "core " + c.CoreThrottles.String() + ", package " + c.PkgThrottles.String()
}
