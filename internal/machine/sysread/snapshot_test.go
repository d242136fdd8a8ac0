package sysread

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
)

var fixedRuntime = &machine.Runtime{GoVersion: "go1.26.0", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 4, NumCPU: 4}

func readFixture(t testing.TB, name string) *machine.Snapshot {
	t.Helper()
	s, err := Read(context.Background(), filepath.Join("../../../testdata/machines", name), ReadOptions{
		Window:  time.Second,
		Now:     func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
		Runtime: fixedRuntime,
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func codes(fs []finding.Finding) []string {
	var c []string
	for _, f := range fs {
		c = append(c, f.Severity.String()+" "+f.Code)
	}
	slices.Sort(c)
	return c
}

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
			s := readFixture(t, tt.machine)
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
			cpu, why, err := machine.ChooseCPU(s)
			if err != nil || cpu != tt.cpu || why != tt.why {
				t.Errorf("ChooseCPU = %d, %q, %v; want %d, %q", cpu, why, err, tt.cpu, tt.why)
			}
			if err := machine.ValidateCPU(s, tt.cpu); err != nil {
				t.Errorf("ValidateCPU(%d) = %v", tt.cpu, err)
			}
			if c := codes(machine.Check(s, tt.cpu)); !slices.Equal(c, tt.findings) {
				t.Errorf("Check(cpu%d) = %q, want %q", tt.cpu, c, tt.findings)
			}
		})
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestCheckCodes covers the findings no chosen CPU of the fixtures gets.
func TestCheckCodes(t *testing.T) {
	laptop := readFixture(t, "laptop-hybrid")
	arm := readFixture(t, "arm-biglittle")
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
		if c := codes(machine.Check(tt.s, tt.cpu)); !slices.Contains(c, tt.want) {
			t.Errorf("%s: Check(cpu%d) = %q, want %q in it", tt.name, tt.cpu, c, tt.want)
		}
	}
	// Thresholds: load above LoadPerCPU per CPU; a quota under one CPU is an error.
	s := readFixture(t, "arm-biglittle")
	s.Load.Value.Load1 = machine.LoadPerCPU*6 + 0.01
	s.Cgroup.Quota.Value = machine.Quota{Limited: true, CPUs: 0.5, QuotaUs: 50000, PeriodUs: 100000, From: "cpu.max"}
	c := codes(machine.Check(s, 4))
	if !slices.Contains(c, "warn load") || !slices.Contains(c, "error cgroup-quota") {
		t.Errorf("load %.2f on 6 CPUs, quota 0.5: %q", s.Load.Value.Load1, c)
	}
	s.Load.Value.Load1 = machine.LoadPerCPU * 6
	if c := codes(machine.Check(s, 4)); slices.Contains(c, "warn load") {
		t.Errorf("load exactly %.1f per CPU must not warn: %q", machine.LoadPerCPU, c)
	}
	// Steal on other CPUs only is info.
	s = readFixture(t, "vm")
	busy := s.Busy.Value
	busy[1].Steal = machine.Known(0.0)
	if c := codes(machine.Check(s, 1)); !slices.Contains(c, "info steal") {
		t.Errorf("steal on cpu0 only, target cpu1: %q", c)
	}
}

func TestValidateCPU(t *testing.T) {
	vm := readFixture(t, "vm")
	if err := machine.ValidateCPU(vm, 7); err == nil || err.Error() != "cpu 7 is not available: online 0-1, allowed to this process 0-1" {
		t.Errorf("ValidateCPU(vm, 7) = %v", err)
	}
	server := readFixture(t, "server-2socket")
	// Isolated CPUs are out of the affinity mask but may be pinned to.
	if err := machine.ValidateCPU(server, 18); err != nil {
		t.Errorf("ValidateCPU(server, 18) = %v", err)
	}
	if err := machine.ValidateCPU(server, 32); err == nil || err.Error() != "cpu 32 is not available: online 0-31, allowed to this process 0-1,4-17,20-31, isolated 2-3,18-19" {
		t.Errorf("ValidateCPU(server, 32) = %v", err)
	}
}

