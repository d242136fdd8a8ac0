package profiled

import "testing"

var warmed bool

func BenchmarkSpin(b *testing.B) {
	switch {
	case b.N == 1:
		Probe()
	case !warmed:
		warmed = true
		Warmup()
	}
	b.ResetTimer()
	for range b.N {
		Spin(100)
	}
}
