package sysread

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// ReadOptions says how to read a snapshot.
type ReadOptions struct {
	// Live means the root is this process's own machine: the allowed CPUs
	// come from sched_getaffinity, the hostname from os.Hostname and the
	// kernel release from uname. Otherwise everything comes from the tree.
	Live bool
	// Window > 0 reads /proc/stat twice, Window apart, and fills Busy.
	// A fixture tree holds both reads: proc/stat and proc/stat.after; they
	// are read without waiting.
	Window time.Duration
	// Now gives the snapshot's time (default time.Now); tests fix it.
	Now func() time.Time
	// Runtime replaces this process's Go facts when not nil (golden tests).
	Runtime *machine.Runtime
	// Opened, when not nil, is a busy window opened earlier (OpenWindow),
	// so that benchy's own work (gotest's builds) runs while it is open:
	// its first read is the window's, which lasts at least Window from
	// then. Own is that work's CPU time on each CPU, taken out of each
	// CPU's busy; when Own fails, the opened window is dropped and the
	// busy read over a window of its own, as without Opened.
	Opened *Window
	Own    func() (map[int]time.Duration, error)
	// Probe, when not nil, times the reference loop on every available
	// CPU (Snapshot.Speed). It runs inside the window, after the window's
	// first read and before its second, so it adds no time to a run whose
	// window is still open, and what it measures is the CPUs as they are
	// then: after gotest's build, not beside it. Its own CPU time, on each
	// CPU, is taken out of the busy as benchy's own work, so the probe
	// never makes a CPU read busy. (Own, when set, already counts it: the
	// counters follow the threads benchy makes.)
	Probe SpeedProbe
}

// Window is the first read of a busy window opened ahead of the Read
// that closes it.
type Window struct {
	before Stat
	err    error
	start  time.Time
}

// OpenWindow takes the first read of a busy window now.
func OpenWindow(root string) *Window {
	before, err := ReadStat(root)
	return &Window{before: before, err: err, start: time.Now()}
}

// Read reads a snapshot of the machine under root. Facts that cannot be
// read are unknown with their reason; the error is only for a root that
// is not a readable directory. A cancelled ctx (Ctrl-C) ends the busy
// window at once; the busy is then unknown, "interrupted".
func Read(ctx context.Context, root string, opts ReadOptions) (*machine.Snapshot, error) {
	if fi, err := os.Stat(root); err != nil {
		return nil, err
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", root)
	}
	r := FS(root)
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	s := &machine.Snapshot{When: now().UTC(), Root: root, Live: opts.Live}
	if opts.Runtime != nil {
		s.Runtime = *opts.Runtime
	} else {
		s.Runtime = machine.Runtime{GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU()}
	}
	w := opts.Opened
	if w == nil && opts.Window > 0 {
		w = OpenWindow(root)
	}

	readIdentity(s, r, opts.Live)
	readCPUs(s, r, opts.Live)
	readLoad(s, r)
	readClockAndTurbo(s, r)

	var probed map[int]time.Duration
	if opts.Probe != nil {
		probed = probeSpeed(s, opts.Probe)
	}
	if opts.Window <= 0 {
		s.Busy = machine.Unknown[[]machine.CPUBusy]("not measured (window 0)")
		return s, nil
	}
	s.Busy, s.BusyWindow = w.close(ctx, r, opts)
	switch {
	case !s.Busy.Known():
	case opts.Opened != nil:
		takeOutOwn(s, ctx, r, opts)
	case opts.Probe != nil:
		subtractOwn(s, probed)
	}
	return s, nil
}

// close takes the second read of the window (readBusyAfter): the busy of
// every CPU since the first, and how long the window lasted.
func (w *Window) close(ctx context.Context, r FS, opts ReadOptions) (machine.Fact[[]machine.CPUBusy], time.Duration) {
	if w.err != nil {
		return machine.Unknown[[]machine.CPUBusy]("proc/stat: %s", why("proc/stat", w.err, "no proc/stat")), 0
	}
	return readBusyAfter(ctx, r, opts, w.before, w.start)
}

