//go:build ppc64 || ppc64le

package sysread

import "golang.org/x/sys/cpu"

// cpuName is the POWER generation the kernel reports (hwcap2), the name
// Go's internal/cpu.Name gives on ppc64; "" for an older one.
func cpuName() string {
	switch {
	case cpu.PPC64.IsPOWER10:
		return "POWER10"
	case cpu.PPC64.IsPOWER9:
		return "POWER9"
	case cpu.PPC64.IsPOWER8:
		return "POWER8"
	}
	return ""
}
