// Package amortised has a benchmark whose calls each pay a fixed cost that
// no setup before its loop explains: every goroutine b.RunParallel starts
// waits before its pb.Next loop. Its time per op depends on N.
package amortised

import (
	"testing"
	"time"
)

var sink int

func BenchmarkParallelStart(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		time.Sleep(30 * time.Millisecond)
		s := 0
		for pb.Next() {
			s++
		}
		sink = s
	})
}
