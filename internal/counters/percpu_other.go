//go:build !linux

package counters

import (
	"errors"
	"time"
)

// PerCPU needs perf_event_open, which is Linux's.
type PerCPU struct{}

// OpenPerCPU fails: per-CPU counters of a process need Linux.
func OpenPerCPU(tids, cpus []int) (*PerCPU, error) {
	return nil, errors.New("per-CPU counters need Linux")
}

// Read is never reached: OpenPerCPU fails.
func (p *PerCPU) Read() (map[int]time.Duration, error) {
	return nil, errors.New("per-CPU counters need Linux")
}

// Close has nothing to close.
func (p *PerCPU) Close() error { return nil }
