package sysread

import (
	"github.com/benchy-dev/benchy/internal/machine"
	"golang.org/x/sys/unix"
)

// AllowedCPUs is the CPUs this thread may run on (its affinity mask).
func AllowedCPUs() machine.Fact[machine.CPUList] {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return machine.Unknown[machine.CPUList]("sched_getaffinity: %v", err)
	}
	var l machine.CPUList
	for c := range len(set) * 64 {
		if set.IsSet(c) {
			l = append(l, c)
		}
	}
	return machine.Known(l)
}

// liveKernel is the running kernel's release, from uname.
func liveKernel() machine.Fact[string] {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return machine.Unknown[string]("uname: %v", err)
	}
	return machine.Known(unix.ByteSliceToString(u.Release[:]))
}

// PeakRSS is the most memory this process has held, in bytes
// (getrusage(RUSAGE_SELF) ru_maxrss, which Linux gives in KiB).
func PeakRSS() (int64, bool) {
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return ru.Maxrss << 10, true
}
