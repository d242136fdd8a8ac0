package failing

import "testing"

var sink int

func BenchmarkFatal(b *testing.B) {
	b.Fatal("the fixture is missing")
}

func BenchmarkOK(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink += i
	}
}
