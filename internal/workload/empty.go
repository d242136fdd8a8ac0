package workload

import (
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// empty is the harness loop with nothing in it: the floor every other
// experiment stands on.
var empty = inproc.Workload{
	Name:        "empty",
	Description: "the loop with nothing in it: the harness's own cost per op; expect under 1 ns (about one cycle)",
	Units:       1,
	Unit:        "iteration",
	// A counting loop runs at most one iteration per cycle on most cores,
	// two on a few; 0.5 is the floor.
	FloorCycles: 0.5,
	Loop:        emptyLoop,
}

func emptyLoop(n int) {
	for i := 0; i < n; i++ {
	}
}
