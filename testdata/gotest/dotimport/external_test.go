package dotimport_test

import (
	. "example.com/gotestdata/dotimport"
	"testing"
)

var x, y, out = make([]byte, 64), make([]byte, 64), make([]byte, 64)

func BenchmarkExternal(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Xor(out, x, y)
	}
}
