package sysread

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
)

// fakeProbe is a SpeedProbe that measures nothing: it gives each CPU the
// speed in ns (absent: the probe failed there, with reason) and records
// the batches it was asked for.
type fakeProbe struct {
	ns      map[int]float64
	reason  string
	own     time.Duration
	batches []machine.CPUList
}

func (f *fakeProbe) probe(batches []machine.CPUList) []machine.CPUSpeed {
	f.batches = batches
	var out []machine.CPUSpeed
	for _, b := range batches {
		for _, c := range b {
			sp := machine.CPUSpeed{CPU: c, Own: f.own, RefNs: machine.Unknown[float64]("%s", f.reason)}
			if v, ok := f.ns[c]; ok {
				sp.RefNs, sp.RepeatsNs = machine.Known(v), []float64{v * 1.01, v}
			}
			out = append(out, sp)
		}
	}
	slices.SortFunc(out, func(a, b machine.CPUSpeed) int { return a.CPU - b.CPU })
	return out
}

// readProbed reads the fixture machine with the probe, then sets each
// CPU's busy over a window of 100 ticks (judged) to busy[cpu] (1% when
// absent).
func readProbed(t *testing.T, name string, p *fakeProbe, busy map[int]float64) *machine.Snapshot {
	t.Helper()
	s, err := Read(context.Background(), filepath.Join("../../../testdata/machines", name), ReadOptions{Window: time.Second, Runtime: fixedRuntime, Probe: p.probe})
	if err != nil {
		t.Fatal(err)
	}
	bs := s.Busy.Value
	for i := range bs {
		bs[i].Ticks, bs[i].Busy.Value = 100, 1
		if v, ok := busy[bs[i].CPU]; ok {
			bs[i].Busy.Value = v
		}
	}
	return s
}

// TestChooseBySpeed: the choice weighs the reference loop after idleness
// and before the rest (not cpu0, the highest max frequency). On vm, both
// CPUs idle, benchy chooses cpu1 (not cpu0) unless the probe says
// otherwise.
func TestChooseBySpeed(t *testing.T) {
	for _, c := range []struct {
		name    string
		ns      map[int]float64
		reason  string
		busy    map[int]float64
		allowed machine.CPUList
		cpu     int
		why     string
	}{
		{name: "a slow idle CPU and a fast idle one: the fast one",
			ns: map[int]float64{0: 1.00, 1: 1.31}, cpu: 0,
			why: "fastest of 2 by the reference loop (1.00 vs 1.31 ns), no SMT sibling, itself 1% busy"},
		{name: "a fast busy CPU and a slow idle one: the idle one",
			ns: map[int]float64{0: 1.00, 1: 1.31}, busy: map[int]float64{0: 60}, cpu: 1,
			why: "not cpu0 (it takes more interrupts), no SMT sibling, itself 1% busy, reference loop 1.31 ns"},
		{name: "within 1.1x is a tie: the older rules decide",
			ns: map[int]float64{0: 1.00, 1: 1.09}, cpu: 1,
			why: "not cpu0 (it takes more interrupts), no SMT sibling, itself 1% busy, reference loop 1.09 ns, as fast as the others"},
		{name: "1.1x is slow",
			ns: map[int]float64{0: 1.00, 1: 1.10}, cpu: 0,
			why: "fastest of 2 by the reference loop (1.00 vs 1.10 ns), no SMT sibling, itself 1% busy"},
		{name: "one CPU only",
			ns: map[int]float64{1: 1.31}, allowed: machine.CPUList{1}, cpu: 1,
			why: "no SMT sibling, itself 1% busy, reference loop 1.31 ns"},
		{name: "the probe failed: the busy share decides",
			reason: "pin to cpu 1: sched_setaffinity: invalid argument", cpu: 1,
			why: "not cpu0 (it takes more interrupts), no SMT sibling, itself 1% busy, reference loop unknown: pin to cpu 1: sched_setaffinity: invalid argument"},
		{name: "a CPU not probed ranks after a fast one",
			ns: map[int]float64{0: 1.00}, reason: "failed", cpu: 0,
			why: "reference loop 1.00 ns, the only one measured, no SMT sibling, itself 1% busy"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := readProbed(t, "vm", &fakeProbe{ns: c.ns, reason: c.reason}, c.busy)
			if c.allowed != nil {
				s.Allowed = machine.Known(c.allowed)
			}
			cpu, why, err := machine.ChooseCPU(s)
			if err != nil || cpu != c.cpu || why != c.why {
				t.Errorf("ChooseCPU = cpu%d, %q, %v\nwant cpu%d, %q", cpu, why, err, c.cpu, c.why)
			}
		})
	}
}

