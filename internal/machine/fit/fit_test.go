package fit

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/machinetest"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
)

// TestFixtures reads every fixture machine and checks what it is, which
// CPU benchy chooses there and which findings that CPU gets.
func TestFixtures(t *testing.T) {
	tests := []struct {
		machine  string
		facts    map[string]string // fact -> String()
		cpu      int
		why      string
		findings []string
	}{
		{
			machine: "laptop-hybrid",
			facts: map[string]string{"online": "0-15", "allowed": "0-15", "nohz_full": "", "turbo": "true",
				"cpu2 governor": "powersave", "cpu2 core": "performance", "cpu9 core": "efficiency", "cpu2 siblings": "3", "cpu8 siblings": ""},
			cpu:      2,
			why:      "performance core, not cpu0 (it takes more interrupts), SMT sibling cpu3 2% busy, itself 4% busy",
			findings: []string{"info not-isolated", "warn freq-range", "warn governor", "warn throttled", "warn turbo"},
		},
		{
			machine: "server-2socket",
			facts: map[string]string{"online": "0-31", "allowed": "0-1,4-17,20-31", "isolated": "2-3,18-19", "nohz_full": "2-3,18-19",
				"turbo": "false", "cpu2 governor": "performance", "cpu2 core": "performance", "cpu2 siblings": "18"},
			cpu:      2,
			why:      "isolated, SMT sibling cpu18 0% busy, itself 0% busy",
			findings: nil,
		},
		{
			machine: "vm",
			facts: map[string]string{"online": "0-1", "allowed": "0-1", "hypervisor": "true",
				"nohz_full":     "unknown: no nohz_full file: kernel built without CONFIG_NO_HZ_FULL",
				"turbo":         "unknown: no intel_pstate/no_turbo, cpufreq/boost or per-policy boost",
				"cpu1 governor": "unknown: no cpufreq in /sys: virtual machine, the host sets the frequency",
				"cpu1 core":     "performance", "cpu1 siblings": ""},
			cpu:      1,
			why:      "not cpu0 (it takes more interrupts), no SMT sibling, itself 6% busy",
			findings: []string{"info no-cpufreq", "info not-isolated", "info virtual-machine", "warn cpu-busy", "warn steal"},
		},
		{
			machine: "arm-biglittle",
			facts: map[string]string{"online": "0-5", "cpu0 core": "efficiency", "cpu4 core": "performance",
				"cpu4 governor": "schedutil", "hypervisor": "unknown: no x86 flags line in /proc/cpuinfo to look for the hypervisor flag"},
			cpu:      4,
			why:      "performance core, no SMT sibling, itself 1% busy",
			findings: []string{"info not-isolated", "warn cgroup-quota", "warn freq-range", "warn governor"},
		},
		{
			machine: "amd-desktop",
			facts: map[string]string{"online": "0-15", "turbo": "true", "cpu1 governor": "performance",
				"cpu1 core": "performance", "cpu3 core": "performance", "cpu1 siblings": "9"},
			cpu:      1,
			why:      "cpuinfo_max_freq 5573000 kHz, the highest, not cpu0 (it takes more interrupts), SMT sibling cpu9 1% busy, itself 3% busy",
			findings: []string{"info not-isolated", "warn freq-range", "warn turbo"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.machine, func(t *testing.T) {
			s := machinetest.Read(t, tt.machine, nil)
			got := map[string]string{
				"online": s.Online.String(), "allowed": s.Allowed.String(), "isolated": s.Isolated.String(),
				"nohz_full": s.NohzFull.String(), "hypervisor": s.Hypervisor.String(), "turbo": s.Turbo.On.String(),
			}
			for _, c := range s.CPUs {
				p := "cpu" + itoa(c.CPU)
				got[p+" governor"], got[p+" core"], got[p+" siblings"] = c.Governor.String(), c.CoreType.String(), c.Siblings.String()
			}
			for k, want := range tt.facts {
				if got[k] != want {
					t.Errorf("%s = %q, want %q", k, got[k], want)
				}
			}
			cpu, why, err := ChooseCPU(s)
			if err != nil || cpu != tt.cpu || why != tt.why {
				t.Errorf("ChooseCPU = %d, %q, %v; want %d, %q", cpu, why, err, tt.cpu, tt.why)
			}
			if err := ValidateCPU(s, tt.cpu); err != nil {
				t.Errorf("ValidateCPU(%d) = %v", tt.cpu, err)
			}
			if c := machinetest.Codes(Check(s, tt.cpu)); !slices.Equal(c, tt.findings) {
				t.Errorf("Check(cpu%d) = %q, want %q", tt.cpu, c, tt.findings)
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestCheckCodes covers the findings no chosen CPU of the fixtures gets.
func TestCheckCodes(t *testing.T) {
	laptop := machinetest.Read(t, "laptop-hybrid", nil)
	arm := machinetest.Read(t, "arm-biglittle", nil)
	tests := []struct {
		name string
		s    *machine.Snapshot
		cpu  int
		want string // a code that must be there, with its severity
	}{
		{"busy target", laptop, 6, "warn cpu-busy"},
		{"busy sibling", laptop, 7, "warn sibling-busy"},
		{"cpu0", laptop, 0, "info cpu0"},
		{"E-core", laptop, 9, "warn efficiency-core"},
		{"LITTLE core", arm, 0, "warn efficiency-core"},
		{"core throttles", laptop, 4, "warn throttled"},
	}
	for _, tt := range tests {
		if c := machinetest.Codes(Check(tt.s, tt.cpu)); !slices.Contains(c, tt.want) {
			t.Errorf("%s: Check(cpu%d) = %q, want %q in it", tt.name, tt.cpu, c, tt.want)
		}
	}
	// Thresholds: load above LoadPerCPU per CPU; a quota under one CPU is an error.
	s := machinetest.Read(t, "arm-biglittle", nil)
	s.Load.Value.Load1 = LoadPerCPU*6 + 0.01
	s.Cgroup.Quota.Value = machine.Quota{Limited: true, CPUs: 0.5, QuotaUs: 50000, PeriodUs: 100000, From: "cpu.max"}
	c := machinetest.Codes(Check(s, 4))
	if !slices.Contains(c, "warn load") || !slices.Contains(c, "error cgroup-quota") {
		t.Errorf("load %.2f on 6 CPUs, quota 0.5: %q", s.Load.Value.Load1, c)
	}
	s.Load.Value.Load1 = LoadPerCPU * 6
	if c := machinetest.Codes(Check(s, 4)); slices.Contains(c, "warn load") {
		t.Errorf("load exactly %.1f per CPU must not warn: %q", LoadPerCPU, c)
	}
	// Steal on other CPUs only is info.
	s = machinetest.Read(t, "vm", nil)
	busy := s.Busy.Value
	busy[1].Steal = machine.Known(0.0)
	if c := machinetest.Codes(Check(s, 1)); !slices.Contains(c, "info steal") {
		t.Errorf("steal on cpu0 only, target cpu1: %q", c)
	}
}

func TestValidateCPU(t *testing.T) {
	vm := machinetest.Read(t, "vm", nil)
	if err := ValidateCPU(vm, 7); err == nil || err.Error() != "cpu 7 is not available: online 0-1, allowed to this process 0-1" {
		t.Errorf("ValidateCPU(vm, 7) = %v", err)
	}
	server := machinetest.Read(t, "server-2socket", nil)
	// Isolated CPUs are out of the affinity mask but may be pinned to.
	if err := ValidateCPU(server, 18); err != nil {
		t.Errorf("ValidateCPU(server, 18) = %v", err)
	}
	if err := ValidateCPU(server, 32); err == nil || err.Error() != "cpu 32 is not available: online 0-31, allowed to this process 0-1,4-17,20-31, isolated 2-3,18-19" {
		t.Errorf("ValidateCPU(server, 32) = %v", err)
	}
}

// TestEmptyTree: a root with nothing in it gives unknown facts with
// reasons, never zeros, and the choice and the checks still work.
func TestEmptyTree(t *testing.T) {
	s, err := sysread.Read(context.Background(), t.TempDir(), sysread.ReadOptions{Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]interface{ Known() bool }{"online": s.Online, "load": s.Load, "hostname": s.Hostname,
		"busy": s.Busy, "cpu_model": s.CPUModel, "turbo": s.Turbo.On, "quota": s.Cgroup.Quota, "allowed": s.Allowed} {
		if f.Known() {
			t.Errorf("%s is known in an empty tree", name)
		}
	}
	if _, _, err := ChooseCPU(s); err == nil {
		t.Errorf("ChooseCPU on an empty tree: no error")
	}
	_ = Check(s, 0)
	if _, err := sysread.Read(context.Background(), filepath.Join(t.TempDir(), "missing"), sysread.ReadOptions{}); err == nil {
		t.Errorf("Read of a missing root: no error")
	}
}

// TestShortWindow reads a tree whose two reads of /proc/stat are one tick
// apart (a 5 ms window): cpu0 ran that tick, cpu1 had none. Nothing may be
// judged busy, idle or stolen from that; the findings say so instead.
func TestShortWindow(t *testing.T) {
	s, err := sysread.Read(context.Background(), machinetest.Dir("vm-short"), sysread.ReadOptions{Window: 5 * time.Millisecond, Runtime: machinetest.Runtime})
	if err != nil {
		t.Fatal(err)
	}
	busy, ok := s.Busy.Get()
	if !ok || len(busy) != 2 || busy[0].Judged() || busy[0].Busy.Value != 100 || busy[1].Busy.Known() {
		t.Fatalf("busy = %+v", s.Busy)
	}
	for cpu, want := range map[int][]string{
		0: {"info busy-unknown", "info cpu0", "info no-cpufreq", "info not-isolated", "info virtual-machine"},
		1: {"info busy-unknown", "info no-cpufreq", "info not-isolated", "info virtual-machine"},
	} {
		found := Check(s, cpu)
		if c := machinetest.Codes(found); !slices.Equal(c, want) {
			t.Errorf("Check(cpu%d) = %q, want %q", cpu, c, want)
		}
		for _, f := range found {
			if f.Code == "busy-unknown" && !strings.Contains(f.Message, "cannot be judged for cpu"+itoa(cpu)+" (") {
				t.Errorf("busy-unknown for cpu%d: %s", cpu, f.Message)
			}
		}
	}
	cpu, why, err := ChooseCPU(s)
	if err != nil || cpu != 1 || why != "not cpu0 (it takes more interrupts), no SMT sibling, itself busy unknown" {
		t.Errorf("ChooseCPU = %d, %q, %v", cpu, why, err)
	}
	// A coarse 100% on a sibling is no sibling-busy either.
	laptop := machinetest.Read(t, "laptop-hybrid", nil)
	laptop.Busy.Value[6].Ticks = machine.MinBusyTicks - 1
	if c := machinetest.Codes(Check(laptop, 7)); slices.Contains(c, "warn sibling-busy") || !slices.Contains(c, "info busy-unknown") {
		t.Errorf("sibling cpu6 at 91%% of %d ticks: %q", machine.MinBusyTicks-1, c)
	}
	laptop.Busy.Value[6].Ticks = machine.MinBusyTicks
	if c := machinetest.Codes(Check(laptop, 7)); !slices.Contains(c, "warn sibling-busy") || slices.Contains(c, "info busy-unknown") {
		t.Errorf("sibling cpu6 at 91%% of %d ticks: %q", machine.MinBusyTicks, c)
	}
}

// An idle cpu0 is better than a busy cpu1: cpu0 is avoided for its
// interrupts, never at the price of measuring beside another task.
func TestChooseIdleCPU0OverABusyCPU(t *testing.T) {
	s := machinetest.Read(t, "vm", nil)
	busy := s.Busy.Value
	for i := range busy {
		busy[i].Ticks = 100
		busy[i].Busy.Value = 1
		if busy[i].CPU == 1 {
			busy[i].Busy.Value = 60
		}
	}
	cs, err := RankCPUs(s)
	if err != nil || len(cs) != 2 || cs[0].CPU != 0 || cs[1].CPU != 1 {
		t.Fatalf("RankCPUs = %+v, %v; want cpu0 then cpu1", cs, err)
	}
	if !strings.Contains(cs[0].Why, "idle, where the others were busy") {
		t.Errorf("why %q does not say why cpu0", cs[0].Why)
	}
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
			s := machinetest.ReadProbed(t, "vm", &machinetest.Probe{NS: c.ns, Reason: c.reason}, c.busy)
			if c.allowed != nil {
				s.Allowed = machine.Known(c.allowed)
			}
			cpu, why, err := ChooseCPU(s)
			if err != nil || cpu != c.cpu || why != c.why {
				t.Errorf("ChooseCPU = cpu%d, %q, %v\nwant cpu%d, %q", cpu, why, err, c.cpu, c.why)
			}
		})
	}
}

// Without a probe (a fixture tree, an older file) the choice is the busy
// share's, as before, and says nothing of a speed it does not have.
func TestChooseWithoutProbe(t *testing.T) {
	s := machinetest.Read(t, "vm", nil)
	if cpu, why, err := ChooseCPU(s); err != nil || cpu != 1 || strings.Contains(why, "reference") {
		t.Errorf("ChooseCPU = cpu%d, %q, %v; want cpu1 by the busy share", cpu, why, err)
	}
}

// A CPU named with --cpu that ran the reference loop 1.1x slower than an
// idle CPU gets slow-cpu-chosen; the fastest does not, nor a slow CPU
// when the fast one is busy (no faster idle CPU could have been chosen).
func TestSlowCPUChosen(t *testing.T) {
	const slowCPU = "warn slow-cpu-chosen"
	s := machinetest.ReadProbed(t, "vm", &machinetest.Probe{NS: map[int]float64{0: 1.00, 1: 1.31}}, nil)
	if got := machinetest.Codes(Check(s, 1)); !slices.Contains(got, slowCPU) {
		t.Errorf("Check(cpu1) = %q, want %s", got, slowCPU)
	}
	want := "cpu1 ran the reference loop at 1.31 ns per iteration, 1.31x idle cpu0's 1.00 ns"
	if got := SlowWords(s, 1); got != want {
		t.Errorf("SlowWords(cpu1) = %q, want %q", got, want)
	}
	if got := machinetest.Codes(Check(s, 0)); slices.Contains(got, slowCPU) {
		t.Errorf("Check(cpu0), the fastest, = %q", got)
	}
	busy := machinetest.ReadProbed(t, "vm", &machinetest.Probe{NS: map[int]float64{0: 1.00, 1: 1.31}}, map[int]float64{0: 60})
	if got := machinetest.Codes(Check(busy, 1)); slices.Contains(got, slowCPU) || SlowWords(busy, 1) != "" {
		t.Errorf("Check(cpu1) with cpu0 busy = %q, %q; want no %s", got, SlowWords(busy, 1), slowCPU)
	}
}

// The probe runs on every available CPU, never on two SMT siblings at
// once (amd-desktop: cpu N and N+8 share a core), and only there (an
// isolated set narrows the choice, not the probe: server-2socket's
// allowed CPUs and its isolated ones).
func TestProbeBatches(t *testing.T) {
	for _, name := range []string{"amd-desktop", "server-2socket", "vm"} {
		t.Run(name, func(t *testing.T) {
			p := &machinetest.Probe{}
			s := machinetest.ReadProbed(t, name, p, nil)
			avail, err := s.Available()
			if err != nil {
				t.Fatal(err)
			}
			var all machine.CPUList
			for _, b := range p.Batches {
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
