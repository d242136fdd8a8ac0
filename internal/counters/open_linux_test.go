package counters

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/result"
)

// onLockedThread runs f on a goroutine locked to its own OS thread, as the
// harness runs the measured loop.
func onLockedThread(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		f()
	}()
	<-done
}

// allNames are every counter Open tries.
var allNames = []string{
	result.CounterTaskClock, result.CounterContextSwitches, result.CounterMigrations,
	result.CounterPageFaults, result.CounterCycles, result.CounterInstructions,
	result.CounterRefCycles, result.CounterBranchMisses, result.CounterVoluntaryCS,
	result.CounterInvoluntaryCS, result.CounterMinorFaults, result.CounterNrMigrations,
}

// perfForbidden reports whether every software event failed for lack of
// permission or of the syscall itself, as in a locked-down container.
func perfForbidden(rep result.CounterReport) (string, bool) {
	for _, e := range softwareEvents {
		r, ok := rep.Unavailable[e.name]
		if !ok || !(strings.Contains(r, "EACCES") || strings.Contains(r, "EPERM") || strings.Contains(r, "ENOSYS")) {
			return "", false
		}
	}
	return rep.Unavailable[result.CounterTaskClock], true
}

// TestOpenHere opens the real counters on this machine. Every counter must
// be either opened or unavailable with a reason; the fallbacks always open;
// the software events open unless perf_event_open is forbidden outright;
// and a reading holds exactly the opened counters.
func TestOpenHere(t *testing.T) {
	onLockedThread(t, func() {
		s, rep := Open()
		defer s.Close()
		js, _ := json.Marshal(rep)
		t.Logf("report: %s", js)

		for _, name := range allNames {
			_, missing := rep.Unavailable[name]
			if opened := slices.Contains(rep.Opened, name); opened == missing {
				t.Errorf("%s: opened %v, unavailable %v; want exactly one", name, opened, missing)
			}
		}
		for name, why := range rep.Unavailable {
			if why == "" {
				t.Errorf("%s unavailable with no reason", name)
			}
		}
		if _, ok := rep.Unavailable[result.CounterRefCycles]; ok {
			_, busOpen := rep.Unavailable[BusCycles]
			if busOpen == slices.Contains(rep.Opened, BusCycles) {
				t.Errorf("ref-cycles unavailable but bus-cycles neither tried nor opened: %+v", rep)
			}
		}
		for _, name := range []string{result.CounterVoluntaryCS, result.CounterInvoluntaryCS, result.CounterMinorFaults} {
			if !slices.Contains(rep.Opened, name) {
				t.Errorf("fallback %s not opened: %s", name, rep.Unavailable[name])
			}
		}
		if why, forbidden := perfForbidden(rep); !forbidden {
			for _, e := range softwareEvents {
				if !slices.Contains(rep.Opened, e.name) {
					t.Errorf("software event %s not opened: %s", e.name, rep.Unavailable[e.name])
				}
			}
		} else {
			t.Logf("perf_event_open forbidden here (%s); software events not checked", why)
		}

		r, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(rep.Opened)
		if slices.ContainsFunc(want, func(n string) bool { return hardware[n] }) {
			want = append(want, HardwareEnabled, HardwareRunning)
		}
		slices.Sort(want)
		if got := slices.Sorted(func(yield func(string) bool) {
			for k := range r {
				if !yield(k) {
					return
				}
			}
		}); !slices.Equal(got, want) {
			t.Errorf("reading has %v, want %v", got, want)
		}
	})
}

// TestOpenNoHardwarePMU checks what this VM (and most VMs) gives: no
// hardware events, each with the reason, and the software ones counting.
func TestOpenNoHardwarePMU(t *testing.T) {
	onLockedThread(t, func() {
		s, rep := Open()
		defer s.Close()
		if _, forbidden := perfForbidden(rep); forbidden {
			t.Skip("perf_event_open is forbidden here")
		}
		if slices.Contains(rep.Opened, result.CounterCycles) {
			t.Skip("this machine has a hardware PMU")
		}
		for _, e := range hardwareEvents {
			if rep.Unavailable[e.name] == "" {
				t.Errorf("%s: no reason given", e.name)
			}
		}
		if !slices.Contains(rep.Opened, result.CounterTaskClock) {
			t.Errorf("software events did not survive the hardware failure: %+v", rep)
		}
		if _, err := s.Read(); err != nil {
			t.Error(err)
		}
	})
}

// TestSleepCountsVoluntarySwitches sleeps inside a window: a thread that
// sleeps leaves the CPU of its own accord, so the voluntary-switch counters
// must grow. This checks the counters count this thread, not their size.
func TestSleepCountsVoluntarySwitches(t *testing.T) {
	onLockedThread(t, func() {
		s, rep := Open()
		defer s.Close()
		before, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			unix.Nanosleep(&unix.Timespec{Nsec: 1_000_000}, nil)
		}
		after, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		d := Delta(before, after)
		t.Logf("delta: %v", d)
		if d[result.CounterVoluntaryCS] < 1 {
			t.Errorf("voluntary-cs = %d after three sleeps", d[result.CounterVoluntaryCS])
		}
		if slices.Contains(rep.Opened, result.CounterContextSwitches) && d[result.CounterContextSwitches] < 1 {
			t.Errorf("context-switches = %d after three sleeps", d[result.CounterContextSwitches])
		}
		if slices.Contains(rep.Opened, result.CounterTaskClock) && d[result.CounterTaskClock] <= 0 {
			t.Errorf("task-clock = %d: the thread ran, so it must be > 0", d[result.CounterTaskClock])
		}
	})
}

