package go111

import "testing"

var xs = make([]int, 256)

var total int

func BenchmarkSum(b *testing.B) {
	for i := 0; i < b.N; i++ {
		total += Sum(xs)
	}
}
