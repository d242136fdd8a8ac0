package workload

import (
	"time"

	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// clockNow measures the clock itself: every timed sample pays for two reads,
// and nothing faster than a few reads can be timed one at a time.
var clockNow = inproc.Workload{
	Name:        "clock/now",
	Description: "one time.Now (wall and monotonic clock, from the vDSO): the cost of reading the clock; expect tens of ns, more in a VM without a usable TSC",
	Units:       1,
	Unit:        "read",
	// Reading the TSC alone takes about 20 cycles on current x86 cores;
	// 10 leaves room for faster ones.
	FloorCycles: 10,
	Loop:        clockNowLoop,
}

func clockNowLoop(n int) {
	for i := 0; i < n; i++ {
		sink.Keep(time.Now())
	}
}
