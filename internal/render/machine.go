package render

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/fit"
	"github.com/benchy-dev/benchy/internal/units"
)

// machineHeader writes the header a person reads in five seconds before
// trusting a number: the load average, the target CPU, the busy grid, then
// the other facts. Findings are not part of it.
func machineHeader(w io.Writer, s *machine.Snapshot, cpu int) error {
	var b strings.Builder
	b.WriteString(loadLine(s) + "\n")
	b.WriteString(targetLine(s, cpu) + "\n")
	if busy, ok := s.Busy.Get(); ok {
		own := ""
		switch {
		case s.BusyOwn > 0:
			own = fmt.Sprintf(" (benchy's own %s of CPU left out)", units.Duration(float64(s.BusyOwn)))
		case s.BusyNote != "":
			own = " (" + s.BusyNote + ")"
		}
		fmt.Fprintf(&b, "busy CPUs over %s%s:\n", units.Window(s.BusyWindow), own)
		if err := busyGrid(&b, busy); err != nil {
			return err
		}
		if machine.AnySteal(busy) {
			fmt.Fprintf(&b, "steal over %s:\n", units.Window(s.BusyWindow))
			writeGrid(&b, busy, func(c machine.CPUBusy) machine.Fact[float64] { return c.Steal })
		}
	} else {
		fmt.Fprintf(&b, "busy CPUs: %s\n", s.Busy)
	}
	writeSpeed(s, &b)
	writeFacts(s, &b)
	_, err := io.WriteString(w, b.String())
	return err
}

// busyGrid writes every CPU's busy, gridRow (six) to a line:
// "cpu0    5%  cpu1    4%  ...". A busy counted over fewer than
// machine.MinBusyTicks ticks is written "~100%" and an unknown one "?"; a line
// under the grid says which CPUs and why, so a coarse or missing figure
// never reads as a measured one.
func busyGrid(w io.Writer, busy []machine.CPUBusy) error {
	var b strings.Builder
	if len(busy) == 0 {
		b.WriteString("unknown: no cpuN line in /proc/stat\n")
	}
	writeGrid(&b, busy, func(c machine.CPUBusy) machine.Fact[float64] { return c.Busy })
	writeGridNotes(&b, busy)
	_, err := io.WriteString(w, b.String())
	return err
}

// gridRow is how many CPUs a row of the grid holds: six cells of ten
// columns and their gaps fit an 80-column terminal.
const gridRow = 6

func writeGrid(b *strings.Builder, busy []machine.CPUBusy, pct func(machine.CPUBusy) machine.Fact[float64]) {
	cpus := make([]int, len(busy))
	cells := make([]string, len(busy))
	for i, c := range busy {
		cpus[i], cells[i] = c.CPU, gridCell(c, pct(c))
	}
	writeCells(b, cpus, cells)
}

// writeCells writes "cpuN  cell" pairs, gridRow to a line.
func writeCells(b *strings.Builder, cpus []int, cells []string) {
	for i, c := range cpus {
		if i%gridRow != 0 {
			b.WriteString("  ")
		}
		fmt.Fprintf(b, "%-5s%5s", fmt.Sprintf("cpu%d", c), cells[i])
		if i%gridRow == gridRow-1 || i == len(cpus)-1 {
			b.WriteByte('\n')
		}
	}
}

// gridCell is "5%", "~100%" when the CPU's busy is too coarse to judge, or
// "?" when it is unknown.
func gridCell(c machine.CPUBusy, v machine.Fact[float64]) string {
	switch {
	case !v.Known():
		return "?"
	case !c.Judged():
		return fmt.Sprintf("~%.0f%%", v.Value)
	}
	return fmt.Sprintf("%.0f%%", v.Value)
}

// writeGridNotes explains the "~" and "?" cells of a grid:
// "~ cpu0-15: 1 tick, fewer than the 50 (500ms) it takes to judge busy" and
// "? cpu3: unknown: not in the first read of /proc/stat ...".
func writeGridNotes(b *strings.Builder, busy []machine.CPUBusy) {
	var coarse []int
	var lo, hi uint64
	var reasons []string
	unknown := map[string][]int{}
	for _, c := range busy {
		switch {
		case !c.Busy.Known():
			if _, ok := unknown[c.Busy.Reason]; !ok {
				reasons = append(reasons, c.Busy.Reason)
			}
			unknown[c.Busy.Reason] = append(unknown[c.Busy.Reason], c.CPU)
		case !c.Judged():
			if len(coarse) == 0 || c.Ticks < lo {
				lo = c.Ticks
			}
			hi = max(hi, c.Ticks)
			coarse = append(coarse, c.CPU)
		}
	}
	if len(coarse) > 0 {
		ticks := units.Count(hi, "tick")
		if lo != hi {
			ticks = fmt.Sprintf("%d to %d ticks", lo, hi)
		}
		fmt.Fprintf(b, "~ cpu%s: %s, fewer than the %d (%s) it takes to judge busy\n",
			machine.FormatCPUList(coarse), ticks, machine.MinBusyTicks, machine.MinBusyWindow)
	}
	for _, r := range reasons {
		fmt.Fprintf(b, "? cpu%s: %s%s\n", machine.FormatCPUList(unknown[r]), machine.UnknownPrefix, r)
	}
}

