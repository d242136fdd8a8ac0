//go:build !linux

package counters

import "github.com/benchy-dev/benchy/internal/result"

// Open reports every counter unavailable: perf_event_open,
// getrusage(RUSAGE_THREAD) and /proc/thread-self are Linux's.
func Open() (Source, result.CounterReport) {
	rep := result.CounterReport{Opened: []string{}, Unavailable: map[string]string{}}
	for _, name := range []string{
		result.CounterTaskClock, result.CounterContextSwitches, result.CounterMigrations,
		result.CounterPageFaults, result.CounterCycles, result.CounterInstructions,
		result.CounterRefCycles, result.CounterBranchMisses, result.CounterVoluntaryCS,
		result.CounterInvoluntaryCS, result.CounterMinorFaults, result.CounterNrMigrations, result.CounterThreadCPU,
	} {
		rep.Unavailable[name] = "per-thread counters need Linux"
	}
	return none{}, rep
}

type none struct{}

func (none) Read() (map[string]int64, error) { return map[string]int64{}, nil }
func (none) Close() error                    { return nil }
