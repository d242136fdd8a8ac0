package sysread

import (
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
)

// SpeedProbe times the reference loop on the CPUs of each batch at once,
// one batch after another, and returns one CPUSpeed per CPU. It is a
// parameter so that Read, which pins nothing, can run it
// inside the window, and tests can feed it speeds.
type SpeedProbe func(batches []machine.CPUList) []machine.CPUSpeed

// probeSpeed runs probe on the available CPUs and keeps what it measured
// in s.Speed; it returns the probe's CPU time on each CPU.
func probeSpeed(s *machine.Snapshot, probe SpeedProbe) map[int]time.Duration {
	s.Speed = probe(s.ProbeBatches())
	own := map[int]time.Duration{}
	for _, sp := range s.Speed {
		own[sp.CPU] += sp.Own
	}
	return own
}
