package machine

import (
	"time"
)

// MinBusyTicks is the fewest USER_HZ ticks a CPU's busy must be counted
// over to be judged. /proc/stat counts whole ticks of 10 ms (USER_HZ is 100
// on every Linux architecture), so over n ticks one tick is 100/n percent:
// a 100 ms window has about 10 ticks, where one stray tick is 10%, above
// fit.BusyPct, and a 5 ms window may have one tick, which reads 0% or 100%.
// At 50 ticks (a window of 0.5 s) one tick is 2%, and crossing fit.BusyPct
// takes three ticks of work, not one timer interrupt that happened to land.
const MinBusyTicks = 50

// MinBusyWindow is the window that gives MinBusyTicks at USER_HZ 100.
const MinBusyWindow = MinBusyTicks * Tick

// CPUBusy is how one CPU spent a window between two reads of /proc/stat,
// in percent of the ticks that passed on that CPU. When the busy of the CPU
// cannot be measured (it is missing from a read, its counters went
// backwards, no tick passed), the three percentages are unknown with the
// reason.
type CPUBusy struct {
	CPU int `json:"cpu"`
	// Busy is user+nice+system+irq+softirq+steal over all ticks.
	Busy Fact[float64] `json:"busy_pct"`
	// Steal is the part of the window a hypervisor gave the CPU to
	// someone else; it is inside Busy.
	Steal Fact[float64] `json:"steal_pct"`
	// IOWait is idle time with I/O outstanding; it is not inside Busy.
	IOWait Fact[float64] `json:"iowait_pct"`
	// Ticks is how many USER_HZ ticks passed on this CPU: about 100 per
	// second of window; below MinBusyTicks the percentages are too coarse
	// to judge (see Judged).
	Ticks uint64 `json:"ticks"`
	// Own is the share of the window benchy's own work ran on this CPU
	// (sysread.ReadOptions.Own), already taken out of Busy.
	Own float64 `json:"own_pct,omitempty"`
}

// Tick is the length of a USER_HZ tick, the unit of /proc/stat.
const Tick = 10 * time.Millisecond

// Judged reports whether the busy is known and counted over at least
// MinBusyTicks ticks, so that it may raise or clear a finding. A busy that
// is known but not judged is still shown, marked as coarse.
func (c CPUBusy) Judged() bool { return c.Busy.Known() && c.Ticks >= MinBusyTicks }