// TestEmptyTree: a root with nothing in it gives unknown facts with
// reasons, never zeros, and the header and checks still work.
func TestEmptyTree(t *testing.T) {
	s, err := Read(context.Background(), t.TempDir(), ReadOptions{Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]interface{ Known() bool }{"online": s.Online, "load": s.Load, "hostname": s.Hostname,
		"busy": s.Busy, "cpu_model": s.CPUModel, "turbo": s.Turbo.On, "quota": s.Cgroup.Quota, "allowed": s.Allowed} {
		if f.Known() {
			t.Errorf("%s is known in an empty tree", name)
		}
	}
	if _, _, err := machine.ChooseCPU(s); err == nil {
		t.Errorf("ChooseCPU on an empty tree: no error")
	}
	_ = machine.Check(s, 0)
	if _, err := Read(context.Background(), filepath.Join(t.TempDir(), "missing"), ReadOptions{}); err == nil {
		t.Errorf("Read of a missing root: no error")
	}
}

// TestJSONRoundTrip: a snapshot written and read back writes the same JSON,
// and unknown facts are "unknown: <reason>" strings.
func TestJSONRoundTrip(t *testing.T) {
	for _, m := range []string{"vm", "laptop-hybrid", "arm-biglittle"} {
		s := readFixture(t, m)
		b1, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back machine.Snapshot
		if err := json.Unmarshal(b1, &back); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		b2, _ := json.Marshal(&back)
		if !bytes.Equal(b1, b2) {
			t.Errorf("%s: JSON changes on a round trip:\n%s\n%s", m, b1, b2)
		}
	}
	s := readFixture(t, "vm")
	b, _ := json.Marshal(s.CPUs[0])
	if !strings.Contains(string(b), `"scaling_governor":"unknown: no cpufreq in /sys: virtual machine, the host sets the frequency"`) {
		t.Errorf("unknown governor in JSON: %s", b)
	}
}

// TestBusyCoarseAndUnknown: a CPU with too few ticks has a busy that is
// not judged, one with none or missing from a read is unknown and says
// why; no CPU is left out.
func TestBusyCoarseAndUnknown(t *testing.T) {
	before, _ := parseStat([]byte("cpu 0 0 0 0\ncpu0 10 0 0 10\ncpu1 10 0 0 10\ncpu2 10 0 0 10\ncpu3 10 0 0 10\ncpu4 10 0 0 10\n"))
	after, _ := parseStat([]byte("cpu 0 0 0 0\ncpu0 11 0 0 10\ncpu1 10 0 0 12\ncpu2 10 0 0 10\ncpu4 40 0 0 80\ncpu5 1 0 0 1\n"))
	var got []string
	for _, c := range Busy(before, after) {
		got = append(got, fmt.Sprintf("cpu%d %v %d judged=%v", c.CPU, c.Busy, c.Ticks, c.Judged()))
	}
	want := []string{
		"cpu0 100 1 judged=false",
		"cpu1 0 2 judged=false",
		"cpu2 unknown: no tick between the two reads of /proc/stat 0 judged=false",
		"cpu3 unknown: not in the second read of /proc/stat (went offline in the window) 0 judged=false",
		"cpu4 30 100 judged=true",
		"cpu5 unknown: not in the first read of /proc/stat (came online in the window) 0 judged=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("busy:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestShortWindow reads a tree whose two reads of /proc/stat are one tick
// apart (a 5 ms window): cpu0 ran that tick, cpu1 had none. Nothing may be
// judged busy, idle or stolen from that; the findings say so instead.
func TestShortWindow(t *testing.T) {
	s, err := Read(context.Background(), "../../../testdata/machines/vm-short", ReadOptions{Window: 5 * time.Millisecond, Runtime: fixedRuntime})
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
		found := machine.Check(s, cpu)
		if c := codes(found); !slices.Equal(c, want) {
			t.Errorf("Check(cpu%d) = %q, want %q", cpu, c, want)
		}
		for _, f := range found {
			if f.Code == "busy-unknown" && !strings.Contains(f.Message, "cannot be judged for cpu"+itoa(cpu)+" (") {
				t.Errorf("busy-unknown for cpu%d: %s", cpu, f.Message)
			}
		}
	}
	cpu, why, err := machine.ChooseCPU(s)
	if err != nil || cpu != 1 || why != "not cpu0 (it takes more interrupts), no SMT sibling, itself busy unknown" {
		t.Errorf("ChooseCPU = %d, %q, %v", cpu, why, err)
	}
	// A coarse 100% on a sibling is no sibling-busy either.
	laptop := readFixture(t, "laptop-hybrid")
	laptop.Busy.Value[6].Ticks = machine.MinBusyTicks - 1
	if c := codes(machine.Check(laptop, 7)); slices.Contains(c, "warn sibling-busy") || !slices.Contains(c, "info busy-unknown") {
		t.Errorf("sibling cpu6 at 91%% of %d ticks: %q", machine.MinBusyTicks-1, c)
	}
	laptop.Busy.Value[6].Ticks = machine.MinBusyTicks
	if c := codes(machine.Check(laptop, 7)); !slices.Contains(c, "warn sibling-busy") || slices.Contains(c, "info busy-unknown") {
		t.Errorf("sibling cpu6 at 91%% of %d ticks: %q", machine.MinBusyTicks, c)
	}
}

func TestValidateRoot(t *testing.T) {
	for _, m := range []string{"vm", "laptop-hybrid"} {
		if err := ValidateRoot(filepath.Join("../../../testdata/machines", m)); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
	dir := t.TempDir()
	err := ValidateRoot(dir)
	if err == nil || err.Error() != dir+" is not the /proc and /sys of a machine: it has neither proc/stat nor sys/devices/system/cpu" {
		t.Errorf("ValidateRoot(empty) = %v", err)
	}
	os.MkdirAll(filepath.Join(dir, "sys/devices/system/cpu"), 0o755)
	if err := ValidateRoot(dir); err != nil {
		t.Errorf("ValidateRoot(only sys) = %v", err)
	}
}

func TestReadCurFreqKHz(t *testing.T) {
	root := "../../../testdata/machines/"
	if khz, err := ReadCurFreqKHz(root+"laptop-hybrid", 2); err != nil || khz != 3288160 {
		t.Errorf("laptop cpu2 = %d, %v; want 3288160", khz, err)
	}
	if _, err := ReadCurFreqKHz(root+"vm", 1); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("vm cpu1 (no cpufreq) = %v, want not exist", err)
	}
	if _, err := ReadCurFreqKHz(root+"laptop-hybrid", -1); err == nil {
		t.Errorf("cpu -1: no error")
	}
}

func TestParseKHz(t *testing.T) {
	if v, err := parseKHz([]byte("3288160\n")); err != nil || v != 3288160 {
		t.Errorf("parseKHz = %d, %v", v, err)
	}
	for _, bad := range []string{"", "0", "-1", "x", "1.5", "100000001", "3288160 kHz", "<unknown>"} {
		if _, err := parseKHz([]byte(bad)); err == nil {
			t.Errorf("parseKHz(%q) = nil error, want one", bad)
		}
	}
}

func FuzzParseKHz(f *testing.F) {
	f.Add("3288160\n")
	f.Add("<unknown>")
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := parseKHz([]byte(s)); err == nil && (v <= 0 || v > maxKHz) {
			t.Fatalf("%q: accepted %d", s, v)
		}
	})
}

