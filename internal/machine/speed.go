package machine

import (
	"fmt"
	"slices"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
)

// The busy share cannot see a core the host slows: on a virtual machine
// the host may give a core's other hardware thread to another guest for
// minutes, and that core then runs the reference loop (harness) at 1.7-1.9
// cycles per iteration instead of 1 while /proc/stat reads 0% busy. Only a
// measured speed tells such a core from a free one, so the busy window
// also times the reference loop on every available CPU (ReadOptions.Probe)
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

// SlowRatio is how many times slower than the fastest CPU a CPU must run
// the reference loop to be slow. Two free cores of one machine read within
// a few percent of each other; a core whose other hardware thread is
// taken reads 1.3-1.9 times slower. 1.1 keeps the first together and
// tells the second apart.
const SlowRatio = 1.1

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

// speedUnknown is why cpu's speed is not known: "not measured" when the
// snapshot holds no probe (a fixture tree, an older file).
func (s *Snapshot) speedUnknown(cpu int) string {
	i := slices.IndexFunc(s.Speed, func(sp CPUSpeed) bool { return sp.CPU == cpu })
	if i < 0 {
		return "not measured"
	}
	return s.Speed[i].RefNs.Reason
}

// Speed classes of a candidate CPU, best first (see RankCPUs): within
// SlowRatio of the fastest of its kind, not measured, slow.
const (
	speedFast = iota
	speedUnknown
	speedSlow
)

// fastestIdle is the fastest measured speed among the idle CPUs of pool
// (their SMT siblings idle too), and which CPU; ok is false when no idle
// CPU was measured.
func (s *Snapshot) fastestIdle(pool CPUList) (cpu int, ns float64, ok bool) {
	for _, c := range pool {
		k := s.candidate(c)
		v, measured := s.SpeedOf(c)
		if k.ownIdle && k.sibIdle && measured && (!ok || v < ns) {
			cpu, ns, ok = c, v, true
		}
	}
	return cpu, ns, ok
}

// SlowCPU reports whether the reference loop ran on cpu at least SlowRatio
// times as long as on the fastest idle CPU.
func (s *Snapshot) SlowCPU(cpu int) bool {
	_, _, _, slow := s.slowness(cpu)
	return slow
}

// slowness compares cpu's reference loop with the fastest idle CPU's it
// could have been chosen instead of: slow when cpu ran it at least
// SlowRatio times slower.
func (s *Snapshot) slowness(cpu int) (ns float64, fast int, best float64, slow bool) {
	ns, ok := s.SpeedOf(cpu)
	if !ok {
		return 0, 0, 0, false
	}
	pool, _, err := s.candidatePool()
	if err != nil {
		return 0, 0, 0, false
	}
	fast, best, ok = s.fastestIdle(pool)
	return ns, fast, best, ok && fast != cpu && ns >= SlowRatio*best
}

// checkSpeed: the CPU ran the reference loop SlowRatio times slower than
// an idle CPU that could have been chosen instead (--cpu named it, or the
// faster one was taken by another benchy).
func checkSpeed(s *Snapshot, cpu int, add adder) {
	ns, fast, best, slow := s.slowness(cpu)
	if !slow {
		return
	}
	add(CodeSlowCPU, finding.Warn, map[string]any{"ref_ns": ns, "fastest_cpu": fast, "fastest_ref_ns": best, "ratio": ns / best},
		"%s: the host or another hardware thread takes part of this core, so times measured here read slow", SlowWords(s, cpu))
}

// SlowWords says that cpu ran the reference loop slower than the fastest
// idle CPU: "cpu3 ran the reference loop at 1.31 ns per iteration, 1.31x
// idle cpu1's 1.00 ns"; "" when it did not (or it is not known).
func SlowWords(s *Snapshot, cpu int) string {
	ns, fast, best, slow := s.slowness(cpu)
	if !slow {
		return ""
	}
	return fmt.Sprintf("cpu%d ran the reference loop at %.2f ns per iteration, %.2fx idle cpu%d's %.2f ns", cpu, ns, ns/best, fast, best)
}

// speedWords says what the probe made of k among the candidates of its
// kind (as idle as k): "fastest of 2 by the reference loop (1.00 vs 1.31
// ns)" when it decided (first says so: it goes first), "reference loop
// 1.00 ns, as fast as the others" when it did not, "reference loop
// unknown: <why>" when k was not probed.
func (s *Snapshot) speedWords(k candidate, kind []candidate) (words string, first bool) {
	if k.speed == speedUnknown {
		return "reference loop unknown: " + s.speedUnknown(k.cpu), false
	}
	fastest, slowest, measured := k.refNs, k.refNs, 0
	for _, o := range kind {
		if o.speed != speedUnknown {
			fastest, slowest, measured = min(fastest, o.refNs), max(slowest, o.refNs), measured+1
		}
	}
	switch {
	case measured <= 1 && len(kind) > 1:
		return fmt.Sprintf("reference loop %.2f ns, the only one measured", k.refNs), true
	case measured <= 1:
		return fmt.Sprintf("reference loop %.2f ns", k.refNs), false
	case k.speed == speedSlow:
		return fmt.Sprintf("reference loop %.2f ns, %.2fx the fastest", k.refNs, k.refNs/fastest), true
	case slowest < SlowRatio*fastest:
		return fmt.Sprintf("reference loop %.2f ns, as fast as the others", k.refNs), false
	case k.refNs == fastest:
		return fmt.Sprintf("fastest of %d by the reference loop (%.2f vs %.2f ns)", measured, k.refNs, slowest), true
	}
	return fmt.Sprintf("among the fastest of %d by the reference loop (%.2f vs %.2f ns)", measured, k.refNs, slowest), true
}
