package render

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/fit"
	"github.com/benchy-dev/benchy/internal/machine/machinetest"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
)

// The machine header's tests read the fixture machines of
// testdata/machines (machinetest); `benchy machine`'s golden files there
// hold the whole header of each (internal/cli).

func header(t *testing.T, s *machine.Snapshot, cpu int) string {
	t.Helper()
	var b bytes.Buffer
	if err := machineHeader(&b, s, cpu); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Every fixture's header starts with the load, then the chosen CPU, then
// the busy grid; an empty tree's says what it could not read.
func TestMachineHeader(t *testing.T) {
	for _, m := range []string{"laptop-hybrid", "amd-desktop", "arm-biglittle", "server-2socket", "vm"} {
		s := machinetest.Read(t, m, nil)
		cpu, _, err := fit.ChooseCPU(s)
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		lines := strings.Split(header(t, s, cpu), "\n")
		if !strings.HasPrefix(lines[0], "load average ") || !strings.HasPrefix(lines[1], "cpu"+strconv.Itoa(cpu)+": ") ||
			lines[2] != "busy CPUs over 1s:" {
			t.Errorf("%s: header starts:\n%s", m, strings.Join(lines[:3], "\n"))
		}
	}
	empty, err := sysread.Read(context.Background(), t.TempDir(), sysread.ReadOptions{Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if h := header(t, empty, 0); !strings.Contains(h, "load average unknown: no proc/loadavg") {
		t.Errorf("header of an empty tree:\n%s", h)
	}
}

// TestHeaderFacts: an unknown cgroup is said once, and the Go facts of
// this process are not shown as the tree's.
func TestHeaderFacts(t *testing.T) {
	s, err := sysread.Read(context.Background(), t.TempDir(), sysread.ReadOptions{Runtime: machinetest.Runtime})
	if err != nil {
		t.Fatal(err)
	}
	h := header(t, s, 1)
	if !strings.Contains(h, "\ncgroup unknown: no proc/self/cgroup: kernel without cgroups\n") || strings.Count(h, "proc/self/cgroup") != 1 {
		t.Errorf("unknown cgroup in the header:\n%s", h)
	}
	vm := machinetest.Read(t, "vm", nil)
	h = header(t, vm, 1)
	if !strings.Contains(h, "\nhost vm, kernel 6.18.44-fc-v857, at 2026-11-30T12:00:00Z\n"+
		"this process (not the tree): go1.26.0 linux/amd64, GOMAXPROCS 4, NumCPU 4\n") {
		t.Errorf("runtime of a tree:\n%s", h)
	}
	vm.Live = true
	if h := header(t, vm, 1); !strings.Contains(h, "\nhost vm, kernel 6.18.44-fc-v857, go1.26.0 linux/amd64, GOMAXPROCS 4, NumCPU 4, at 2026-11-30T12:00:00Z\n") ||
		strings.Contains(h, "not the tree") {
		t.Errorf("runtime of a live machine:\n%s", h)
	}
	vm.Cgroup.Version, vm.Cgroup.Path = machine.Known[int64](1), machine.Unknown[string]("no cpu controller in proc/self/cgroup")
	if h := header(t, vm, 1); !strings.Contains(h, "\ncgroup v1 path unknown: no cpu controller in proc/self/cgroup, cpuset 0-1, ") {
		t.Errorf("cgroup v1 without a path:\n%s", h)
	}
}

// The header names the brand only where it tells the reader something.
func TestBrandWords(t *testing.T) {
	for _, tt := range []struct {
		model, brand machine.Fact[string]
		want         string
	}{
		{machine.Known("AMD EPYC"), machine.Known("Oxide Virtual Turin-like Processor   "), " (go test: Oxide Virtual Turin-like Processor)"},
		{machine.Known("AMD EPYC 7B13"), machine.Known("AMD EPYC 7B13"), ""},
		{machine.Known("AMD EPYC"), machine.Unknown[string]("read on the live machine only"), ""},
		{machine.Unknown[string]("no proc/cpuinfo"), machine.Known("POWER9"), " (go test: POWER9)"},
	} {
		s := &machine.Snapshot{CPUModel: tt.model, CPUBrand: tt.brand}
		if got := brandWords(s); got != tt.want {
			t.Errorf("model %v, brand %v: %q, want %q", tt.model, tt.brand, got, tt.want)
		}
	}
}

// The -v header shows every CPU's speed, marks the slow ones and says why
// a CPU has none.
func TestSpeedLines(t *testing.T) {
	s := machinetest.ReadProbed(t, "vm", &machinetest.Probe{NS: map[int]float64{0: 1.00, 1: 1.31}}, nil)
	var b strings.Builder
	writeSpeed(s, &b)
	want := "reference loop in the window (ns per iteration, best of the repeats):\n" +
		"cpu0  1.00  cpu1 1.31!\n" +
		"! at least 1.1x the fastest idle CPU\n"
	if b.String() != want {
		t.Errorf("writeSpeed:\n%s\nwant:\n%s", b.String(), want)
	}
	s = machinetest.ReadProbed(t, "vm", &machinetest.Probe{NS: map[int]float64{0: 1.00}, Reason: "pin failed"}, nil)
	b.Reset()
	writeSpeed(s, &b)
	if !strings.Contains(b.String(), "cpu1     ?\n? cpu1: unknown: pin failed\n") {
		t.Errorf("writeSpeed with a failed CPU:\n%s", b.String())
	}
}

func TestBusyGrid(t *testing.T) {
	var busy []machine.CPUBusy
	for c := range 10 {
		busy = append(busy, machine.CPUBusy{CPU: c, Busy: machine.Known(float64(c * 11)), Ticks: 100})
	}
	var b bytes.Buffer
	if err := busyGrid(&b, busy); err != nil {
		t.Fatal(err)
	}
	// Six to a row: 70 columns, within an 80-column terminal.
	want := "cpu0    0%  cpu1   11%  cpu2   22%  cpu3   33%  cpu4   44%  cpu5   55%\n" +
		"cpu6   66%  cpu7   77%  cpu8   88%  cpu9   99%\n"
	if b.String() != want {
		t.Errorf("grid:\n%s\nwant:\n%s", b.String(), want)
	}
}

// Figures from too few ticks are marked "~" and unknown ones "?", both
// explained under the grid; no CPU is left out.
func TestBusyGridCoarse(t *testing.T) {
	unknown := func(why string) machine.Fact[float64] { return machine.Unknown[float64]("%s", why) }
	busy := []machine.CPUBusy{
		{CPU: 0, Busy: machine.Known(100.0), Ticks: 1},
		{CPU: 1, Busy: machine.Known(0.0), Ticks: 2},
		{CPU: 2, Busy: unknown("no tick between the two reads of /proc/stat")},
		{CPU: 3, Busy: unknown("not in the second read of /proc/stat (went offline in the window)")},
		{CPU: 4, Busy: machine.Known(30.0), Ticks: 100},
		{CPU: 5, Busy: unknown("not in the first read of /proc/stat (came online in the window)")},
	}
	var b bytes.Buffer
	if err := busyGrid(&b, busy); err != nil {
		t.Fatal(err)
	}
	want := "cpu0 ~100%  cpu1   ~0%  cpu2     ?  cpu3     ?  cpu4   30%  cpu5     ?\n" +
		"~ cpu0-1: 1 to 2 ticks, fewer than the 50 (500ms) it takes to judge busy\n" +
		"? cpu2: unknown: no tick between the two reads of /proc/stat\n" +
		"? cpu3: unknown: not in the second read of /proc/stat (went offline in the window)\n" +
		"? cpu5: unknown: not in the first read of /proc/stat (came online in the window)\n"
	if b.String() != want {
		t.Errorf("grid:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := busyGrid(&b, nil); err != nil || b.String() != "unknown: no cpuN line in /proc/stat\n" {
		t.Errorf("empty grid: %q, %v", b.String(), err)
	}
}

func TestFindingsOrderBySeverity(t *testing.T) {
	var b bytes.Buffer
	fs := []finding.Finding{{Code: "i", Severity: finding.Info, Message: "x"}, {Code: "e", Severity: finding.Error, Message: "y"}, {Code: "w", Severity: finding.Warn, Message: "z"}}
	if err := writeFindings(&b, fs); err != nil {
		t.Fatal(err)
	}
	want := "  error e: y\n  warn  w: z\n  info  i: x\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