// MaxOpenedWindow is how many times the window an opened window may last
// (a cold build, two revisions with --against): beyond it the busy would
// be an average over minutes, in which a task that started a few seconds
// before the end weighs little, so it is read again over a window of its
// own.
const MaxOpenedWindow = 3

// takeOutOwn takes benchy's own work in an opened window out of every
// CPU's busy; when that work is not known, or the window lasted too long,
// it reads the busy again over a window of its own and says why.
func takeOutOwn(s *machine.Snapshot, ctx context.Context, r FS, opts ReadOptions) {
	var own map[int]time.Duration
	err := errors.New("not counted")
	if opts.Own != nil {
		own, err = opts.Own()
	}
	if err == nil && s.BusyWindow > MaxOpenedWindow*opts.Window {
		err = fmt.Errorf("the build took %s, more than %d times the window", units.Window(s.BusyWindow), MaxOpenedWindow)
	}
	if err != nil {
		s.BusyNote = fmt.Sprintf("read after the build: %v", err)
		s.Busy, s.BusyWindow = OpenWindow(s.Root).close(ctx, r, opts)
		return
	}
	subtractOwn(s, own)
}

// subtractOwn takes own, benchy's own CPU time on each CPU in the window,
// out of every CPU's busy (CPUBusy.less) and adds it to BusyOwn.
func subtractOwn(s *machine.Snapshot, own map[int]time.Duration) {
	busy, _ := s.Busy.Get()
	out := make([]machine.CPUBusy, len(busy))
	for i, b := range busy {
		out[i] = less(b, own[b.CPU])
		if out[i].Own > 0 {
			s.BusyOwn += own[b.CPU]
		}
	}
	s.Busy = machine.Known(out)
}

// readBusyAfter takes the second read of the window: proc/stat again
// after the window on this machine, and on a tree without the second read
// (a live machine's /proc mounted elsewhere, as node exporters read a
// host's); else the tree's proc/stat.after, without waiting.
func readBusyAfter(ctx context.Context, r FS, opts ReadOptions, before Stat, start time.Time) (machine.Fact[[]machine.CPUBusy], time.Duration) {
	name := "proc/stat.after"
	live := opts.Live || !r.exists(name)
	if live {
		t := time.NewTimer(opts.Window - time.Since(start))
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return machine.Unknown[[]machine.CPUBusy]("interrupted before the end of the window"), 0
		}
		name = "proc/stat"
	}
	b, err := r.read(name)
	window := opts.Window
	if live {
		window = time.Since(start)
	}
	if err != nil {
		return machine.Unknown[[]machine.CPUBusy]("%s", why(name, err, "no "+name+" (the second read of the window) in the tree")), 0
	}
	after, err := parseStat(b)
	if err != nil {
		return machine.Unknown[[]machine.CPUBusy]("%v", err), 0
	}
	return machine.Known(Busy(before, after)), window
}

func readIdentity(s *machine.Snapshot, r FS, live bool) {
	if live {
		if h, err := os.Hostname(); err != nil {
			s.Hostname = machine.Unknown[string]("%v", err)
		} else {
			s.Hostname = machine.Known(h)
		}
		s.Kernel = liveKernel()
	} else {
		s.Hostname = r.stringFact("proc/sys/kernel/hostname", "")
		s.Kernel = r.stringFact("proc/sys/kernel/osrelease", "")
	}
	if m, err := memTotal(r); err != nil {
		s.MemTotal = machine.Unknown[int64]("%s", why("proc/meminfo", err, ""))
	} else {
		s.MemTotal = machine.Known(m)
	}
	s.CPUBrand = readCPUBrand(r, live)
	b, err := r.read("proc/cpuinfo")
	if err != nil {
		reason := why("proc/cpuinfo", err, "")
		s.CPUModel, s.Hypervisor = machine.Unknown[string]("%s", reason), machine.Unknown[bool]("%s", reason)
		return
	}
	ci, err := parseCPUInfo(b)
	if err != nil {
		s.CPUModel, s.Hypervisor = machine.Unknown[string]("%v", err), machine.Unknown[bool]("%v", err)
		return
	}
	if m, ok := ci.models(); ok {
		s.CPUModel = machine.Known(m)
	} else {
		s.CPUModel = machine.Unknown[string]("no model name or CPU part in /proc/cpuinfo")
	}
	s.Hypervisor = ci.hypervisor()
}

