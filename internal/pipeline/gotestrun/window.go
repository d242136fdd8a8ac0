package gotestrun

import (
	"time"

	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
)

// openWindowDuringBuild opens the busy window now, for benchy gotest to
// build while it runs instead of before it, when this machine lets benchy
// count its own CPU time on each CPU (perf's task-clock per thread and
// CPU, following every process it starts): the window, and its own work
// to take out of it (Plan.Opened, Plan.Own). Where it cannot, the window
// is nil and is read after the build, over a window of its own.
//
// own closes the counters once it has read them: every process started
// later (the test binaries, which are measured) would inherit them. done
// closes them on the way out when own was never called.
func openWindowDuringBuild() (w *sysread.Window, own func() (map[int]time.Duration, error), done func()) {
	cpus, ok := sysread.AllowedCPUs().Get()
	tids, err := harness.Threads()
	if !ok || err != nil {
		return nil, nil, func() {}
	}
	p, err := counters.OpenPerCPU(tids, cpus)
	if err != nil {
		return nil, nil, func() {}
	}
	own = func() (map[int]time.Duration, error) {
		defer p.Close()
		return p.Read()
	}
	return sysread.OpenWindow("/"), own, func() { p.Close() }
}
