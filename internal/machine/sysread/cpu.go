package sysread

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// cpuDir is where the kernel describes CPUs.
const cpuDir = "sys/devices/system/cpu"

// readCPU reads one CPU's files. noFreq is the reason to give when the CPU
// has no cpufreq directory.
func readCPU(r FS, cpu int, noFreq string) machine.CPU {
	d := fmt.Sprintf("%s/cpu%d/", cpuDir, cpu)
	c := machine.CPU{CPU: cpu}
	f := d + "cpufreq/"
	if !r.exists(f) {
		c.Driver = machine.Unknown[string]("%s", noFreq)
		c.Governor, c.EPP = c.Driver, c.Driver
		c.CurFreqKHz = machine.Unknown[int64]("%s", noFreq)
		c.MinFreqKHz, c.MaxFreqKHz, c.CPUInfoMaxKHz = c.CurFreqKHz, c.CurFreqKHz, c.CurFreqKHz
		c.Boost = machine.Unknown[bool]("%s", noFreq)
	} else {
		c.Driver = r.stringFact(f+"scaling_driver", "")
		c.Governor = r.stringFact(f+"scaling_governor", "")
		c.CurFreqKHz = r.intFact(f+"scaling_cur_freq", "")
		c.MinFreqKHz = r.intFact(f+"scaling_min_freq", "")
		c.MaxFreqKHz = r.intFact(f+"scaling_max_freq", "")
		c.CPUInfoMaxKHz = r.intFact(f+"cpuinfo_max_freq", "")
		c.EPP = r.stringFact(f+"energy_performance_preference", "no energy_performance_preference: the driver has no EPP")
		c.Boost = boolFact(r.intFact(f+"boost", "no per-policy boost file"))
	}
	c.Capacity = r.intFact(d+"cpu_capacity", "no cpu_capacity in /sys (older kernel, or an architecture without it)")
	c.Package = r.intFact(d+"topology/physical_package_id", "")
	c.Siblings = readSiblings(r, d, cpu)
	noThrottle := "no thermal_throttle in /sys (only Intel CPUs on bare metal have it)"
	c.CoreThrottles = r.intFact(d+"thermal_throttle/core_throttle_count", noThrottle)
	c.PkgThrottles = r.intFact(d+"thermal_throttle/package_throttle_count", noThrottle)
	return c
}

// readSiblings returns the other hardware threads of cpu's core, from
// thread_siblings_list, or from the hex mask thread_siblings.
func readSiblings(r FS, d string, cpu int) machine.Fact[machine.CPUList] {
	l := r.listFact(d+"topology/thread_siblings_list", "")
	if !l.Known() {
		b, err := r.read(d + "topology/thread_siblings")
		if err != nil {
			return l
		}
		m, err := parseHexMask(b)
		if err != nil {
			return machine.Unknown[machine.CPUList]("topology/thread_siblings: %v", err)
		}
		l = machine.Known(machine.CPUList(m))
	}
	return machine.Known(machine.CPUList(slices.DeleteFunc(slices.Clone(l.Value), func(c int) bool { return c == cpu })))
}

// boolFact turns a 0/1 file into a boolean fact.
func boolFact(f machine.Fact[int64]) machine.Fact[bool] {
	v, ok := f.Get()
	switch {
	case !ok:
		return machine.Unknown[bool]("%s", f.Reason)
	case v == 0 || v == 1:
		return machine.Known(v == 1)
	}
	return machine.Unknown[bool]("not 0 or 1: %d", v)
}

// listCPUDirs returns the N of every cpuN directory, for when the online
// list cannot be read.
func listCPUDirs(r FS) ([]int, error) {
	ents, err := os.ReadDir(r.Path(cpuDir))
	if err != nil {
		return nil, err
	}
	var cpus []int
	for _, e := range ents {
		n, ok := strings.CutPrefix(e.Name(), "cpu")
		if v, err := strconv.Atoi(n); ok && err == nil && v >= 0 && v <= machine.MaxCPU {
			cpus = append(cpus, v)
		}
	}
	slices.Sort(cpus)
	return cpus, nil
}

