package harness

import (
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/benchy-dev/benchy/internal/cpulock"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
)

// The speed probe (sysread.SpeedProbe) times the reference loop on every
// CPU a run may choose, inside the busy window, so that the choice can
// tell a core the host slows from a free one.
const (
	// speedRepeats is how many times the probe times the reference loop
	// on each CPU; the best of the repeats' medians is the CPU's speed.
	// Each repeat's median already ignores pieces another task cut into;
	// the best of five also ignores a repeat such a task took whole. A
	// core the host slows for minutes is slow in all five.
	speedRepeats = 5
	// speedRepeat is how long one repeat lasts (about ten pieces): with
	// the calibration, about 6 ms of CPU on each CPU.
	speedRepeat = time.Millisecond
)

// ProbeSpeeds is the sysread.SpeedProbe of this process: the CPUs of each
// batch at once, each on a thread of its own pinned there, one batch after
// another; at most GOMAXPROCS threads at a time, so no probe waits for the
// Go scheduler with its clock running. A CPU that cannot be pinned, or
// that another benchy measures on (its lock is held), has an unknown
// speed, with the reason.
func ProbeSpeeds(batches []machine.CPUList) []machine.CPUSpeed {
	return ProbeSpeedsHolding()(batches)
}

// ProbeSpeedsHolding is ProbeSpeeds for a process that holds the locks of
// own itself (it measures there, between its experiments): those CPUs are
// probed too.
func ProbeSpeedsHolding(own ...int) sysread.SpeedProbe {
	return func(batches []machine.CPUList) []machine.CPUSpeed {
		var out []machine.CPUSpeed
		for _, b := range batches {
			for c := range slices.Chunk(b, max(1, runtime.GOMAXPROCS(0))) {
				out = append(out, probeAtOnce(c, own)...)
			}
		}
		slices.SortFunc(out, func(a, b machine.CPUSpeed) int { return a.CPU - b.CPU })
		return out
	}
}

// probeAtOnce probes cpus in parallel, one pinned thread each; own are
// the CPUs whose locks this process holds.
func probeAtOnce(cpus []int, own []int) []machine.CPUSpeed {
	out := make([]machine.CPUSpeed, len(cpus))
	var wg sync.WaitGroup
	for i, cpu := range cpus {
		wg.Go(func() { out[i] = probeOne(cpu, !slices.Contains(own, cpu) && cpulock.Held(cpu)) })
	}
	wg.Wait()
	return out
}

// measuredElsewhere is why a CPU's speed is unknown when another benchy
// holds its lock (cpulock): spinning there would disturb the samples that
// process takes, which the lock exists to prevent.
const measuredElsewhere = "another benchy measures there"

// probeOne times the reference loop speedRepeats times on cpu, and
// counts the CPU time it took there; a CPU another benchy measures on
// (held) is left alone.
func probeOne(cpu int, held bool) machine.CPUSpeed {
	sp := machine.CPUSpeed{CPU: cpu}
	if held {
		sp.RefNs = machine.Unknown[float64]("%s", measuredElsewhere)
		return sp
	}
	err := Pinned(cpu, false, func() error {
		start := threadCPU()
		n := referenceIters()
		for range speedRepeats {
			sp.RepeatsNs = append(sp.RepeatsNs, referenceMedian(n, speedRepeat))
		}
		sp.Own = threadCPU() - start
		return nil
	})
	if err != nil {
		sp.RefNs = machine.Unknown[float64]("%v", err)
		return sp
	}
	sp.RefNs = machine.Known(slices.Min(sp.RepeatsNs))
	return sp
}
