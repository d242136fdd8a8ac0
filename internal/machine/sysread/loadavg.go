package sysread

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// parseLoadavg parses "0.18 0.11 0.04 1/88 4783".
func parseLoadavg(b []byte) (machine.LoadAvg, error) {
	f := strings.Fields(string(b))
	if len(f) != 5 {
		return machine.LoadAvg{}, fmt.Errorf("loadavg: %d fields, want 5", len(f))
	}
	var l machine.LoadAvg
	for i, p := range []*float64{&l.Load1, &l.Load5, &l.Load15} {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || !(v >= 0 && v <= 1e9) {
			return machine.LoadAvg{}, fmt.Errorf("loadavg: bad load %q", units.Clip(f[i]))
		}
		*p = v
	}
	r, t, ok := strings.Cut(f[3], "/")
	var err1, err2 error
	l.Runnable, err1 = strconv.Atoi(r)
	l.Tasks, err2 = strconv.Atoi(t)
	if !ok || err1 != nil || err2 != nil || l.Runnable < 0 || l.Tasks < l.Runnable {
		return machine.LoadAvg{}, fmt.Errorf("loadavg: bad tasks %q", units.Clip(f[3]))
	}
	if _, err := strconv.ParseUint(f[4], 10, 32); err != nil {
		return machine.LoadAvg{}, fmt.Errorf("loadavg: bad last pid %q", units.Clip(f[4]))
	}
	return l, nil
}

// parsePressureSomeAvg10 returns the "some avg10" value of a pressure file
// (/proc/pressure/cpu): the percent of the last 10 s in which at least one
// runnable task waited for a CPU.
func parsePressureSomeAvg10(b []byte) (float64, error) {
	for line := range strings.SplitSeq(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "some" {
			continue
		}
		for _, kv := range f[1:] {
			k, v, _ := strings.Cut(kv, "=")
			if k != "avg10" {
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !(x >= 0 && x <= 100) {
				return 0, fmt.Errorf("pressure: bad avg10 %q", units.Clip(v))
			}
			return x, nil
		}
		return 0, fmt.Errorf("pressure: no avg10 in %q", units.Clip(line))
	}
	return 0, fmt.Errorf("pressure: no some line")
}
