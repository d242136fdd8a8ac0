//go:build !linux

package counters

import "github.com/benchy-dev/benchy/internal/harness"

// Open reports every counter unavailable: perf_event_open,
// getrusage(RUSAGE_THREAD) and /proc/thread-self are Linux's.
func Open() (Source, Report) {
	rep := Report{Opened: []string{}, Unavailable: map[string]string{}}
	for _, name := range []string{
		harness.CounterTaskClock, harness.CounterContextSwitches, harness.CounterMigrations,
		harness.CounterPageFaults, harness.CounterCycles, harness.CounterInstructions,
		harness.CounterRefCycles, harness.CounterBranchMisses, harness.CounterVoluntaryCS,
		harness.CounterInvoluntaryCS, harness.CounterMinorFaults, harness.CounterNrMigrations, ThreadCPU,
	} {
		rep.Unavailable[name] = "per-thread counters need Linux"
	}
	return none{}, rep
}

type none struct{}

func (none) Read() (map[string]int64, error) { return map[string]int64{}, nil }
func (none) Close() error                    { return nil }
