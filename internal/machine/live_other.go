//go:build !linux

package machine

import "runtime"

// AllowedCPUs needs sched_getaffinity, which only Linux has.
func AllowedCPUs() Fact[CPUList] {
	return Unknown[CPUList]("sched_getaffinity needs Linux; this is %s", runtime.GOOS)
}

// liveKernel is read on Linux only: the machine facts benchy uses are
// Linux's.
func liveKernel() Fact[string] {
	return Unknown[string]("the kernel release is read on Linux only; this is %s", runtime.GOOS)
}

// PeakRSS is read on Linux only.
func PeakRSS() (int64, bool) { return 0, false }
