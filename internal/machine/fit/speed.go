package fit

import (
	"fmt"
	"slices"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
)

// SlowRatio is how many times slower than the fastest CPU a CPU must run
// the reference loop to be slow. Two free cores of one machine read within
// a few percent of each other; a core whose other hardware thread is
// taken reads 1.3-1.9 times slower. 1.1 keeps the first together and
// tells the second apart.
const SlowRatio = 1.1

// whySpeedUnknown is why cpu's speed is not known: "not measured" when the
// snapshot holds no probe (a fixture tree, an older file).
func whySpeedUnknown(s *machine.Snapshot, cpu int) string {
	i := slices.IndexFunc(s.Speed, func(sp machine.CPUSpeed) bool { return sp.CPU == cpu })
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
func fastestIdle(s *machine.Snapshot, pool machine.CPUList) (cpu int, ns float64, ok bool) {
	for _, c := range pool {
		k := candidateOf(s, c)
		v, measured := s.SpeedOf(c)
		if k.ownIdle && k.sibIdle && measured && (!ok || v < ns) {
			cpu, ns, ok = c, v, true
		}
	}
	return cpu, ns, ok
}

// SlowCPU reports whether the reference loop ran on cpu at least SlowRatio
// times as long as on the fastest idle CPU.
func SlowCPU(s *machine.Snapshot, cpu int) bool {
	_, _, _, slow := slowness(s, cpu)
	return slow
}

// slowness compares cpu's reference loop with the fastest idle CPU's it
// could have been chosen instead of: slow when cpu ran it at least
// SlowRatio times slower.
func slowness(s *machine.Snapshot, cpu int) (ns float64, fast int, best float64, slow bool) {
	ns, ok := s.SpeedOf(cpu)
	if !ok {
		return 0, 0, 0, false
	}
	pool, _, err := candidatePool(s)
	if err != nil {
		return 0, 0, 0, false
	}
	fast, best, ok = fastestIdle(s, pool)
	return ns, fast, best, ok && fast != cpu && ns >= SlowRatio*best
}

// checkSpeed: the CPU ran the reference loop SlowRatio times slower than
// an idle CPU that could have been chosen instead (--cpu named it, or the
// faster one was taken by another benchy).
func checkSpeed(s *machine.Snapshot, cpu int, add adder) {
	ns, fast, best, slow := slowness(s, cpu)
	if !slow {
		return
	}
	add(machine.CodeSlowCPU, finding.Warn, map[string]any{"ref_ns": ns, "fastest_cpu": fast, "fastest_ref_ns": best, "ratio": ns / best},
		"%s: the host or another hardware thread takes part of this core, so times measured here read slow", SlowWords(s, cpu))
}

// SlowWords says that cpu ran the reference loop slower than the fastest
// idle CPU: "cpu3 ran the reference loop at 1.31 ns per iteration, 1.31x
// idle cpu1's 1.00 ns"; "" when it did not (or it is not known).
func SlowWords(s *machine.Snapshot, cpu int) string {
	ns, fast, best, slow := slowness(s, cpu)
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
func speedWords(s *machine.Snapshot, k candidate, kind []candidate) (words string, first bool) {
	if k.speed == speedUnknown {
		return "reference loop unknown: " + whySpeedUnknown(s, k.cpu), false
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
