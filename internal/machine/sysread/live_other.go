//go:build !linux

package sysread

import (
	"runtime"

	"github.com/benchy-dev/benchy/internal/machine"
)

// AllowedCPUs needs sched_getaffinity, which only Linux has.
func AllowedCPUs() machine.Fact[machine.CPUList] {
	return machine.Unknown[machine.CPUList]("sched_getaffinity needs Linux; this is %s", runtime.GOOS)
}

// liveKernel is read on Linux only: the machine facts benchy uses are
// Linux's.
func liveKernel() machine.Fact[string] {
	return machine.Unknown[string]("the kernel release is read on Linux only; this is %s", runtime.GOOS)
}

// PeakRSS is read on Linux only.
func PeakRSS() (int64, bool) { return 0, false }
