package profiled_test

import (
	"testing"

	"example.com/gotestdata/profiled"
)

var keep [][]byte

func BenchmarkAlloc(b *testing.B) {
	for range b.N {
		keep = append(keep[:0], make([]byte, 1024))
		profiled.Spin(10)
	}
}
