// Package maxprocs has benchmarks that report the GOMAXPROCS they ran
// with: one pinned to its CPU, one that runs b.RunParallel.
package maxprocs

import (
	"runtime"
	"testing"
)

var sink int

func BenchmarkSeq(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += i
	}
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "gomaxprocs")
}

func BenchmarkPar(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			s++
		}
		sink = s
	})
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "gomaxprocs")
}