func readCPUs(s *machine.Snapshot, r FS, live bool) {
	s.Online = r.listFact(cpuDir+"/online", "")
	s.Possible = r.listFact(cpuDir+"/possible", "")
	s.Isolated = r.listFact(cpuDir+"/isolated", "no isolated file: kernel older than 4.2")
	s.NohzFull = readNohzFull(r)
	if live {
		s.Allowed, s.AllowedFrom = AllowedCPUs(), "sched_getaffinity"
	} else {
		s.Allowed, s.AllowedFrom = statusAllowed(r), "proc/self/status"
	}
	s.Cgroup = readCgroup(r)

	cpus, ok := s.Online.Get()
	if !ok {
		if d, err := listCPUDirs(r); err == nil && len(d) > 0 {
			cpus = d
		}
	}
	noFreq := "no cpufreq in /sys: virtual machine or container, or no cpufreq driver"
	if hv, _ := s.Hypervisor.Get(); hv {
		noFreq = "no cpufreq in /sys: virtual machine, the host sets the frequency"
	}
	s.CPUs = make([]machine.CPU, 0, len(cpus))
	for _, c := range cpus {
		s.CPUs = append(s.CPUs, readCPU(r, c, noFreq))
	}
	setCoreTypes(r, s.CPUs)
}

// statusAllowed reads Cpus_allowed_list (or the Cpus_allowed mask) from
// proc/self/status.
func statusAllowed(r FS) machine.Fact[machine.CPUList] {
	b, err := r.read("proc/self/status")
	if err != nil {
		return machine.Unknown[machine.CPUList]("%s", why("proc/self/status", err, ""))
	}
	fields := parseStatusFields(b)
	if v, ok := fields["Cpus_allowed_list"]; ok {
		l, err := machine.ParseCPUList(v)
		if err != nil {
			return machine.Unknown[machine.CPUList]("proc/self/status Cpus_allowed_list: %v", err)
		}
		return machine.Known(machine.CPUList(l))
	}
	if v, ok := fields["Cpus_allowed"]; ok {
		l, err := parseHexMask([]byte(v))
		if err != nil {
			return machine.Unknown[machine.CPUList]("proc/self/status Cpus_allowed: %v", err)
		}
		return machine.Known(machine.CPUList(l))
	}
	return machine.Unknown[machine.CPUList]("no Cpus_allowed_list in proc/self/status")
}

// parseStatusFields splits "Key:\tvalue" lines; other lines are skipped.
func parseStatusFields(b []byte) map[string]string {
	m := map[string]string{}
	for line := range strings.SplitSeq(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			m[k] = strings.TrimSpace(v)
		}
	}
	return m
}

// readNohzFull reads the nohz_full CPUs. Kernels before 6.x print "(null)"
// when the boot line has no nohz_full=: that is no CPU, not garbage.
func readNohzFull(r FS) machine.Fact[machine.CPUList] {
	const name = cpuDir + "/nohz_full"
	if s, err := r.readString(name); err == nil && s == "(null)" {
		return machine.Known(machine.CPUList{})
	}
	return r.listFact(name, "no nohz_full file: kernel built without CONFIG_NO_HZ_FULL")
}
