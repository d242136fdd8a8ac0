package sysread

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// cpuInfo is /proc/cpuinfo: one block of "key : value" lines per processor,
// and the lines of blocks without a "processor" key (32-bit ARM puts
// "Hardware" there).
type cpuInfo struct {
	Procs  map[int]map[string]string
	Global map[string]string
}

// parseCPUInfo parses /proc/cpuinfo. Blocks are separated by blank lines;
// every other line must be "key : value" (the value may be empty).
func parseCPUInfo(b []byte) (cpuInfo, error) {
	ci := cpuInfo{Procs: map[int]map[string]string{}, Global: map[string]string{}}
	block := map[string]string{}
	flush := func() error {
		defer func() { block = map[string]string{} }()
		p, ok := block["processor"]
		if !ok {
			for k, v := range block {
				ci.Global[k] = v
			}
			return nil
		}
		n, err := machine.ParseCPU(p)
		if err != nil {
			return fmt.Errorf("cpuinfo: processor %q: %v", units.Clip(p), err)
		}
		if _, dup := ci.Procs[n]; dup {
			return fmt.Errorf("cpuinfo: processor %d twice", n)
		}
		ci.Procs[n] = block
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), maxFileSize)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			if err := flush(); err != nil {
				return cpuInfo{}, err
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return cpuInfo{}, fmt.Errorf("cpuinfo line %d: not \"key : value\": %q", n, units.Clip(line))
		}
		// A repeated key starts a new block on kernels that omit blank lines.
		if _, dup := block[k]; dup && k == "processor" {
			if err := flush(); err != nil {
				return cpuInfo{}, err
			}
		}
		block[k] = strings.TrimSpace(v)
	}
	if err := sc.Err(); err != nil {
		return cpuInfo{}, fmt.Errorf("cpuinfo: %v", err)
	}
	if err := flush(); err != nil {
		return cpuInfo{}, err
	}
	if len(ci.Procs) == 0 {
		return cpuInfo{}, fmt.Errorf("cpuinfo: no processor")
	}
	return ci, nil
}

// armParts names the Arm Ltd (implementer 0x41) cores seen on boards people
// benchmark on; others are shown by number.
var armParts = map[string]string{
	"0xd03": "Cortex-A53", "0xd04": "Cortex-A35", "0xd05": "Cortex-A55",
	"0xd07": "Cortex-A57", "0xd08": "Cortex-A72", "0xd09": "Cortex-A73",
	"0xd0a": "Cortex-A75", "0xd0b": "Cortex-A76", "0xd0c": "Neoverse-N1",
	"0xd0d": "Cortex-A77", "0xd40": "Neoverse-V1", "0xd41": "Cortex-A78",
	"0xd44": "Cortex-X1", "0xd46": "Cortex-A510", "0xd47": "Cortex-A710",
	"0xd48": "Cortex-X2", "0xd49": "Neoverse-N2", "0xd4d": "Cortex-A715",
	"0xd4e": "Cortex-X3", "0xd4f": "Neoverse-V2",
}

// model is the CPU model of one processor block: x86 "model name", or on
// ARM the core named from "CPU implementer"/"CPU part".
func (ci cpuInfo) model(cpu int) (string, bool) {
	p := ci.Procs[cpu]
	if m := p["model name"]; m != "" {
		return m, true
	}
	part := p["CPU part"]
	if part == "" {
		return "", false
	}
	if name, ok := armParts[part]; ok && p["CPU implementer"] == "0x41" {
		return "Arm " + name + " (part " + part + ")", true
	}
	return "implementer " + p["CPU implementer"] + " part " + part, true
}

// models is every distinct model with the CPUs that have it, "Arm
// Cortex-A53 (part 0xd03) on 0-3; Arm Cortex-A72 (part 0xd08) on 4-5", or
// the one model alone when all CPUs share it. Hardware (32-bit ARM) is added.
func (ci cpuInfo) models() (string, bool) {
	byModel := map[string][]int{}
	var order []string
	for _, cpu := range slices.Sorted(maps.Keys(ci.Procs)) {
		m, ok := ci.model(cpu)
		if !ok {
			continue
		}
		if _, seen := byModel[m]; !seen {
			order = append(order, m)
		}
		byModel[m] = append(byModel[m], cpu)
	}
	var parts []string
	for _, m := range order {
		if len(order) == 1 {
			parts = append(parts, m)
		} else {
			parts = append(parts, m+" on "+machine.FormatCPUList(byModel[m]))
		}
	}
	if hw := ci.Global["Hardware"]; hw != "" {
		parts = append(parts, "hardware "+hw)
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "; "), true
}

// hypervisor reports whether the x86 "flags" line of the first CPU has
// "hypervisor", set by every mainstream hypervisor (KVM, Xen HVM, Hyper-V,
// VMware). Other architectures have no such flag: unknown.
func (ci cpuInfo) hypervisor() machine.Fact[bool] {
	if cpus := slices.Sorted(maps.Keys(ci.Procs)); len(cpus) > 0 {
		if flags, ok := ci.Procs[cpus[0]]["flags"]; ok {
			return machine.Known(slices.Contains(strings.Fields(flags), "hypervisor"))
		}
	}
	return machine.Unknown[bool]("no x86 flags line in /proc/cpuinfo to look for the hypervisor flag")
}
