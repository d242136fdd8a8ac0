// Package counters reads per-thread event counts (cycles, instructions,
// context switches, migrations, faults) on the measured thread, so each
// sample can say what happened to the thread while it was timed, and it
// measures the effective clock of the CPU with a chain of dependent adds.
//
// Counts come from perf_event_open where the kernel allows it, and always
// from getrusage(RUSAGE_THREAD) and /proc/thread-self/sched, which need no
// privilege and no PMU. Every event that cannot be opened is named in the
// Report with the reason, so "not counted" is never mistaken for zero.
package counters

import "github.com/benchy-dev/benchy/internal/result"

// Source reads the current cumulative counts of one thread, by event name
// (the harness.Counter* names, plus HardwareEnabled and HardwareRunning
// when hardware events are open). Read it before and after a sample, on the
// thread it was opened on, and take the difference with Delta.
type Source interface {
	Read() (map[string]int64, error)
	Close() error
}

// BusCycles is the fallback for result.CounterRefCycles on PMUs without a
// reference-cycle event. It counts a different clock (the bus clock), so
// it keeps its own name.
const BusCycles = "bus-cycles"

// HardwareEnabled and HardwareRunning are the ns the hardware group was
// enabled and actually on the PMU while the thread ran. They differ when the
// kernel multiplexed the counters (more events than the PMU has counters):
// the hardware counts then cover only part of the window.
const (
	HardwareEnabled = "hw-enabled-ns"
	HardwareRunning = "hw-running-ns"
)

// hardware lists the names whose counts come from the hardware group.
var hardware = map[string]bool{
	result.CounterCycles:       true,
	result.CounterInstructions: true,
	result.CounterRefCycles:    true,
	BusCycles:                  true,
	result.CounterBranchMisses: true,
}

// Delta returns after-before for every counter present in both readings.
// A counter that went backwards is left out (counters only grow, so the
// readings are not of one counter). When the hardware group was not on the
// PMU for the whole window (HardwareRunning grew less than
// HardwareEnabled), the hardware counts are left out too, because they
// cover only part of the window; the two times stay as the evidence.
// Readings without the two times (e.g. from a Fake) are taken as complete.
func Delta(before, after map[string]int64) map[string]int64 {
	d := make(map[string]int64, len(after))
	for k, a := range after {
		b, ok := before[k]
		if !ok || a < b {
			continue
		}
		d[k] = a - b
	}
	en, okEn := d[HardwareEnabled]
	run, okRun := d[HardwareRunning]
	if okEn && okRun && run != en {
		for k := range d {
			if hardware[k] {
				delete(d, k)
			}
		}
	}
	return d
}
