package harness

import (
	"runtime"
	"testing"

	"github.com/benchy-dev/benchy/internal/machine"
)

// ProbeSpeeds gives every CPU asked for one entry, in CPU order: a time
// per iteration with its repeats and the CPU time it took, or, for a CPU
// that cannot be pinned (one past the last), why not.
func TestProbeSpeeds(t *testing.T) {
	if !CanPin {
		t.Skip("pinning needs Linux")
	}
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

// BenchmarkProbeSpeeds is the wall time of the probe over this process's
// CPUs, one batch (what it adds to a run whose busy window is shorter).
func BenchmarkProbeSpeeds(b *testing.B) {
	if !CanPin {
		b.Skip("pinning needs Linux")
	}
	cpus, ok := machine.AllowedCPUs().Get()
	if !ok {
		b.Skip("allowed CPUs unknown")
	}
	for b.Loop() {
		ProbeSpeeds([]machine.CPUList{cpus})
	}
}
