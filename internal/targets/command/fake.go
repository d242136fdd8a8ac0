package command

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// FakeExecutor runs nothing: every run "lasts" Wall and ends as Status
// says. It logs every call in order, so a test sees the order of setup,
// warm-ups, samples and cleanup without timing anything. One FakeExecutor
// may serve several targets, which then share the log.
type FakeExecutor struct {
	// Wall is what every run lasts; 0 means 1 ms.
	Wall time.Duration
	// Status, when not nil, says how the run of the given 1-based call
	// number ends (it exits 0 otherwise).
	Status func(call int, j Job) Status
	// Hook, when not nil, is called as each run ends, e.g. to cancel the
	// run's context after the third.
	Hook func(call int, j Job)

	mu    sync.Mutex
	calls int
	log   []string
}

// Log returns the calls so far: "open", then for every run its command
// line ("sh -c" hooks by their line), in order.
func (f *FakeExecutor) Log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

// Open logs "open" and reports the counters a real run reads.
func (f *FakeExecutor) Open() (result.CounterReport, error) {
	f.mu.Lock()
	f.log = append(f.log, "open")
	f.mu.Unlock()
	return result.CounterReport{Opened: []string{CounterUserNs, CounterSysNs}}, nil
}

// Exec logs j's command line and returns a run of Wall on CPU 0 that
// ended as Status says.
func (f *FakeExecutor) Exec(ctx context.Context, j Job) (Result, error) {
	f.mu.Lock()
	f.calls++
	n := f.calls
	line := j.Line
	if line == "" {
		line = strings.Join(j.Args, " ")
	}
	f.log = append(f.log, line)
	f.mu.Unlock()
	r := Result{Wall: f.Wall, CPU: 0, AllowedCPUs: "0",
		Counters: map[string]int64{CounterUserNs: 1, CounterSysNs: 1}}
	if r.Wall <= 0 {
		r.Wall = time.Millisecond
	}
	if f.Status != nil {
		r.Status = f.Status(n, j)
		if !r.Status.OK() {
			r.Stderr = []string{"fake failure of " + line}
		}
	}
	if f.Hook != nil {
		f.Hook(n, j)
	}
	return r, nil
}
