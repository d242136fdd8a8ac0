package machine

import (
	"slices"
	"time"
)

// The busy share cannot see a core the host slows: on a virtual machine
// the host may give a core's other hardware thread to another guest for
// minutes, and that core then runs the reference loop (harness) at 1.7-1.9
// cycles per iteration instead of 1 while /proc/stat reads 0% busy. Only a
// measured speed tells such a core from a free one, so the busy window
// also times the reference loop on every available CPU (sysread.ReadOptions.Probe)
// and the choice prefers, among the idle CPUs, the fast ones.

// CPUSpeed is how fast one CPU ran the reference loop in the busy window.
type CPUSpeed struct {
	CPU int `json:"cpu"`
	// RefNs is the best of the repeats' medians, in ns per iteration; the
	// reason when the CPU could not be probed.
	RefNs Fact[float64] `json:"ref_ns"`
	// RepeatsNs is each repeat's median ns per iteration, in order.
	RepeatsNs []float64 `json:"repeats_ns,omitempty"`
	// Own is the probe's CPU time on this CPU, taken out of its busy.
	Own time.Duration `json:"-"`
}

// ProbeBatches splits the available CPUs into batches in which no two are
// SMT siblings: two threads of one core running the loop at once would
// slow each other, and read the core as shared by their own doing.
func (s *Snapshot) ProbeBatches() []CPUList {
	avail, err := s.Available()
	if err != nil {
		return nil
	}
	var batches []CPUList
	for _, c := range avail {
		sib, _ := s.CPUEntry(c).Siblings.Get()
		i := slices.IndexFunc(batches, func(b CPUList) bool {
			return !slices.ContainsFunc(b, sib.Has)
		})
		if i < 0 {
			batches = append(batches, nil)
			i = len(batches) - 1
		}
		batches[i] = append(batches[i], c)
	}
	return batches
}

// SpeedOf returns cpu's reference loop in ns per iteration from the
// window's probe, when it was measured.
func (s *Snapshot) SpeedOf(cpu int) (float64, bool) {
	i := slices.IndexFunc(s.Speed, func(sp CPUSpeed) bool { return sp.CPU == cpu })
	if i < 0 {
		return 0, false
	}
	return s.Speed[i].RefNs.Get()
}
