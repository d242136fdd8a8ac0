package go118_test

import (
	"testing"

	"example.com/go118"
)

var xs = make([]float64, 256)

var top float64

func BenchmarkMax(b *testing.B) {
	for i := 0; i < b.N; i++ {
		top += go118.Max(xs)
	}
}
