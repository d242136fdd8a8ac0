package consumed

import (
	"slices"
	"testing"
)

var sink int

// BenchmarkSortInPlace sorts Data itself: the first iteration sorts it,
// every later one sorts sorted data (input-consumed).
func BenchmarkSortInPlace(b *testing.B) {
	for i := 0; i < b.N; i++ {
		slices.Sort(Data)
		sink = Data[0]
	}
}

// BenchmarkSortCopy sorts a fresh copy of the same numbers in every iteration, made
// with the timer stopped: honest.
func BenchmarkSortCopy(b *testing.B) {
	xs := make([]int, len(Pristine))
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		copy(xs, Pristine)
		b.StartTimer()
		slices.Sort(xs)
		sink = xs[0]
	}
}

// BenchmarkSortCopyTimed copies them in every iteration with the timer
// running: honest, the copy is part of every op.
func BenchmarkSortCopyTimed(b *testing.B) {
	xs := make([]int, len(Pristine))
	for i := 0; i < b.N; i++ {
		copy(xs, Pristine)
		slices.Sort(xs)
		sink = xs[0]
	}
}

// BenchmarkSortSetup makes its pristine input with the timer running (a
// setup without b.ResetTimer, setup-in-timer), then sorts a fresh copy of
// it in every iteration: the setup is paid by every call, the sort by
// every iteration.
func BenchmarkSortSetup(b *testing.B) {
	pristine := Shuffled(4 * Size)[:Size]
	xs := make([]int, len(pristine))
	for i := 0; i < b.N; i++ {
		copy(xs, pristine)
		slices.Sort(xs)
		sink = xs[0]
	}
}
