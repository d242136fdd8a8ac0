// Package profiled has benchmarks whose profiles tell which calls were
// profiled: the work of testing's N=1 probe and of each process's first
// call at the measured N (its warm-up) is done in functions of its own.
package profiled

import "time"

var Sink int

// Spin is the measured work.
//
//go:noinline
func Spin(n int) {
	for i := range n {
		Sink += i * i
	}
}

// Probe is what a call at N=1 does besides: testing's probe, never
// measured.
//
//go:noinline
func Probe() { burn(20 * time.Millisecond) }

// Warmup is what the first call at the measured N of a process does
// besides: benchy drops that call as the process's warm-up.
//
//go:noinline
func Warmup() { burn(30 * time.Millisecond) }

//go:noinline
func burn(d time.Duration) {
	for until := time.Now().Add(d); time.Now().Before(until); {
		Spin(1000)
	}
}
