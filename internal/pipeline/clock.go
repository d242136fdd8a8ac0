package pipeline

import (
	"fmt"
	"time"

	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
	"github.com/benchy-dev/benchy/internal/result"
)

// clockReading is the measured CPU's clock, read on the pinned thread
// right after benchy's own dependent-add chain has kept it busy: read
// idle, a CPU whose governor follows the load would report its lowest
// frequency, and before and after would not compare.
type clockReading struct {
	chainHz    float64 // from the dependent-add chain; 0 if it failed
	cpufreqKHz int64   // scaling_cur_freq just after it; 0 if unknown
}

func readClock(root string, cpu int, window time.Duration) clockReading {
	c := clockReading{chainHz: counters.MeasureClock(window)}
	if khz, err := sysread.ReadCurFreqKHz(root, cpu); err == nil && khz > 0 {
		c.cpufreqKHz = khz
	}
	return c
}

// effectiveClock says what clock the measured CPU ran at before and after
// the samples: cpufreq's scaling_cur_freq, the kernel's own figure, bounded
// by the maximum (some drivers report more); where there is none (most
// VMs), benchy's dependent-add chain. Both are read under load. A cycle
// counter, when there is one, is used per sample by the report.
func effectiveClock(before, after clockReading, maxHz float64) result.EffectiveClock {
	if before.cpufreqKHz > 0 && after.cpufreqKHz > 0 {
		b, a := float64(before.cpufreqKHz)*1e3, float64(after.cpufreqKHz)*1e3
		if maxHz > 0 {
			b, a = min(b, maxHz), min(a, maxHz)
		}
		return result.EffectiveClock{BeforeHz: b, AfterHz: a, Source: "scaling_cur_freq under load"}
	}
	if before.chainHz > 0 && after.chainHz > 0 {
		return result.EffectiveClock{BeforeHz: before.chainHz, AfterHz: after.chainHz, Source: "dependent-add chain"}
	}
	return result.EffectiveClock{Source: "unknown: no cpufreq and the add chain could not be timed"}
}

// maxFreq is the highest clock the CPU may run at, from cpuinfo_max_freq.
func maxFreq(s *machine.Snapshot, cpu int) (float64, string) {
	if khz, ok := s.MaxFreqKHz(cpu); ok && khz > 0 {
		return float64(khz) * 1e3, "cpuinfo_max_freq"
	}
	return 0, "unknown: no cpuinfo_max_freq for cpu " + fmt.Sprint(cpu)
}
