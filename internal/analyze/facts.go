package analyze

import (
	"cmp"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// Facts are what the findings need to know about the run besides the
// samples. The run fills them (through the Result's fields) so that the
// findings depend on numbers, not on how the machine was read.
type Facts struct {
	CPU  int  // the CPU the measured thread was pinned to
	GCOn bool // the collector was left on during samples (--gc)
	// MemoryLimit is the soft memory limit in bytes under which the
	// collector ran though it was off; 0 for none.
	MemoryLimit int64
	// SpawnNs is what starting a process cost, 0 when not measured.
	SpawnNs float64

	// MaxFreqHz is the highest clock the CPU may run at (cpuinfo_max_freq),
	// 0 when unknown; MaxFreqSource says where it came from.
	MaxFreqHz     float64
	MaxFreqSource string
	// ClockBeforeHz and ClockAfterHz are the effective clock measured before
	// and after the samples, 0 when unknown; ClockSource says how.
	ClockBeforeHz, ClockAfterHz float64
	ClockSource                 string
	// GranularityNs is the smallest step of time.Now, 0 when unknown.
	GranularityNs float64
	// SampleTime is the least duration asked of one sample (--sample-time),
	// 0 when unknown; FixedIters is --iters, 0 when iterations were
	// calibrated to reach SampleTime.
	SampleTime time.Duration
	FixedIters int64
	// TargetCI and MaxTime are the precision asked of each experiment's
	// median and the time allowed for it (--target-ci, --max-time); 0
	// when none was asked, and in a comparison, whose precision is that of
	// the ratio (its interval is in the comparison, beside the verdict).
	TargetCI float64
	MaxTime  time.Duration
	// RunClockHz is the clock the run sustained (RunClock) of those
	// measured before, after, and around every experiment, 0 when none
	// was: the speed the CPU kept, against which one experiment's clock is
	// judged.
	RunClockHz float64
	// RunRefCycles is the fewest cycles per iteration of the reference
	// loop measured around any experiment of the run (1 on amd64 when the
	// run came near it), 0 when none was: what the core delivered when it
	// was not shared. Cycles, not ns, so a lower clock is not taken for a
	// shared core (slow-clock judges the clock).
	RunRefCycles float64
	// RunRefFrom says where RunRefCycles comes from.
	RunRefFrom string
	// RunRefNs is the least ns per iteration of the reference loop
	// measured anywhere in the run (the speed probe of every CPU, the
	// probes around experiments, the check beside every sample), 0 when
	// none was: what a free core gives, against which each sample's check
	// is judged.
	RunRefNs float64
}

// FactsOf returns the facts recorded in r.
func FactsOf(r *result.Result) Facts {
	return Facts{
		CPU:           r.CPU,
		GCOn:          r.Settings.GC,
		MemoryLimit:   r.MemoryLimit,
		SpawnNs:       r.SpawnNs,
		MaxFreqHz:     r.MaxFreqHz,
		MaxFreqSource: r.MaxFreqSource,
		ClockBeforeHz: r.EffectiveClock.BeforeHz,
		ClockAfterHz:  r.EffectiveClock.AfterHz,
		ClockSource:   r.EffectiveClock.Source,
		GranularityNs: r.Clock.GranularityNs,
		SampleTime:    r.Settings.SampleTime,
		FixedIters:    r.Settings.Iters,
		TargetCI:      ownTargetCI(r.Settings),
		MaxTime:       r.Settings.MaxTime,
	}
}

// ownTargetCI is the precision asked of each experiment's own median: 0 in
// an interleaved comparison, where --target-ci aims at the ratios.
func ownTargetCI(st result.Settings) float64 {
	if len(st.Compare) >= 2 {
		return 0
	}
	return st.TargetCI
}

// FallbackMaxHz is the clock assumed when nothing better is known: the
// fastest shipping desktop cores boost to about 6 GHz (Intel Core
// i9-14900KS: 6.2 GHz), so no core ran much faster; assuming a high clock
// errs on the side of believing the number.
const FallbackMaxHz = 6e9

// highestClock returns the highest clock the CPU could have run at during
// the samples, and where the figure comes from, in this order of trust:
// the cycle counter (the fastest cycles/ns of any sample), the CPU's
// maximum frequency, the effective clock measured before and after, and
// last FallbackMaxHz.
func highestClock(samples []result.Sample, f Facts) (hz float64, source string) {
	for _, s := range samples {
		c, ok := s.Counters[result.CounterCycles]
		if ok && c > 0 && s.Ns > 0 {
			hz = max(hz, float64(c)/float64(s.Ns)*1e9)
		}
	}
	if hz > 0 {
		return hz, "cycles counter"
	}
	if f.MaxFreqHz > 0 {
		return f.MaxFreqHz, cmp.Or(f.MaxFreqSource, "max frequency")
	}
	if hz = max(f.ClockBeforeHz, f.ClockAfterHz); hz > 0 {
		return hz, "effective clock, " + cmp.Or(f.ClockSource, "measured")
	}
	return FallbackMaxHz, "no clock known: assumed the fastest shipping cores"
}