func loadLine(s *machine.Snapshot) string {
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

// loadSummary is the load in a few words, for a one-line header: "load
// 0.47 0.54 0.70, 2/85 runnable, cpu pressure 0.83%".
func loadSummary(s *machine.Snapshot) string {
	l, ok := s.Load.Get()
	if !ok {
		return "load " + s.Load.String()
	}
	line := fmt.Sprintf("load %.2f %.2f %.2f, %d/%d runnable", l.Load1, l.Load5, l.Load15, l.Runnable, l.Tasks)
	if p, ok := s.CPUPressure.Get(); ok {
		line += fmt.Sprintf(", cpu pressure %.2f%%", p)
	}
	return line
}

// targetLine is "cpu2: governor powersave, scaling_cur_freq 3288160 kHz
// (max 4700000), performance core, SMT sibling cpu3".
func targetLine(s *machine.Snapshot, cpu int) string {
	c := s.CPUEntry(cpu)
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

// brandWords names the CPU as go test does, " (go test: NAME)", where that
// is known and not the model name: a reader comparing with a go test
// header then sees why the names differ. Nothing otherwise.
func brandWords(s *machine.Snapshot) string {
	brand, ok := s.CPUBrand.Get()
	brand = strings.TrimSpace(brand)
	if model, _ := s.CPUModel.Get(); !ok || brand == "" || brand == model {
		return ""
	}
	return " (go test: " + brand + ")"
}

func writeFacts(s *machine.Snapshot, b *strings.Builder) {
	rt := fmt.Sprintf("%s %s/%s, GOMAXPROCS %d, NumCPU %d", s.GoVersion, s.GOOS, s.GOARCH, s.GOMAXPROCS, s.NumCPU)
	if s.Live {
		fmt.Fprintf(b, "host %s, kernel %s, %s, at %s\n", s.Hostname, s.Kernel, rt, s.When.Format(time.RFC3339))
	} else {
		// The Go facts are this process's, not those of the machine the
		// tree was taken from: on a line of their own, and said so.
		fmt.Fprintf(b, "host %s, kernel %s, at %s\n", s.Hostname, s.Kernel, s.When.Format(time.RFC3339))
		fmt.Fprintf(b, "this process (not the tree): %s\n", rt)
	}
	fmt.Fprintf(b, "cpu model %s%s; hypervisor %s\n", s.CPUModel, brandWords(s), yesNo(s.Hypervisor))
	fmt.Fprintf(b, "cpus online %s, possible %s, allowed %s (%s), isolated %s, nohz_full %s\n",
		machine.ListOrNone(s.Online), machine.ListOrNone(s.Possible), machine.ListOrNone(s.Allowed), s.AllowedFrom,
		machine.ListOrNone(s.Isolated), machine.ListOrNone(s.NohzFull))
	b.WriteString(cgroupWords(s.Cgroup) + "\n")
	fmt.Fprintf(b, "clocksource %s (available: %s); SMT control %s, active %s\n",
		s.Clocksource, s.ClocksourceAvailable, s.SMTControl, yesNo(s.SMTActive))
	fmt.Fprintf(b, "turbo %s\n", turboWords(s.Turbo))
	b.WriteString("per CPU:\n")
	fmt.Fprintf(b, "  %-16s%s\n", "SMT cores", smtCores(s))
	rows := []struct {
		name string
		val  func(machine.CPU) string
	}{
		{"core type", func(c machine.CPU) string { return c.CoreType.String() }},
		{"cpu_capacity", func(c machine.CPU) string { return c.Capacity.String() }},
		{"package", func(c machine.CPU) string { return c.Package.String() }},
		{"throttles", throttleWords},
	}
	freqRows := []struct {
		name string
		val  func(machine.CPU) string
	}{
		{"driver", func(c machine.CPU) string { return c.Driver.String() }},
		{"governor", func(c machine.CPU) string { return c.Governor.String() }},
		{"epp", func(c machine.CPU) string { return c.EPP.String() }},
		{"min kHz", func(c machine.CPU) string { return c.MinFreqKHz.String() }},
		{"max kHz", func(c machine.CPU) string { return c.MaxFreqKHz.String() }},
		{"cpuinfo max kHz", func(c machine.CPU) string { return c.CPUInfoMaxKHz.String() }},
	}
	// Without cpufreq, one line says so instead of six identical ones.
	if noFreq := groupBy(s, func(c machine.CPU) string { return c.Driver.String() }); strings.HasPrefix(noFreq, machine.UnknownPrefix) && !strings.Contains(noFreq, " on ") {
		fmt.Fprintf(b, "  %-16s%s\n", "cpufreq", noFreq)
	} else {
		rows = append(freqRows, rows...)
	}
	for _, r := range rows {
		fmt.Fprintf(b, "  %-16s%s\n", r.name, groupBy(s, r.val))
	}
	if len(s.CPUs) > 0 && s.CPUs[0].CoreTypeFrom != "" {
		fmt.Fprintf(b, "  %-16s%s\n", "core type from", s.CPUs[0].CoreTypeFrom)
	}
}

// groupBy writes each distinct value with the CPUs that have it:
// "performance on 0-7; efficiency on 8-15", or the value alone when every
// CPU has it.
func groupBy(s *machine.Snapshot, val func(machine.CPU) string) string {
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
		parts[i] = v + " on " + machine.FormatCPUList(cpus[v])
	}
	return strings.Join(parts, "; ")
}

// cgroupWords is "cgroup v2 /user.slice, cpuset 0-15, cpu quota none (...)",
// or "cgroup unknown: <reason>" once when proc/self/cgroup cannot be read
// (then every cgroup fact is unknown for that same reason).
func cgroupWords(g machine.Cgroup) string {
	v, ok := g.Version.Get()
	if !ok {
		return "cgroup " + g.Version.String()
	}
	path := g.Path.String()
	if !g.Path.Known() {
		path = "path " + path
	}
	return fmt.Sprintf("cgroup v%d %s, cpuset %s, cpu quota %s", v, path, machine.ListOrNone(g.Cpuset), quotaWords(g.Quota))
}

func quotaWords(f machine.Fact[machine.Quota]) string {
	q, ok := f.Get()
	switch {
	case !ok:
		return f.String()
	case !q.Limited:
		return "none (" + q.From + ")"
	}
	return fmt.Sprintf("%.2f CPUs (%d/%d us, %s)", q.CPUs, q.QuotaUs, q.PeriodUs, q.From)
}

func yesNo(f machine.Fact[bool]) string {
	if v, ok := f.Get(); ok {
		return map[bool]string{true: "yes", false: "no"}[v]
	}
	return f.String()
}

func onOff(f machine.Fact[bool]) string {
	if v, ok := f.Get(); ok {
		return map[bool]string{true: "on", false: "off"}[v]
	}
	return f.String()
}

// smtCores lists the hardware threads of each core that has more than one,
// "0-1 2-3 4-5 6-7; no sibling on 8-15".
func smtCores(s *machine.Snapshot) string {
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
		core := machine.FormatCPUList(append([]int{c.CPU}, sib...))
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
		out += "no sibling on " + machine.FormatCPUList(single)
	}
	return out
}

