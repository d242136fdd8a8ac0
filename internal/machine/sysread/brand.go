package sysread

import (
	"bufio"
	"bytes"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
)

// readCPUBrand reads the CPU's name as go test prints it in the "cpu:"
// line of its benchmark header, so that benchy's Go benchmark format can
// write the same line and benchstat puts the two files in one table. It
// follows Go's internal/sysinfo.CPUName: the name the CPU gives itself
// (cpuName), else the operating system's (osCPUName). That is not always
// /proc/cpuinfo's model name: a hypervisor may give the guest's kernel
// another one than CPUID gives (here "AMD EPYC" against "Oxide Virtual
// Turin-like Processor"). The name is kept byte for byte, trailing spaces
// included, because benchstat compares the values whole.
//
// Only the live machine is asked: a tree holds no answer from the CPU.
func readCPUBrand(r FS, live bool) machine.Fact[string] {
	if !live {
		return machine.Unknown[string]("read on the live machine only: go test asks the CPU itself (CPUID), not a tree")
	}
	if name := cpuName(); name != "" {
		return machine.Known(name)
	}
	if name := osCPUName(r); name != "" {
		return machine.Known(name)
	}
	return machine.Unknown[string]("neither the CPU nor the operating system names it: go test prints no cpu line")
}

// goCPUInfoMax is how much of /proc/cpuinfo Go reads for the name: enough
// for the first processor's block on the machines its authors had. A
// model name beyond it is not seen by go test, so not by benchy either.
const goCPUInfoMax = 512

// goCPUInfoName is the CPU name Go takes from /proc/cpuinfo where the CPU
// does not give one (internal/sysinfo on Linux): the last "model name" (or
// "Model Name") value in the first goCPUInfoMax bytes, with " @ <cpu
// MHz>MHz" added when the name carries no frequency; "" when there is none.
func goCPUInfoName(b []byte) string {
	b = b[:min(len(b), goCPUInfoMax)]
	var model, mhz string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, value, found := strings.Cut(sc.Text(), ": ")
		if !found {
			continue
		}
		switch strings.TrimSpace(key) {
		case "Model Name", "model name":
			model = value
		case "CPU MHz", "cpu MHz":
			mhz = value
		}
	}
	if model == "" || mhz == "" || strings.Contains(model, "GHz") || strings.Contains(model, "MHz") {
		return model
	}
	return model + " @ " + mhz + "MHz"
}
