package machine

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// MinBusyTicks is the fewest USER_HZ ticks a CPU's busy must be counted
// over to be judged. /proc/stat counts whole ticks of 10 ms (USER_HZ is 100
// on every Linux architecture), so over n ticks one tick is 100/n percent:
// a 100 ms window has about 10 ticks, where one stray tick is 10%, above
// BusyPct, and a 5 ms window may have one tick, which reads 0% or 100%.
// At 50 ticks (a window of 0.5 s) one tick is 2%, and crossing BusyPct
// takes three ticks of work, not one timer interrupt that happened to land.
const MinBusyTicks = 50

// MinBusyWindow is the window that gives MinBusyTicks at USER_HZ 100.
const MinBusyWindow = MinBusyTicks * tick

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
	// (ReadOptions.Own), already taken out of Busy.
	Own float64 `json:"own_pct,omitempty"`
}

// tick is the length of a USER_HZ tick, the unit of /proc/stat.
const tick = 10 * time.Millisecond

// less is c without own, time benchy's own work ran on the CPU: what is
// left of Busy is other tasks', never below the steal, which is the
// hypervisor's. A task's clock runs on while the hypervisor steals the
// CPU from it, and /proc/stat counts that time as steal, so own is first
// reduced by the CPU's share of steal.
func (c CPUBusy) less(own time.Duration) CPUBusy {
	busy, ok := c.Busy.Get()
	if !ok || c.Ticks == 0 || own <= 0 {
		return c
	}
	steal, _ := c.Steal.Get()
	c.Own = min(100, 100*float64(own)/float64(time.Duration(c.Ticks)*tick)*(1-steal/100))
	c.Busy = Known(max(steal, busy-c.Own))
	return c
}

// Judged reports whether the busy is known and counted over at least
// MinBusyTicks ticks, so that it may raise or clear a finding. A busy that
// is known but not judged is still shown, marked as coarse.
func (c CPUBusy) Judged() bool { return c.Busy.Known() && c.Ticks >= MinBusyTicks }

// unknownBusy is a CPU whose busy could not be measured.
func unknownBusy(cpu int, format string, args ...any) CPUBusy {
	r := fmt.Sprintf(format, args...)
	return CPUBusy{CPU: cpu, Busy: Unknown[float64]("%s", r), Steal: Unknown[float64]("%s", r), IOWait: Unknown[float64]("%s", r)}
}

// Busy returns how busy every CPU was between two reads of /proc/stat,
// sorted by CPU. It works for any two reads, a one-second window or a whole
// measurement. Every CPU in either read is in the result: one missing from
// a read (it went offline or came online in between), one whose ticks went
// backwards (taken offline and back, which resets its counters) or one with
// no tick in between has an unknown busy, not 0, and not no entry.
//
// Only the total of busy and idle ticks must grow: single counters may not
// (proc(5): iowait can decrease), and a counter that went down counts as no
// time rather than making the percentages negative.
func Busy(before, after Stat) []CPUBusy {
	all := slices.Sorted(maps.Keys(after.CPUs))
	for c := range before.CPUs {
		if _, ok := after.CPUs[c]; !ok {
			all = append(all, c)
		}
	}
	slices.Sort(all)
	out := make([]CPUBusy, 0, len(all))
	for _, cpu := range all {
		b, inBefore := before.CPUs[cpu]
		a, inAfter := after.CPUs[cpu]
		switch {
		case !inBefore:
			out = append(out, unknownBusy(cpu, "not in the first read of /proc/stat (came online in the window)"))
			continue
		case !inAfter:
			out = append(out, unknownBusy(cpu, "not in the second read of /proc/stat (went offline in the window)"))
			continue
		case a.busy()+a.idle() < b.busy()+b.idle():
			out = append(out, unknownBusy(cpu, "its ticks went backwards (offline and back in the window)"))
			continue
		}
		busy, idle := grew(a.busy(), b.busy()), grew(a.idle(), b.idle())
		total := busy + idle
		if total == 0 {
			out = append(out, unknownBusy(cpu, "no tick between the two reads of /proc/stat"))
			continue
		}
		steal, iowait := min(grew(a.Steal, b.Steal), busy), min(grew(a.IOWait, b.IOWait), idle)
		pct := func(n uint64) Fact[float64] { return Known(100 * float64(n) / float64(total)) }
		out = append(out, CPUBusy{CPU: cpu, Busy: pct(busy), Steal: pct(steal), IOWait: pct(iowait), Ticks: total})
	}
	return out
}

// grew is how much a counter grew from b to a; a counter that went down
// grew by 0.
func grew(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}
