package sysread

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
)

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
		s, err := Read(context.Background(), root, ReadOptions{Window: time.Second, Opened: opened, Own: own})
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