// setCoreTypes sets CoreType on every CPU: from the hybrid PMU lists
// cpu_core/cpus and cpu_atom/cpus (Intel hybrid), else relative
// cpu_capacity (Arm big.LITTLE), else relative cpuinfo_max_freq.
func setCoreTypes(r FS, cpus []machine.CPU) {
	pcores := r.listFact("sys/devices/cpu_core/cpus", "")
	ecores := r.listFact("sys/devices/cpu_atom/cpus", "")
	if p, ok := pcores.Get(); ok {
		e, _ := ecores.Get()
		for i := range cpus {
			switch c := cpus[i].CPU; {
			case p.Has(c):
				cpus[i].CoreType = machine.Known(machine.CorePerformance)
			case e.Has(c):
				cpus[i].CoreType = machine.Known(machine.CoreEfficiency)
			default:
				cpus[i].CoreType = machine.Unknown[string]("cpu%d in neither cpu_core/cpus nor cpu_atom/cpus", c)
			}
			cpus[i].CoreTypeFrom = "sys/devices/cpu_core/cpus and cpu_atom/cpus"
		}
		return
	}
	if relativeCoreTypes(cpus, func(c machine.CPU) machine.Fact[int64] { return c.Capacity }, "relative cpu_capacity") {
		return
	}
	if relativeCoreTypes(cpus, func(c machine.CPU) machine.Fact[int64] { return c.CPUInfoMaxKHz }, "relative cpuinfo_max_freq") {
		return
	}
	for i := range cpus {
		cpus[i].CoreType = machine.Unknown[string]("no cpu_core/cpus, cpu_capacity or cpuinfo_max_freq to compare cores")
	}
}

// relativeCoreTypes classifies CPUs by one measure when every CPU has it.
func relativeCoreTypes(cpus []machine.CPU, measure func(machine.CPU) machine.Fact[int64], from string) bool {
	var top int64
	for _, c := range cpus {
		v, ok := measure(c).Get()
		if !ok || v <= 0 {
			return false
		}
		top = max(top, v)
	}
	if len(cpus) == 0 {
		return false
	}
	for i := range cpus {
		v := measure(cpus[i]).Value
		t := machine.CorePerformance
		if float64(v) < coreTypeRatio*float64(top) {
			t = machine.CoreEfficiency
		}
		cpus[i].CoreType, cpus[i].CoreTypeFrom = machine.Known(t), from
	}
	return true
}

// parseHexMask parses the kernel's hex CPU mask format ("ff,ffffffff", as
// in Cpus_allowed and topology/thread_siblings): 32-bit words written high
// word first, separated by commas. Bit n set means CPU n.
func parseHexMask(b []byte) ([]int, error) {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return nil, fmt.Errorf("empty cpu mask")
	}
	words := strings.Split(s, ",")
	if len(words)*32 > machine.MaxCPU+1 {
		return nil, fmt.Errorf("cpu mask %q: more than %d CPUs", units.Clip(s), machine.MaxCPU+1)
	}
	cpus := []int{}
	for i, w := range words {
		if len(w) == 0 || len(w) > 8 {
			return nil, fmt.Errorf("cpu mask %q: bad word %q", units.Clip(s), units.Clip(w))
		}
		v, err := strconv.ParseUint(w, 16, 32)
		if err != nil {
			return nil, fmt.Errorf("cpu mask %q: bad word %q", units.Clip(s), units.Clip(w))
		}
		base := (len(words) - 1 - i) * 32
		for bit := range 32 {
			if v&(1<<bit) != 0 {
				cpus = append(cpus, base+bit)
			}
		}
	}
	slices.Sort(cpus)
	return cpus, nil
}

// coreTypeRatio: a core whose capacity (or cpuinfo_max_freq) is below this
// fraction of the largest is an efficiency core. Arm LITTLE cores have
// 40-60% of the big cores' capacity and Intel E-cores about 70% of the
// P-cores' maximum frequency, while the "preferred" cores of one AMD or
// Intel chip differ by a few percent only: 0.9 separates the two cases.
const coreTypeRatio = 0.9
