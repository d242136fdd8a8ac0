package sysread

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
)

// less is c without own, time benchy's own work ran on the CPU: what is
// left of Busy is other tasks', never below the steal, which is the
// hypervisor's. A task's clock runs on while the hypervisor steals the
// CPU from it, and /proc/stat counts that time as steal, so own is first
// reduced by the CPU's share of steal.
func less(c machine.CPUBusy, own time.Duration) machine.CPUBusy {
	busy, ok := c.Busy.Get()
	if !ok || c.Ticks == 0 || own <= 0 {
		return c
	}
	steal, _ := c.Steal.Get()
	c.Own = min(100, 100*float64(own)/float64(time.Duration(c.Ticks)*machine.Tick)*(1-steal/100))
	c.Busy = machine.Known(max(steal, busy-c.Own))
	return c
}

// unknownBusy is a CPU whose busy could not be measured.
func unknownBusy(cpu int, format string, args ...any) machine.CPUBusy {
	r := fmt.Sprintf(format, args...)
	return machine.CPUBusy{CPU: cpu, Busy: machine.Unknown[float64]("%s", r), Steal: machine.Unknown[float64]("%s", r), IOWait: machine.Unknown[float64]("%s", r)}
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
func Busy(before, after Stat) []machine.CPUBusy {
	all := slices.Sorted(maps.Keys(after.CPUs))
	for c := range before.CPUs {
		if _, ok := after.CPUs[c]; !ok {
			all = append(all, c)
		}
	}
	slices.Sort(all)
	out := make([]machine.CPUBusy, 0, len(all))
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
		pct := func(n uint64) machine.Fact[float64] { return machine.Known(100 * float64(n) / float64(total)) }
		out = append(out, machine.CPUBusy{CPU: cpu, Busy: pct(busy), Steal: pct(steal), IOWait: pct(iowait), Ticks: total})
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
