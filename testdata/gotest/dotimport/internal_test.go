package dotimport

import "testing"

var a, b, dst = make([]byte, 64), make([]byte, 64), make([]byte, 64)

func BenchmarkInternal(bb *testing.B) {
	for i := 0; i < bb.N; i++ {
		Xor(dst, a, b)
	}
}
