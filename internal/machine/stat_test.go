package machine

import (
	"math"
	"testing"
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

func TestBusy(t *testing.T) {
	before, err := parseStat([]byte(statBefore))
	if err != nil {
		t.Fatal(err)
	}
	after, err := parseStat([]byte(statAfter))
	if err != nil {
		t.Fatal(err)
	}
	got := Busy(before, after)
	want := []CPUBusy{
		{CPU: 0, Busy: 9, Steal: 3, IOWait: 1, Ticks: 100},
		{CPU: 1, Busy: 5, Steal: 0, IOWait: 4, Ticks: 99},
	}
	if len(got) != len(want) {
		t.Fatalf("Busy = %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.CPU != w.CPU || g.Ticks != w.Ticks || !near(g.Busy, 100*w.Busy/float64(w.Ticks)) ||
			!near(g.Steal, 100*w.Steal/float64(w.Ticks)) || !near(g.IOWait, 100*w.IOWait/float64(w.Ticks)) {
			t.Errorf("cpu%d: got %+v, want %+v (percent of %d ticks)", w.CPU, g, w, w.Ticks)
		}
	}
	if b := Busy(after, after); len(b) != 0 {
		t.Errorf("Busy with no tick between the reads = %+v, want none (unknown)", b)
	}
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

// FuzzParseStat: no panic; busy of a read against itself is empty and
// percentages are within 0-100 against any other read.
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
			if !(c.Busy >= 0 && c.Busy <= 100 && c.Steal >= 0 && c.Steal <= c.Busy+1e-9 && c.IOWait >= 0 && c.IOWait <= 100) || c.Ticks == 0 {
				t.Fatalf("out of range: %+v", c)
			}
		}
	})
}
