package pipeline

import (
	"time"

	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/machine"
)

// openWindowDuringBuild opens the busy window now, for benchy gotest to
// build while it runs instead of before it, when this machine lets benchy
// count its own CPU time on each CPU (perf's task-clock per thread and
// CPU, following every process it starts): the window, and its own work
// to take out of it (Plan.Opened, Plan.Own). Where it cannot, the window
// is nil and is read after the build, over a window of its own. done
// closes the counters.
func openWindowDuringBuild() (w *machine.Window, own func() (map[int]time.Duration, error), done func()) {
	p, err := counters.OpenPerCPU()
	if err != nil {
		return nil, nil, func() {}
	}
	return machine.OpenWindow(root), p.Read, func() { p.Close() }
}
