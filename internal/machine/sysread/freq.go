package sysread

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/units"
)

// ReadCurFreqKHz reads cpu's scaling_cur_freq under root and nothing else,
// so it is cheap enough to call right after loading the CPU: a snapshot
// reads it too, but before the load, when an idle CPU may sit at its
// lowest frequency. The error wraps fs.ErrNotExist when the CPU has no
// cpufreq (most virtual machines): then the frequency is unknown, not 0.
func ReadCurFreqKHz(root string, cpu int) (int64, error) {
	if cpu < 0 || cpu > machine.MaxCPU {
		return 0, fmt.Errorf("cpu %d out of range", cpu)
	}
	name := fmt.Sprintf("%s/cpu%d/cpufreq/scaling_cur_freq", cpuDir, cpu)
	b, err := FS(root).read(name)
	if err != nil {
		return 0, err
	}
	khz, err := parseKHz(b)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", name, err)
	}
	return khz, nil
}

// maxKHz bounds a frequency: 100 GHz is far above any CPU clock, so
// anything higher is garbage.
const maxKHz = 100_000_000

// parseKHz parses a cpufreq frequency file: one positive integer in kHz.
func parseKHz(b []byte) (int64, error) {
	s := strings.TrimSpace(string(b))
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 || v > maxKHz {
		return 0, fmt.Errorf("not a frequency in kHz: %q", units.Clip(s))
	}
	return v, nil
}