// BenchmarkRead is the cost of one snapshot of this machine without the
// busy window: what `benchy run` pays before and after measuring.
func BenchmarkRead(b *testing.B) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		b.Skip("no /proc on this system")
	}
	for b.Loop() {
		if _, err := Read(context.Background(), "/", ReadOptions{Live: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadServer is the same on the largest fixture (32 CPUs with
// cpufreq and thermal files: about 400 files).
func BenchmarkReadServer(b *testing.B) {
	for b.Loop() {
		if _, err := Read(context.Background(), "../../../testdata/machines/server-2socket", ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// An idle cpu0 is better than a busy cpu1: cpu0 is avoided for its
// interrupts, never at the price of measuring beside another task.
func TestChooseIdleCPU0OverABusyCPU(t *testing.T) {
	s := readFixture(t, "vm")
	busy := s.Busy.Value
	for i := range busy {
		busy[i].Ticks = 100
		busy[i].Busy.Value = 1
		if busy[i].CPU == 1 {
			busy[i].Busy.Value = 60
		}
	}
	cs, err := machine.RankCPUs(s)
	if err != nil || len(cs) != 2 || cs[0].CPU != 0 || cs[1].CPU != 1 {
		t.Fatalf("RankCPUs = %+v, %v; want cpu0 then cpu1", cs, err)
	}
	if !strings.Contains(cs[0].Why, "idle, where the others were busy") {
		t.Errorf("why %q does not say why cpu0", cs[0].Why)
	}
}

// A snapshot written before MemTotal was recorded reads it as unknown,
// not as a machine with no memory; the vm fixture's meminfo is read.
func TestMemTotal(t *testing.T) {
	if got := readFixture(t, "vm").MemTotal; got.String() != "8326705152" {
		t.Errorf("vm MemTotal %v, want 8326705152", got)
	}
	var old machine.Snapshot
	if err := json.Unmarshal([]byte(`{"cpu_model": "AMD EPYC"}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.MemTotal.Known() || !strings.Contains(old.MemTotal.String(), "not recorded") {
		t.Errorf("old snapshot MemTotal %v, want unknown: not recorded", old.MemTotal)
	}
	// The brand too: a brand of "" would read as a CPU without a name.
	if old.CPUBrand.Reason != machine.NotRecorded {
		t.Errorf("old snapshot CPUBrand %v, want unknown: %s", old.CPUBrand, machine.NotRecorded)
	}
}

// A window opened ahead (benchy gotest builds while it is open) has the
// build's CPU time taken out of each CPU's busy, never below the steal;
// when that time is not known, the busy is read over a window of its own
// (the tree's two reads). The opened window's first read is vm's
// proc/stat with 100 more ticks of user time to come on cpu1: over it
// cpu0 is 9% busy (3% steal, 100 ticks) and cpu1 53% (1% steal, 200
// ticks); over the tree's own two reads, 9% and 6%.
func TestOpenedWindowTakesOutOwnWork(t *testing.T) {
	root := "../../../testdata/machines/vm"
	b, err := os.ReadFile(filepath.Join(root, "proc/stat"))
	if err != nil {
		t.Fatal(err)
	}
	first, err := parseStat([]byte(strings.Replace(string(b), "cpu1 1407 ", "cpu1 1307 ", 1)))
	if err != nil {
		t.Fatal(err)
	}
	read := func(own func() (map[int]time.Duration, error)) *machine.Snapshot {
		t.Helper()
		opened := &Window{before: first, start: time.Now()}
		s, err := Read(context.Background(), root, ReadOptions{Window: time.Second, Runtime: fixedRuntime, Opened: opened, Own: own})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	busy := func(s *machine.Snapshot) (pcts, owns []float64) {
		bs, ok := s.Busy.Get()
		if !ok {
			t.Fatalf("busy unknown: %v", s.Busy)
		}
		for _, b := range bs {
			v, _ := b.Busy.Get()
			pcts, owns = append(pcts, math.Round(v*100)/100), append(owns, math.Round(b.Own*100)/100)
		}
		return pcts, owns
	}
	ms := time.Millisecond
	for _, c := range []struct {
		name       string
		own        func() (map[int]time.Duration, error)
		busy, owns []float64
		total      time.Duration
		note       string
	}{
		// cpu0: 40 ms of 100 ticks less 3% steal is 3.88%; cpu1: 600 ms
		// of 200 ticks less 1% steal, 29.7%.
		{"a build on both", func() (map[int]time.Duration, error) {
			return map[int]time.Duration{0: 40 * ms, 1: 600 * ms}, nil
		}, []float64{5.12, 23.3}, []float64{3.88, 29.7}, 640 * ms, ""},
		{"more than the busy", func() (map[int]time.Duration, error) {
			return map[int]time.Duration{1: 1500 * ms}, nil
		}, []float64{9, 1}, []float64{0, 74.25}, 1500 * ms, ""},
		{"not counted", func() (map[int]time.Duration, error) { return nil, errors.New("perf refused") },
			[]float64{9, 6}, []float64{0, 0}, 0, "read after the build: perf refused"},
		{"no Own", nil, []float64{9, 6}, []float64{0, 0}, 0, "read after the build: not counted"},
	} {
		s := read(c.own)
		pcts, owns := busy(s)
		if !slices.Equal(pcts, c.busy) || !slices.Equal(owns, c.owns) || s.BusyOwn != c.total || s.BusyNote != c.note {
			t.Errorf("%s: busy %v, own %v, total %v, note %q; want %v, %v, %v, %q", c.name, pcts, owns, s.BusyOwn, s.BusyNote, c.busy, c.owns, c.total, c.note)
		}
	}
}
