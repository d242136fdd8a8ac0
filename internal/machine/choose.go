package machine

import (
	"fmt"
)

// Available returns the CPUs a benchmark may be pinned to: online, and
// either allowed to this process or isolated. Isolated CPUs are usually
// left out of every process's default affinity (isolcpus), yet pinning to
// them works when the cgroup cpuset has them, so they count.
func (s *Snapshot) Available() (CPUList, error) {
	online, ok := s.Online.Get()
	if !ok {
		return nil, fmt.Errorf("online CPUs unknown: %s", s.Online.Reason)
	}
	allowed, ok := s.Allowed.Get()
	if !ok {
		allowed = online
	}
	isolated, _ := s.Isolated.Get()
	cpuset, ok := s.Cgroup.Cpuset.Get()
	if !ok {
		cpuset = online
	}
	var out CPUList
	for _, c := range online {
		if allowed.Has(c) || (isolated.Has(c) && cpuset.Has(c)) {
			out = append(out, c)
		}
	}
	return out, nil
}

// ListOrNone writes a list of CPUs, "none" when it is known and empty.
func ListOrNone(f Fact[CPUList]) string {
	if l, ok := f.Get(); ok && len(l) == 0 {
		return "none"
	}
	return f.String()
}

// CPUEntry returns the CPU entry for c, or an entry whose facts are unknown.
func (s *Snapshot) CPUEntry(c int) CPU {
	for _, x := range s.CPUs {
		if x.CPU == c {
			return x
		}
	}
	off := fmt.Sprintf("cpu%d is not online", c)
	return CPU{CPU: c, Driver: Unknown[string]("%s", off), Governor: Unknown[string]("%s", off),
		CurFreqKHz: Unknown[int64]("%s", off), MinFreqKHz: Unknown[int64]("%s", off),
		MaxFreqKHz: Unknown[int64]("%s", off), CPUInfoMaxKHz: Unknown[int64]("%s", off),
		EPP: Unknown[string]("%s", off), Boost: Unknown[bool]("%s", off),
		CoreType: Unknown[string]("%s", off), Capacity: Unknown[int64]("%s", off),
		Package: Unknown[int64]("%s", off), Siblings: Unknown[CPUList]("%s", off),
		CoreThrottles: Unknown[int64]("%s", off), PkgThrottles: Unknown[int64]("%s", off)}
}

// BusyOf returns cpu's busy in the snapshot's window.
func (s *Snapshot) BusyOf(cpu int) (CPUBusy, bool) {
	busy, ok := s.Busy.Get()
	if !ok {
		return CPUBusy{}, false
	}
	for _, b := range busy {
		if b.CPU == cpu {
			return b, true
		}
	}
	return CPUBusy{}, false
}

// MaxFreqKHz is cpu's cpuinfo_max_freq: the highest frequency the hardware
// allows (with turbo), the ceiling for "is this time possible?".
func (s *Snapshot) MaxFreqKHz(cpu int) (khz int64, ok bool) {
	return s.CPUEntry(cpu).CPUInfoMaxKHz.Get()
}

// CurFreqKHz is cpu's scaling_cur_freq at the time of the snapshot.
func (s *Snapshot) CurFreqKHz(cpu int) (int64, bool) {
	return s.CPUEntry(cpu).CurFreqKHz.Get()
}

// Hybrid reports whether the online CPUs are of more than one core type
// (performance and efficiency).
func (s *Snapshot) Hybrid() bool {
	seen := ""
	for _, c := range s.CPUs {
		if t, ok := c.CoreType.Get(); ok {
			if seen != "" && t != seen {
				return true
			}
			seen = t
		}
	}
	return false
}