// Without a probe (a fixture tree, an older file) the choice is the busy
// share's, as before, and says nothing of a speed it does not have.
func TestChooseWithoutProbe(t *testing.T) {
	s := readFixture(t, "vm")
	if cpu, why, err := machine.ChooseCPU(s); err != nil || cpu != 1 || strings.Contains(why, "reference") {
		t.Errorf("ChooseCPU = cpu%d, %q, %v; want cpu1 by the busy share", cpu, why, err)
	}
}

// A CPU named with --cpu that ran the reference loop 1.1x slower than an
// idle CPU gets slow-cpu-chosen; the fastest does not, nor a slow CPU
// when the fast one is busy (no faster idle CPU could have been chosen).
func TestSlowCPUChosen(t *testing.T) {
	const slowCPU = "warn slow-cpu-chosen"
	s := readProbed(t, "vm", &fakeProbe{ns: map[int]float64{0: 1.00, 1: 1.31}}, nil)
	if got := codes(machine.Check(s, 1)); !slices.Contains(got, slowCPU) {
		t.Errorf("Check(cpu1) = %q, want %s", got, slowCPU)
	}
	want := "cpu1 ran the reference loop at 1.31 ns per iteration, 1.31x idle cpu0's 1.00 ns"
	if got := machine.SlowWords(s, 1); got != want {
		t.Errorf("SlowWords(cpu1) = %q, want %q", got, want)
	}
	if got := codes(machine.Check(s, 0)); slices.Contains(got, slowCPU) {
		t.Errorf("Check(cpu0), the fastest, = %q", got)
	}
	busy := readProbed(t, "vm", &fakeProbe{ns: map[int]float64{0: 1.00, 1: 1.31}}, map[int]float64{0: 60})
	if got := codes(machine.Check(busy, 1)); slices.Contains(got, slowCPU) || machine.SlowWords(busy, 1) != "" {
		t.Errorf("Check(cpu1) with cpu0 busy = %q, %q; want no %s", got, machine.SlowWords(busy, 1), slowCPU)
	}
}

// The probe runs on every available CPU, never on two SMT siblings at
// once (amd-desktop: cpu N and N+8 share a core), and only there (an
// isolated set narrows the choice, not the probe: server-2socket's
// allowed CPUs and its isolated ones).
func TestProbeBatches(t *testing.T) {
	for _, name := range []string{"amd-desktop", "server-2socket", "vm"} {
		t.Run(name, func(t *testing.T) {
			p := &fakeProbe{}
			s := readProbed(t, name, p, nil)
			avail, err := s.Available()
			if err != nil {
				t.Fatal(err)
			}
			var all machine.CPUList
			for _, b := range p.batches {
				for _, c := range b {
					sib, _ := s.CPUEntry(c).Siblings.Get()
					if slices.ContainsFunc(b, sib.Has) {
						t.Errorf("batch %v holds cpu%d and its sibling %v", b, c, sib)
					}
				}
				all = append(all, b...)
			}
			slices.Sort(all)
			if !slices.Equal(all, avail) {
				t.Errorf("probed %v, want the available %v", all, avail)
			}
			if len(s.Speed) != len(avail) {
				t.Errorf("%d speeds for %d CPUs", len(s.Speed), len(avail))
			}
		})
	}
}

// The probe's own CPU time is taken out of each CPU's busy, as benchy's
// own work: vm's cpu0 is 9% busy over 100 ticks with 3% steal, and 50 ms
// of probe is 5% of the window less the steal's share, 4.85%.
func TestProbeNotCountedBusy(t *testing.T) {
	s, err := Read(context.Background(), "../../../testdata/machines/vm", ReadOptions{Window: time.Second, Runtime: fixedRuntime,
		Probe: (&fakeProbe{ns: map[int]float64{0: 1, 1: 1}, own: 50 * time.Millisecond}).probe})
	if err != nil {
		t.Fatal(err)
	}
	b, ok := s.BusyOf(0)
	if !ok || math.Abs(b.Own-4.85) > 1e-9 || math.Abs(b.Busy.Value-4.15) > 1e-9 || s.BusyOwn != 100*time.Millisecond {
		t.Errorf("cpu0 busy %v, own %.2f%%, BusyOwn %v; want 4.15%%, 4.85%%, 100ms", b.Busy, b.Own, s.BusyOwn)
	}
}
