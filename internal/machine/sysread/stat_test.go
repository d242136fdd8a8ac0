package sysread

import (
	"math"
	"testing"

	"github.com/benchy-dev/benchy/internal/machine"
)

const statBefore = `cpu  3180 29 1807 58548 1041 1072 123 200 0 0
cpu0 1773 26 1014 28662 678 702 25 120 0 0
cpu1 1407 3 793 29886 363 370 98 80 0 0
cpu2 100 0 100 1000 0 0 0 0 0 0
intr 575445 0 0 0
ctxt 855493
btime 1796043779
processes 16551
procs_running 5
procs_blocked 0
softirq 115483 0 16847 5 1434 19061 0 210 33579 0 44347
`

// 100 ticks later: cpu0 busy 9 (user 4, system 1, softirq 1, steal 3),
// iowait 1, idle 90; cpu1 guest time (already inside user) and iowait 4;
// cpu2's counters went backwards (offline and back); cpu3 appeared.
const statAfter = `cpu  3186 29 1809 58728 1046 1072 125 205 0 0
cpu0 1777 26 1015 28752 679 702 26 123 0 0
cpu1 1412 3 793 29976 367 370 98 80 3 0
cpu2 10 0 10 100 0 0 0 0 0 0
cpu3 10 0 10 100 0 0 0 0 0 0
ctxt 856000
`

// busyWant is a CPUBusy in ticks, for comparing with percentages.
type busyWant struct {
	cpu                 int
	busy, steal, iowait uint64
	ticks               uint64
	unknown             string // the reason, when the busy is unknown
	judged              bool
}

func checkBusyFacts(t *testing.T, got []machine.CPUBusy, want []busyWant) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("Busy = %+v, want %+v", got, want)
	}
	for i, w := range want {
		g := got[i]
		if w.unknown != "" {
			if g.CPU != w.cpu || g.Busy.Reason != w.unknown || g.Steal.Reason != w.unknown || g.IOWait.Reason != w.unknown || g.Judged() {
				t.Errorf("cpu%d: got %+v, want unknown: %s", w.cpu, g, w.unknown)
			}
			continue
		}
		pct := func(n uint64) float64 { return 100 * float64(n) / float64(w.ticks) }
		if g.CPU != w.cpu || g.Ticks != w.ticks || g.Judged() != w.judged || !g.Busy.Known() ||
			!near(g.Busy.Value, pct(w.busy)) || !near(g.Steal.Value, pct(w.steal)) || !near(g.IOWait.Value, pct(w.iowait)) {
			t.Errorf("cpu%d: got %+v, want %+v (in ticks)", w.cpu, g, w)
		}
	}
}

func TestBusy(t *testing.T) {
	before, err := parseStat([]byte(statBefore))
	if err != nil {
		t.Fatal(err)
	}
	after, err := parseStat([]byte(statAfter))
	if err != nil {
		t.Fatal(err)
	}
	checkBusyFacts(t, Busy(before, after), []busyWant{
		{cpu: 0, busy: 9, steal: 3, iowait: 1, ticks: 100, judged: true},
		{cpu: 1, busy: 5, steal: 0, iowait: 4, ticks: 99, judged: true},
		{cpu: 2, unknown: "its ticks went backwards (offline and back in the window)"},
		{cpu: 3, unknown: "not in the first read of /proc/stat (came online in the window)"},
	})
	// No tick between the reads: every CPU is there, with its busy unknown.
	none := "no tick between the two reads of /proc/stat"
	checkBusyFacts(t, Busy(after, after), []busyWant{{cpu: 0, unknown: none}, {cpu: 1, unknown: none}, {cpu: 2, unknown: none}, {cpu: 3, unknown: none}})
}

