package harness

import (
	"runtime"
	"testing"

	"github.com/benchy-dev/benchy/internal/cpulock"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
)

// ProbeSpeeds gives every CPU asked for one entry, in CPU order: a time
// per iteration with its repeats and the CPU time it took, or, for a CPU
// that cannot be pinned (one past the last), why not.
func TestProbeSpeeds(t *testing.T) {
	if !CanPin {
		t.Skip("pinning needs Linux")
	}
	privateLocks(t) // another benchy on this machine must not hold these
	cpu, err := CurrentCPU()
	if err != nil {
		t.Fatal(err)
	}
	missing := max(runtime.NumCPU(), cpu+1)
	got := ProbeSpeeds([]machine.CPUList{{missing}, {cpu}})
	if len(got) != 2 || got[0].CPU != cpu || got[1].CPU != missing {
		t.Fatalf("ProbeSpeeds = %+v, want cpu%d then cpu%d", got, cpu, missing)
	}
	if v, ok := got[0].RefNs.Get(); !ok || !(v > 0) || len(got[0].RepeatsNs) != speedRepeats || got[0].Own <= 0 {
		t.Errorf("cpu%d: %+v, want a time per iteration, %d repeats and the CPU time taken", cpu, got[0], speedRepeats)
	}
	if got[1].RefNs.Known() || got[1].RefNs.Reason == "" {
		t.Errorf("cpu%d, which does not exist: %+v, want unknown with the reason", missing, got[1])
	}
}

// privateLocks points the CPU locks at a directory of the test's own.
func privateLocks(t *testing.T) {
	t.Helper()
	oldRuntime, oldTemp := cpulock.RuntimeDir, cpulock.TempDir
	t.Cleanup(func() { cpulock.RuntimeDir, cpulock.TempDir = oldRuntime, oldTemp })
	cpulock.RuntimeDir, cpulock.TempDir = "", t.TempDir()
}

// A CPU whose lock another benchy holds is not probed: spinning there
// would disturb its samples. Its speed is unknown, with the reason, and
// no CPU time was taken there; a free CPU beside it is probed.
func TestProbeSpeedsSkipsLockedCPU(t *testing.T) {
	if !CanPin {
		t.Skip("pinning needs Linux")
	}
	privateLocks(t)
	cpus, ok := sysread.AllowedCPUs().Get()
	if !ok || len(cpus) < 2 {
		t.Skip("needs two allowed CPUs")
	}
	locked, free := cpus[0], cpus[1]
	l, held, err := cpulock.TryLock(locked)
	if l == nil {
		t.Fatalf("TryLock(%d): held %v, %v", locked, held, err)
	}
	defer l.Release()
	got := ProbeSpeeds([]machine.CPUList{{locked, free}})
	if len(got) != 2 || got[0].CPU != locked || got[1].CPU != free {
		t.Fatalf("ProbeSpeeds = %+v, want cpu%d then cpu%d", got, locked, free)
	}
	if sp := got[0]; sp.RefNs.Known() || sp.RefNs.Reason != measuredElsewhere || sp.RepeatsNs != nil || sp.Own != 0 {
		t.Errorf("locked cpu%d: %+v, want unknown: %s, not probed", locked, sp, measuredElsewhere)
	}
	if _, ok := got[1].RefNs.Get(); !ok || len(got[1].RepeatsNs) != speedRepeats {
		t.Errorf("free cpu%d: %+v, want probed", free, got[1])
	}
}

// BenchmarkProbeSpeeds is the wall time of the probe over this process's
// CPUs, one batch (what it adds to a run whose busy window is shorter).
func BenchmarkProbeSpeeds(b *testing.B) {
	if !CanPin {
		b.Skip("pinning needs Linux")
	}
	cpus, ok := sysread.AllowedCPUs().Get()
	if !ok {
		b.Skip("allowed CPUs unknown")
	}
	for b.Loop() {
		ProbeSpeeds([]machine.CPUList{cpus})
	}
}
