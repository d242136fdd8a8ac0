package fit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// ValidateCPU returns an error naming the available CPUs when cpu cannot be
// used, as "cpu 7 is not available: online 0-1, allowed to this process 0-1".
func ValidateCPU(s *machine.Snapshot, cpu int) error {
	avail, err := s.Available()
	if err != nil {
		return fmt.Errorf("cpu %d cannot be checked: %v", cpu, err)
	}
	if avail.Has(cpu) {
		return nil
	}
	msg := fmt.Sprintf("cpu %d is not available: online %s, allowed to this process %s",
		cpu, machine.ListOrNone(s.Online), machine.ListOrNone(s.Allowed))
	if iso, ok := s.Isolated.Get(); ok && len(iso) > 0 {
		msg += ", isolated " + iso.String()
	}
	return fmt.Errorf("%s", msg)
}

// ChooseCPU picks the CPU to measure on and says why: the first of
// RankCPUs.
func ChooseCPU(s *machine.Snapshot) (cpu int, why string, err error) {
	cs, err := RankCPUs(s)
	if err != nil {
		return 0, "", err
	}
	return cs[0].CPU, cs[0].Why, nil
}

// A Choice is a CPU to measure on and why it was chosen.
type Choice struct {
	CPU int
	Why string
}

// RankCPUs orders the CPUs to measure on, best first, each with why: an
// isolated CPU if there is one; else, among the available CPUs, one of the
// fastest cores, preferring one whose SMT sibling and itself were idle in
// the busy window, then one that ran the reference loop within SlowRatio
// of the fastest of those as idle (one not probed comes after those, and
// before a slow one), then not CPU 0 (nor its SMT sibling; it takes more
// interrupts, but an idle cpu0 is still better than a busy CPU), then the
// highest cpuinfo_max_freq (the "preferred" cores of AMD and Intel chips
// boost higher), then the least busy, then the lowest number. A caller
// that finds the first taken (another benchy measures there) takes the
// next.
//
// Idleness comes before speed: a busy CPU's other task takes turns with
// the measured thread for the whole run, while the probe's few
// milliseconds may have fallen between its turns; a slow idle CPU is
// slow steadily, and slow-cpu-chosen says so. Speeds within SlowRatio are
// a tie (two free cores differ by a few percent from one probe to the
// next), left to the older rules.
func RankCPUs(s *machine.Snapshot) ([]Choice, error) {
	pool, isolated, err := candidatePool(s)
	if err != nil {
		return nil, err
	}
	cs := make([]candidate, len(pool))
	for i, c := range pool {
		cs[i] = candidateOf(s, c)
	}
	classifySpeeds(cs)
	slices.SortFunc(cs, func(a, b candidate) int {
		return cmp.Or(
			cmpTrueFirst(a.sibIdle, b.sibIdle),
			cmpTrueFirst(a.ownIdle, b.ownIdle),
			cmp.Compare(a.speed, b.speed),
			cmp.Compare(a.nearCPU0, b.nearCPU0),
			cmp.Compare(b.maxKHz, a.maxKHz),
			cmp.Compare(a.busyAll, b.busyAll),
			cmp.Compare(a.cpu, b.cpu))
	})
	out := make([]Choice, len(cs))
	for i, k := range cs {
		out[i] = Choice{CPU: k.cpu, Why: why(s, k, cs, pool, isolated)}
	}
	return out, nil
}

// classifySpeeds sets each candidate's speed class: slow when it ran the
// reference loop at least SlowRatio times slower than the fastest
// candidate as idle as itself (sameKind).
func classifySpeeds(cs []candidate) {
	for i, k := range cs {
		if k.speed == speedUnknown {
			continue
		}
		for _, o := range cs {
			if sameKind(k, o) && o.speed != speedUnknown && k.refNs >= SlowRatio*o.refNs {
				cs[i].speed = speedSlow
			}
		}
	}
}

// sameKind reports whether two candidates are as idle as each other, the
// rules that rank before speed.
func sameKind(a, b candidate) bool { return a.ownIdle == b.ownIdle && a.sibIdle == b.sibIdle }

// candidatePool is the CPUs to choose among: the available ones, narrowed
// to the isolated ones if any are available, then to the performance
// cores if there are any.
func candidatePool(s *machine.Snapshot) (pool machine.CPUList, isolated bool, err error) {
	avail, err := s.Available()
	if err != nil {
		return nil, false, err
	}
	if len(avail) == 0 {
		return nil, false, fmt.Errorf("no CPU available: online %s, allowed to this process %s", machine.ListOrNone(s.Online), machine.ListOrNone(s.Allowed))
	}
	pool = avail
	if iso, ok := s.Isolated.Get(); ok {
		if in := intersect(avail, iso); len(in) > 0 {
			pool, isolated = in, true
		}
	}
	fast := slices.DeleteFunc(slices.Clone(pool), func(c int) bool {
		t, ok := s.CPUEntry(c).CoreType.Get()
		return !ok || t != machine.CorePerformance
	})
	if len(fast) > 0 {
		pool = fast
	}
	return pool, isolated, nil
}

