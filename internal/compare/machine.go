package compare

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
)

// Difference is one fact of the machine or the settings that differs
// between two results and can explain a change of time on its own.
type Difference struct {
	What string `json:"what"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// Thresholds of the measured differences: below them two runs count as
// alike. A load average differs when it moved by a whole CPU's worth of
// runnable tasks; an effective clock when it moved by more than the
// default threshold of a verdict (a 2% slower clock is a 2% slower op).
const (
	loadDiff  = 1.0
	clockDiff = DefaultThreshold
)

// Differences lists, in a fixed order, every difference between the runs
// that can explain a change: the machine (host, CPU model, kernel,
// hypervisor, SMT), the binary (benchy version, Go version), the measured
// CPU's setup (governor, turbo, frequency limits, core type, effective
// clock), what else ran (load, environment findings), and how benchy ran
// (GOMAXPROCS, pinned CPU, samples, sample time, warm-up, iterations, gc,
// isolation, smoke, interrupted). A fact unknown on both sides is no
// difference; unknown on one side is (the other side cannot vouch for it).
func Differences(old, cur *result.Result) []Difference {
	var ds []Difference
	add := func(what, a, b string) {
		if a == b || (unknown(a) && unknown(b)) {
			return
		}
		ds = append(ds, Difference{What: what, Old: a, New: b})
	}
	so, sn := old.Before, cur.Before
	add("host", snap(so, func(s *machine.Snapshot) string { return s.Hostname.String() }),
		snap(sn, func(s *machine.Snapshot) string { return s.Hostname.String() }))
	add("CPU model", cpuModel(old), cpuModel(cur))
	add("kernel", snap(so, func(s *machine.Snapshot) string { return s.Kernel.String() }),
		snap(sn, func(s *machine.Snapshot) string { return s.Kernel.String() }))
	add("virtual machine", snap(so, func(s *machine.Snapshot) string { return s.Hypervisor.String() }),
		snap(sn, func(s *machine.Snapshot) string { return s.Hypervisor.String() }))
	add("SMT active", snap(so, func(s *machine.Snapshot) string { return s.SMTActive.String() }),
		snap(sn, func(s *machine.Snapshot) string { return s.SMTActive.String() }))
	add("benchy", orUnknown(old.Tool), orUnknown(cur.Tool))
	add("Go version", orUnknown(old.GoVersion), orUnknown(cur.GoVersion))
	add("governor", governor(old), governor(cur))
	add("turbo", snap(so, func(s *machine.Snapshot) string { return s.Turbo.On.String() }),
		snap(sn, func(s *machine.Snapshot) string { return s.Turbo.On.String() }))
	add("max frequency", maxFreq(old), maxFreq(cur))
	add("frequency limits", freqLimits(old), freqLimits(cur))
	add("core type", coreType(old), coreType(cur))
	if a, b := clockHz(old), clockHz(cur); a > 0 && b > 0 && math.Abs(b/a-1) > clockDiff {
		add("effective clock", units.Hz(a), units.Hz(b))
	}
	if a, b := load1(old), load1(cur); !math.IsNaN(a) && !math.IsNaN(b) && math.Abs(a-b) >= loadDiff {
		add("load average (1 min)", strconv.FormatFloat(a, 'f', 2, 64), strconv.FormatFloat(b, 'f', 2, 64))
	}
	add("environment warnings", envCodes(old), envCodes(cur))
	add("GOMAXPROCS", strconv.Itoa(old.GOMAXPROCS), strconv.Itoa(cur.GOMAXPROCS))
	add("pinned CPU", strconv.Itoa(old.CPU), strconv.Itoa(cur.CPU))
	so2, sn2 := old.Settings, cur.Settings
	add("samples", strconv.Itoa(so2.Samples), strconv.Itoa(sn2.Samples))
	add("sample time", so2.SampleTime.String(), sn2.SampleTime.String())
	add("warm-up", so2.Warmup.String(), sn2.Warmup.String())
	add("iterations per sample", iters(so2.Iters), iters(sn2.Iters))
	add("gc during samples", onOff(so2.GC), onOff(sn2.GC))
	add("other threads kept off the CPU", onOff(so2.Isolate), onOff(sn2.Isolate))
	add("smoke run (numbers not to be trusted)", yesNo(so2.Smoke), yesNo(sn2.Smoke))
	add("interrupted", yesNo(old.Interrupted), yesNo(cur.Interrupted))
	return ds
}

func unknown(s string) bool { return strings.HasPrefix(s, "unknown") }

const noSnapshot = "unknown: the result holds no snapshot"

// snap reads a fact from a snapshot that may be missing.
func snap(s *machine.Snapshot, get func(*machine.Snapshot) string) string {
	if s == nil {
		return noSnapshot
	}
	return get(s)
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown: not recorded"
	}
	return s
}

func cpuModel(r *result.Result) string {
	if r.CPUModel != "" {
		return r.CPUModel
	}
	return snap(r.Before, func(s *machine.Snapshot) string { return s.CPUModel.String() })
}

// pinnedCPU is the snapshot's entry of the CPU the run was pinned to.
func pinnedCPU(r *result.Result) (machine.CPU, string) {
	if r.Before == nil {
		return machine.CPU{}, noSnapshot
	}
	i := slices.IndexFunc(r.Before.CPUs, func(c machine.CPU) bool { return c.CPU == r.CPU })
	if i < 0 {
		return machine.CPU{}, fmt.Sprintf("unknown: cpu%d not in the snapshot", r.CPU)
	}
	return r.Before.CPUs[i], ""
}

func governor(r *result.Result) string {
	if r.Governor != "" {
		return r.Governor
	}
	c, why := pinnedCPU(r)
	if why != "" {
		return why
	}
	return c.Governor.String()
}

func maxFreq(r *result.Result) string {
	if r.MaxFreqHz > 0 {
		return units.Hz(r.MaxFreqHz)
	}
	if unknown(r.MaxFreqSource) {
		return r.MaxFreqSource
	}
	return "unknown: not recorded"
}

// freqLimits is the scaling range the governor may choose from on the
// pinned CPU, "min-max kHz".
func freqLimits(r *result.Result) string {
	c, why := pinnedCPU(r)
	if why != "" {
		return why
	}
	lo, ok1 := c.MinFreqKHz.Get()
	hi, ok2 := c.MaxFreqKHz.Get()
	switch {
	case !ok1:
		return c.MinFreqKHz.String()
	case !ok2:
		return c.MaxFreqKHz.String()
	}
	return units.Hz(float64(lo)*1e3) + " to " + units.Hz(float64(hi)*1e3)
}

func coreType(r *result.Result) string {
	c, why := pinnedCPU(r)
	if why != "" {
		return why
	}
	return c.CoreType.String()
}

// clockHz is the mean of the effective clock before and after, 0 when
// unknown.
func clockHz(r *result.Result) float64 {
	a, b := r.EffectiveClock.BeforeHz, r.EffectiveClock.AfterHz
	switch {
	case a > 0 && b > 0:
		return (a + b) / 2
	case a > 0:
		return a
	}
	return b
}

func load1(r *result.Result) float64 {
	if r.Before == nil {
		return math.NaN()
	}
	l, ok := r.Before.Load.Get()
	if !ok {
		return math.NaN()
	}
	return l.Load1
}

// envCodes lists the codes of the warn and error environment findings:
// what the machine checks saw that can slow the measured CPU.
func envCodes(r *result.Result) string {
	var codes []string
	for _, f := range r.Environment {
		if f.Severity >= finding.Warn && !slices.Contains(codes, f.Code) {
			codes = append(codes, f.Code)
		}
	}
	if len(codes) == 0 {
		return "none"
	}
	slices.Sort(codes)
	return strings.Join(codes, ", ")
}

func iters(n int64) string {
	if n == 0 {
		return "calibrated"
	}
	return strconv.FormatInt(n, 10)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
