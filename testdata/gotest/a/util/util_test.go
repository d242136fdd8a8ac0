// Package util shares its name with the other util: its benchmarks keep
// their own names.
package util

import "testing"

var sink int

func BenchmarkX(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += i
	}
}
