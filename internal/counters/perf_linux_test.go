package counters

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/result"
)

// fakeOpen scripts perf_event_open: fail maps an event's config and
// whether kernel counting was asked for to an errno.
type fakeOpen struct {
	fail   func(attr *unix.PerfEventAttr) error
	leader []int
	nextFd int
}

func (f *fakeOpen) open(attr *unix.PerfEventAttr, pid, cpu, groupFd, flags int) (int, error) {
	if pid != 0 || cpu != -1 {
		return -1, unix.EINVAL
	}
	if err := f.fail(attr); err != nil {
		return -1, err
	}
	f.nextFd++
	f.leader = append(f.leader, groupFd)
	return 100 + f.nextFd, nil
}

func userOnly(attr *unix.PerfEventAttr) bool { return attr.Bits&unix.PerfBitExcludeKernel != 0 }

func TestOpenGroupScripted(t *testing.T) {
	hw := func(config uint64) func(*unix.PerfEventAttr) bool {
		return func(a *unix.PerfEventAttr) bool { return a.Type == unix.PERF_TYPE_HARDWARE && a.Config == config }
	}
	tests := []struct {
		name      string
		events    []event
		hardware  bool
		fail      func(*unix.PerfEventAttr) error
		opened    []string
		leaders   []int // groupFd passed to each successful open
		reasons   map[string]string
		notes     int
		wantGroup bool
	}{
		{
			name: "no PMU", events: hardwareEvents, hardware: true,
			fail: func(*unix.PerfEventAttr) error { return unix.ENOENT },
			reasons: map[string]string{
				result.CounterCycles: "no hardware PMU: ENOENT", result.CounterInstructions: "no hardware PMU: ENOENT",
				result.CounterRefCycles: "no hardware PMU: ENOENT", BusCycles: "no hardware PMU: ENOENT",
				result.CounterBranchMisses: "no hardware PMU: ENOENT",
			},
		},
		{
			name: "all hardware", events: hardwareEvents, hardware: true,
			fail:    func(*unix.PerfEventAttr) error { return nil },
			opened:  []string{result.CounterCycles, result.CounterInstructions, result.CounterRefCycles, result.CounterBranchMisses},
			leaders: []int{-1, 101, 101, 101}, wantGroup: true,
		},
		{
			name: "no ref-cycles: bus-cycles instead", events: hardwareEvents, hardware: true,
			fail: func(a *unix.PerfEventAttr) error {
				if hw(unix.PERF_COUNT_HW_REF_CPU_CYCLES)(a) {
					return unix.EOPNOTSUPP
				}
				return nil
			},
			opened:    []string{result.CounterCycles, result.CounterInstructions, BusCycles, result.CounterBranchMisses},
			leaders:   []int{-1, 101, 101, 101},
			reasons:   map[string]string{result.CounterRefCycles: "not supported by the PMU: EOPNOTSUPP"},
			wantGroup: true,
		},
		{
			name: "leader fails, the next event leads", events: hardwareEvents, hardware: true,
			fail: func(a *unix.PerfEventAttr) error {
				if hw(unix.PERF_COUNT_HW_CPU_CYCLES)(a) {
					return unix.ENOENT
				}
				return nil
			},
			opened:    []string{result.CounterInstructions, result.CounterRefCycles, result.CounterBranchMisses},
			leaders:   []int{-1, 101, 101},
			reasons:   map[string]string{result.CounterCycles: "no hardware PMU: ENOENT"},
			wantGroup: true,
		},
		{
			name: "paranoid 2: hardware counts user space only", events: hardwareEvents, hardware: true,
			fail: func(a *unix.PerfEventAttr) error {
				if !userOnly(a) {
					return unix.EACCES
				}
				return nil
			},
			opened:  []string{result.CounterCycles, result.CounterInstructions, result.CounterRefCycles, result.CounterBranchMisses},
			leaders: []int{-1, 101, 101, 101}, notes: 4, wantGroup: true,
		},
		{
			name: "software forbidden", events: softwareEvents,
			fail: func(*unix.PerfEventAttr) error { return unix.EACCES },
			reasons: map[string]string{
				result.CounterTaskClock: "perf_event_paranoid=2: EACCES", result.CounterContextSwitches: "perf_event_paranoid=2: EACCES",
				result.CounterMigrations: "perf_event_paranoid=2: EACCES", result.CounterPageFaults: "perf_event_paranoid=2: EACCES",
			},
		},
		{
			name: "software events", events: softwareEvents,
			fail:    func(*unix.PerfEventAttr) error { return nil },
			opened:  []string{result.CounterTaskClock, result.CounterContextSwitches, result.CounterMigrations, result.CounterPageFaults},
			leaders: []int{-1, 101, 101, 101}, wantGroup: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeOpen{fail: tt.fail}
			var rep result.CounterReport
			g := openGroup(f.open, tt.events, tt.hardware, "2", &rep)
			if (g != nil) != tt.wantGroup {
				t.Fatalf("group = %v, want a group: %v", g, tt.wantGroup)
			}
			if !slices.Equal(rep.Opened, tt.opened) {
				t.Errorf("opened %v, want %v", rep.Opened, tt.opened)
			}
			if !slices.Equal(f.leader, tt.leaders) {
				t.Errorf("group fds passed %v, want %v", f.leader, tt.leaders)
			}
			if len(rep.Unavailable)+len(tt.reasons) > 0 && !reflect.DeepEqual(rep.Unavailable, tt.reasons) {
				t.Errorf("unavailable %v, want %v", rep.Unavailable, tt.reasons)
			}
			if len(rep.Notes) != tt.notes {
				t.Errorf("notes %v, want %d", rep.Notes, tt.notes)
			}
			if g != nil && (!slices.Equal(g.names, tt.opened) || g.times != tt.hardware) {
				t.Errorf("group names %v times %v", g.names, g.times)
			}
		})
	}
}

func TestReason(t *testing.T) {
	tests := []struct {
		err      error
		hardware bool
		want     string
	}{
		{unix.ENOENT, true, "no hardware PMU: ENOENT"},
		{unix.ENOENT, false, "event not in this kernel: ENOENT"},
		{unix.EACCES, true, "perf_event_paranoid=3: EACCES"},
		{unix.EPERM, false, "perf_event_paranoid=3 or a seccomp filter: EPERM"},
		{unix.ENOSYS, false, "perf_event_open not in this kernel: ENOSYS"},
		{unix.EINVAL, true, "invalid argument: EINVAL"},
		{errors.New("odd"), true, "odd"},
	}
	for _, tt := range tests {
		if got := PerfReason(tt.err, tt.hardware, "3"); got != tt.want {
			t.Errorf("PerfReason(%v, %v) = %q, want %q", tt.err, tt.hardware, got, tt.want)
		}
	}
}

func TestReadParanoid(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if got := readParanoid(write("ok", "2\n")); got != "2" {
		t.Errorf("got %q", got)
	}
	if got := readParanoid(write("garbage", "lots")); !strings.HasPrefix(got, "unknown (") {
		t.Errorf("garbage: got %q", got)
	}
	if got := readParanoid(filepath.Join(dir, "absent")); !strings.HasPrefix(got, "unknown (") {
		t.Errorf("absent: got %q", got)
	}
}
