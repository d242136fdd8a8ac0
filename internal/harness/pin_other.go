//go:build !linux

package harness

import (
	"errors"
	"fmt"
	"time"
)

// Pinned needs sched_setaffinity, which only Linux has.
func Pinned(cpu int, isolate bool, f func() error) error {
	return fmt.Errorf("cannot pin to cpu %d: pinning needs Linux", cpu)
}

// CurrentCPU needs getcpu(2), which only Linux has.
func CurrentCPU() (int, error) { return -1, errors.New("getcpu needs Linux") }

// CanPin says this system can pin a thread to a CPU: only Linux can.
const CanPin = false

// OthersOn is 0 where nothing can be pinned.
func OthersOn(cpu int) int { return 0 }

// Threads needs /proc, which is Linux's.
func Threads() ([]int, error) { return nil, errors.New("listing threads needs Linux") }

// threadCPU needs CLOCK_THREAD_CPUTIME_ID; nothing is pinned here anyway.
func threadCPU() time.Duration { return 0 }

// Unisolate does nothing where nothing is pinned.
func Unisolate(cpu int) {}
