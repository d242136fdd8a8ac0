package amortised

import "testing"

var text string

// BenchmarkConcat builds a string quadratically: tens of MB allocated an
// op, collections in every call, so its figure depends on GOMAXPROCS.
func BenchmarkConcat(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := ""
		for j := 0; j < 1500; j++ {
			s += "a line of some twenty bytes\n"
		}
		text = s
	}
}
