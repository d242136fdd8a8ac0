// Package procs has sub-benchmarks whose names end as testing's
// -GOMAXPROCS suffix does.
package procs

import "testing"

var sink int

func BenchmarkSize(b *testing.B) {
	for _, name := range []string{"n-16", "n-1024"} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink += i
			}
		})
	}
}