// candidate is what the ranking weighs of one CPU.
type candidate struct {
	cpu              int
	nearCPU0         int // 2 cpu0, 1 its sibling, 0 other
	maxKHz           int64
	busyAll          float64
	ownIdle, sibIdle bool
	speed            int     // speedFast, speedUnknown or speedSlow
	refNs            float64 // the reference loop, when measured
}

// candidate reads what the ranking weighs of cpu c.
func candidateOf(s *machine.Snapshot, c int) candidate {
	k := candidate{cpu: c, ownIdle: true, sibIdle: true, speed: speedUnknown}
	if v, ok := s.SpeedOf(c); ok {
		k.refNs, k.speed = v, speedFast
	}
	k.maxKHz, _ = s.MaxFreqKHz(c)
	cpu0Core := machine.CPUList{0}
	if sib, ok := s.CPUEntry(0).Siblings.Get(); ok {
		cpu0Core = append(cpu0Core, sib...)
	}
	if c == 0 {
		k.nearCPU0 = 2
	} else if cpu0Core.Has(c) {
		k.nearCPU0 = 1
	}
	if b, ok := judgedBusy(s, c); ok {
		k.busyAll, k.ownIdle = b.Busy.Value, b.Busy.Value <= BusyPct
	}
	sib, _ := s.CPUEntry(c).Siblings.Get()
	for _, o := range sib {
		if b, ok := judgedBusy(s, o); ok {
			k.busyAll += b.Busy.Value
			k.sibIdle = k.sibIdle && b.Busy.Value <= BusyPct
		}
	}
	return k
}

// why says why k ranks where it does among cs, chosen from pool: what
// the speed probe made of it first (when it decided, it is the reason
// that matters most), then the rest.
func why(s *machine.Snapshot, k candidate, cs []candidate, pool machine.CPUList, isolated bool) string {
	var parts []string
	kind := slices.DeleteFunc(slices.Clone(cs), func(o candidate) bool { return !sameKind(k, o) })
	speed, first := "", false
	if len(s.Speed) > 0 {
		speed, first = speedWords(s, k, kind)
	}
	if first {
		parts, speed = append(parts, speed), ""
	}
	if isolated {
		parts = append(parts, "isolated")
	}
	if t, ok := s.CPUEntry(k.cpu).CoreType.Get(); ok && s.Hybrid() {
		parts = append(parts, t+" core")
	}
	if slices.ContainsFunc(cs, func(o candidate) bool { return o.maxKHz != k.maxKHz }) &&
		!slices.ContainsFunc(cs, func(o candidate) bool { return o.maxKHz > k.maxKHz }) {
		parts = append(parts, fmt.Sprintf("cpuinfo_max_freq %d kHz, the highest", k.maxKHz))
	}
	switch {
	case first: // the speed said why; cpu0 or not is not the reason
	case k.cpu == 0 && len(pool) == 1:
		parts = append(parts, "the only CPU available")
	case k.nearCPU0 == 0 && slices.Contains(pool, 0):
		parts = append(parts, "not cpu0 (it takes more interrupts)")
	case k.nearCPU0 > 0 && slices.ContainsFunc(cs, func(o candidate) bool { return o.nearCPU0 == 0 }):
		parts = append(parts, "idle, where the others were busy")
	}
	if sib, ok := s.CPUEntry(k.cpu).Siblings.Get(); ok && len(sib) == 0 {
		parts = append(parts, "no SMT sibling")
	} else if ok {
		parts = append(parts, "SMT sibling "+busyWords(s, sib))
	}
	if b, ok := s.BusyOf(k.cpu); ok {
		parts = append(parts, "itself "+busyWord(b))
	}
	if speed != "" {
		parts = append(parts, speed)
	}
	return strings.Join(parts, ", ")
}

// busyWords is "cpu3 2% busy" for a list of CPUs.
func busyWords(s *machine.Snapshot, cpus machine.CPUList) string {
	var w []string
	for _, c := range cpus {
		if b, ok := s.BusyOf(c); ok {
			w = append(w, fmt.Sprintf("cpu%d %s", c, busyWord(b)))
		} else {
			w = append(w, fmt.Sprintf("cpu%d", c))
		}
	}
	return strings.Join(w, ", ")
}

// busyWord is "4% busy", or "busy not judged (1 tick)" below MinBusyTicks,
// or "busy unknown".
func busyWord(b machine.CPUBusy) string {
	switch {
	case b.Judged():
		return fmt.Sprintf("%.0f%% busy", b.Busy.Value)
	case b.Busy.Known():
		return "busy not judged (" + units.Count(b.Ticks, "tick") + ")"
	}
	return "busy unknown"
}

func cmpTrueFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

func intersect(a, b machine.CPUList) machine.CPUList {
	var out machine.CPUList
	for _, c := range a {
		if b.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// judgedBusy returns cpu's busy in the window when it can be judged (see
// CPUBusy.Judged).
func judgedBusy(s *machine.Snapshot, cpu int) (machine.CPUBusy, bool) {
	b, ok := s.BusyOf(cpu)
	return b, ok && b.Judged()
}