// TestReadOnOtherThread: the counts are of the opening thread, so a Read
// from any other thread would pair this thread's rusage with that one's.
func TestReadOnOtherThread(t *testing.T) {
	opened := make(chan Source)
	release := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		s, _ := Open()
		opened <- s
		<-release // keep this thread locked, so the reader gets another one
		s.Close()
	}()
	s := <-opened
	defer close(release)
	onLockedThread(t, func() {
		if _, err := s.Read(); err == nil || !strings.Contains(err.Error(), "opened on thread") {
			t.Errorf("Read on another thread: err = %v", err)
		}
	})
}

// TestOpenPerfForbiddenEverywhere: with perf_event_open refused and no
// sched file, Open still gives the getrusage counts and the thread's CPU
// clock in place of task-clock, and says why the rest are missing.
func TestOpenPerfForbiddenEverywhere(t *testing.T) {
	dir := t.TempDir()
	paranoid := filepath.Join(dir, "perf_event_paranoid")
	if err := os.WriteFile(paranoid, []byte("3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	onLockedThread(t, func() {
		refuse := func(*unix.PerfEventAttr, int, int, int, int) (int, error) { return -1, unix.EACCES }
		s, rep := open(refuse, paranoid, filepath.Join(dir, "no-sched"), filepath.Join(dir, "no-schedstat"))
		defer s.Close()
		want := []string{result.CounterVoluntaryCS, result.CounterInvoluntaryCS, result.CounterMinorFaults, result.CounterThreadCPU}
		if !slices.Equal(rep.Opened, want) {
			t.Errorf("opened %v, want %v", rep.Opened, want)
		}
		if got := rep.Unavailable[result.CounterCycles]; got != "perf_event_paranoid=3: EACCES" {
			t.Errorf("cycles: %q", got)
		}
		if got := rep.Unavailable[result.CounterNrMigrations]; !strings.Contains(got, "no-sched") {
			t.Errorf("nr-migrations: %q does not name the file", got)
		}
		if got := rep.Unavailable[result.CounterRunDelay]; !strings.Contains(got, "no-schedstat") {
			t.Errorf("run-delay-ns: %q does not name the file", got)
		}
		r, err := s.Read()
		if err != nil || len(r) != len(want) {
			t.Errorf("Read = %v, %v", r, err)
		}
	})
	onLockedThread(t, func() {
		refuse := func(*unix.PerfEventAttr, int, int, int, int) (int, error) { return -1, unix.EPERM }
		s, rep := open(refuse, paranoid, "/proc/thread-self/sched", "/proc/thread-self/schedstat")
		defer s.Close()
		if _, err := os.Stat("/proc/thread-self/sched"); err != nil {
			t.Skipf("no sched file here: %v", err)
		}
		if !slices.Contains(rep.Opened, result.CounterNrMigrations) {
			t.Errorf("nr-migrations not opened as the fallback for cpu-migrations: %s", rep.Unavailable[result.CounterNrMigrations])
		}
		if r, err := s.Read(); err != nil || r[result.CounterNrMigrations] < 0 {
			t.Errorf("Read = %v, %v", r, err)
		}
	})
}

// TestOpenRunDelay: the run delay is read from the thread's schedstat, and
// grows while the thread waits for a CPU another thread holds.
func TestOpenRunDelay(t *testing.T) {
	if _, err := os.Stat("/proc/thread-self/schedstat"); err != nil {
		t.Skipf("no schedstat file here: %v", err)
	}
	onLockedThread(t, func() {
		s, rep := Open()
		defer s.Close()
		if !slices.Contains(rep.Opened, result.CounterRunDelay) {
			t.Skipf("run-delay-ns not opened: %s", rep.Unavailable[result.CounterRunDelay])
		}
		a, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.Read()
		if err != nil {
			t.Fatal(err)
		}
		if d := b[result.CounterRunDelay] - a[result.CounterRunDelay]; d < 0 {
			t.Errorf("run delay went back by %d ns between two reads", -d)
		}
	})
}

func TestReportJSON(t *testing.T) {
	rep := result.CounterReport{Opened: []string{result.CounterTaskClock}, Unavailable: map[string]string{result.CounterCycles: "no hardware PMU: ENOENT"}}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"opened":["task-clock"],"unavailable":{"cycles":"no hardware PMU: ENOENT"}}`; string(b) != want {
		t.Errorf("json %s, want %s", b, want)
	}
	var back result.CounterReport
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, rep) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}

// BenchmarkRead is the cost of one reading, paid twice per sample outside
// the timed region.
func BenchmarkRead(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s, _ := Open()
	defer s.Close()
	for b.Loop() {
		if _, err := s.Read(); err != nil {
			b.Fatal(err)
		}
	}
}
