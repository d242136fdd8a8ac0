package sysread

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// CPUTimes are the time counters of one "cpu" line of /proc/stat, in
// USER_HZ ticks (1/100 s on every Linux architecture) since boot.
type CPUTimes struct {
	User, Nice, System, Idle, IOWait, IRQ, SoftIRQ, Steal, Guest, GuestNice uint64
}

// busy is the time the CPU ran something: user+nice+system+irq+softirq+steal.
// Guest and guest_nice are not added: the kernel already counts them in user
// and nice. Steal is busy from this machine's point of view: the CPU was
// not available to it.
func (t CPUTimes) busy() uint64 {
	return t.User + t.Nice + t.System + t.IRQ + t.SoftIRQ + t.Steal
}

// idle is idle+iowait: iowait is idle time with a disk read outstanding.
func (t CPUTimes) idle() uint64 { return t.Idle + t.IOWait }

// Stat is the part of /proc/stat that benchy uses.
type Stat struct {
	Total CPUTimes         // the "cpu" line, all CPUs together
	CPUs  map[int]CPUTimes // the "cpuN" lines; offline CPUs have none
	Ctxt  uint64           // context switches since boot
}

// ReadStat reads /proc/stat under root.
func ReadStat(root string) (Stat, error) {
	b, err := FS(root).read("proc/stat")
	if err != nil {
		return Stat{}, err
	}
	return parseStat(b)
}

// parseStat parses /proc/stat. Lines other than cpu* and ctxt are skipped;
// a cpu line with fewer than 4 counters (user nice system idle, the oldest
// format) or a counter that is not a number is an error.
func parseStat(b []byte) (Stat, error) {
	st := Stat{CPUs: map[int]CPUTimes{}}
	var sawTotal bool
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), maxFileSize)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		name := fields[0]
		switch {
		case name == "ctxt" && len(fields) == 2:
			v, err := strconv.ParseUint(fields[1], 10, 64)
			if err != nil {
				return Stat{}, fmt.Errorf("proc/stat line %d: bad ctxt %q", n, units.Clip(fields[1]))
			}
			st.Ctxt = v
		case strings.HasPrefix(name, "cpu"):
			t, err := parseCPUTimes(fields[1:])
			if err != nil {
				return Stat{}, fmt.Errorf("proc/stat line %d: %v", n, err)
			}
			if name == "cpu" {
				st.Total, sawTotal = t, true
				continue
			}
			cpu, err := machine.ParseCPU(name[3:])
			if err != nil {
				return Stat{}, fmt.Errorf("proc/stat line %d: %v", n, err)
			}
			if _, dup := st.CPUs[cpu]; dup {
				return Stat{}, fmt.Errorf("proc/stat line %d: cpu%d twice", n, cpu)
			}
			st.CPUs[cpu] = t
		}
	}
	if err := sc.Err(); err != nil {
		return Stat{}, fmt.Errorf("proc/stat: %v", err)
	}
	if !sawTotal {
		return Stat{}, fmt.Errorf("proc/stat: no cpu line")
	}
	return st, nil
}

// maxTicks bounds a counter: 2^50 ticks are 357,000 years at 100 Hz, so
// anything above is garbage, and the bound keeps the sums from overflowing.
const maxTicks = 1 << 50

func parseCPUTimes(fields []string) (CPUTimes, error) {
	if len(fields) < 4 || len(fields) > 10 {
		return CPUTimes{}, fmt.Errorf("cpu line has %d counters, want 4 to 10", len(fields))
	}
	var v [10]uint64
	for i, f := range fields {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil || n > maxTicks {
			return CPUTimes{}, fmt.Errorf("bad counter %q", units.Clip(f))
		}
		v[i] = n
	}
	return CPUTimes{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]}, nil
}