// TestBusyShortWindow: a window of a few ticks gives a figure that is
// reported but not judged, a CPU missing from the second read is unknown,
// and iowait going down (proc(5)) does not make a CPU unknown.
func TestBusyShortWindow(t *testing.T) {
	before, err := parseStat([]byte("cpu 0 0 0 0\n" +
		"cpu0 100 0 100 1000 50 0 0 0 0 0\n" +
		"cpu1 100 0 100 1000 50 0 0 0 0 0\n" +
		"cpu2 100 0 100 1000 50 0 0 0 0 0\n" +
		"cpu3 100 0 100 1000 50 0 0 0 0 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	after, err := parseStat([]byte("cpu 0 0 0 0\n" +
		"cpu0 101 0 100 1000 50 0 0 0 0 0\n" + // one tick, busy: 100%
		"cpu1 100 0 100 1003 48 0 0 0 0 0\n" + // iowait down 2, idle up 3: one idle tick
		"cpu3 120 0 110 1070 50 0 0 0 0 0\n")) // cpu2 went offline; cpu3 100 ticks
	if err != nil {
		t.Fatal(err)
	}
	checkBusyFacts(t, Busy(before, after), []busyWant{
		{cpu: 0, busy: 1, ticks: 1},
		{cpu: 1, busy: 0, iowait: 0, ticks: 1},
		{cpu: 2, unknown: "not in the second read of /proc/stat (went offline in the window)"},
		{cpu: 3, busy: 30, ticks: 100, judged: true},
	})
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestParseStat(t *testing.T) {
	st, err := parseStat([]byte(statBefore))
	if err != nil {
		t.Fatal(err)
	}
	if st.Ctxt != 855493 || len(st.CPUs) != 3 || st.Total.Steal != 200 || st.CPUs[1].SoftIRQ != 98 {
		t.Errorf("parseStat = %+v", st)
	}
	// The oldest format has 4 counters.
	old, err := parseStat([]byte("cpu 1 2 3 4\ncpu0 1 2 3 4\n"))
	if err != nil || old.CPUs[0].Idle != 4 {
		t.Errorf("4-counter format: %+v, %v", old, err)
	}
	for _, bad := range []string{
		"",
		"cpu0 1 2 3 4\n",            // no total line
		"cpu 1 2 3\n",               // too few counters
		"cpu 1 2 3 x\n",             // not a number
		"cpu 1 2 3 4\ncpuX 1 2 3 4", // bad cpu number
		"cpu 1 2 3 4\ncpu0 1 2 3 4\ncpu0 1 2 3 4\n",
		"cpu 1 2 3 4 5 6 7 8 9 10 11\n",
		"cpu 1 2 3 4\nctxt -1\n",
	} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) = nil error, want one", bad)
		}
	}
}

// FuzzParseStat: no panic; every CPU of either read has a busy, either
// unknown as a whole or with percentages within 0-100 that add up.
func FuzzParseStat(f *testing.F) {
	f.Add(statBefore, statAfter)
	f.Add("cpu 1 2 3 4\n", "cpu 1 2 3 4\ncpu0 9 9 9 9\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		sa, err1 := parseStat([]byte(a))
		sb, err2 := parseStat([]byte(b))
		if err1 != nil || err2 != nil {
			return
		}
		for _, c := range Busy(sa, sb) {
			if !c.Busy.Known() {
				if c.Steal.Known() || c.IOWait.Known() || c.Judged() {
					t.Fatalf("partly unknown: %+v", c)
				}
				continue
			}
			b, st, io := c.Busy.Value, c.Steal.Value, c.IOWait.Value
			if !(b >= 0 && b <= 100 && st >= 0 && st <= b+1e-9 && io >= 0 && io <= 100-b+1e-9) || c.Ticks == 0 ||
				c.Judged() != (c.Ticks >= machine.MinBusyTicks) {
				t.Fatalf("out of range: %+v", c)
			}
		}
		// Every CPU of either read has an entry.
		if n := len(Busy(sa, sb)); n < len(sa.CPUs) || n < len(sb.CPUs) {
			t.Fatalf("%d entries for %d and %d CPUs", n, len(sa.CPUs), len(sb.CPUs))
		}
	})
}