// turboWords is "on (intel_pstate active, no_turbo 0)", naming only the
// sources that could be read.
func turboWords(t machine.Turbo) string {
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
func throttleWords(c machine.CPU) string {
	if !c.CoreThrottles.Known() && c.CoreThrottles.Reason == c.PkgThrottles.Reason {
		return c.CoreThrottles.String()
	}
	return "core " + c.CoreThrottles.String() + ", package " + c.PkgThrottles.String()
}

// writeSpeed writes every probed CPU's reference loop, six to a line as
// the busy grid: "cpu0  1.00  cpu1  1.31", then the reasons of the CPUs
// that could not be probed.
func writeSpeed(s *machine.Snapshot, b *strings.Builder) {
	if len(s.Speed) == 0 {
		return
	}
	b.WriteString("reference loop in the window (ns per iteration, best of the repeats):\n")
	cells := make([]string, len(s.Speed))
	cpus := make([]int, len(s.Speed))
	unknown := map[string][]int{}
	var reasons []string
	for i, sp := range s.Speed {
		cpus[i], cells[i] = sp.CPU, "?"
		if v, ok := sp.RefNs.Get(); ok {
			cells[i] = fmt.Sprintf("%.2f", v)
			if fit.SlowCPU(s, sp.CPU) {
				cells[i] += "!"
			}
			continue
		}
		if _, ok := unknown[sp.RefNs.Reason]; !ok {
			reasons = append(reasons, sp.RefNs.Reason)
		}
		unknown[sp.RefNs.Reason] = append(unknown[sp.RefNs.Reason], sp.CPU)
	}
	writeCells(b, cpus, cells)
	if slices.ContainsFunc(cells, func(c string) bool { return strings.HasSuffix(c, "!") }) {
		fmt.Fprintf(b, "! at least %.1fx the fastest idle CPU\n", fit.SlowRatio)
	}
	for _, r := range reasons {
		fmt.Fprintf(b, "? cpu%s: %s%s\n", machine.FormatCPUList(unknown[r]), machine.UnknownPrefix, r)
	}
}
