package typed

import . "testing"

func BenchmarkDot(b *B) {
	b.Run("sub", func(b *B) {
		for i := 0; i < b.N; i++ {
			sink++
		}
	})
}
