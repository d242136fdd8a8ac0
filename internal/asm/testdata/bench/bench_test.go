package asmbench

import "testing"

// BenchmarkSum measures sum: its result is kept, so its loads and adds
// stay in the loop.
func BenchmarkSum(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = sum(data)
	}
}

// BenchmarkSumDiscarded throws sum's result away: the compiler inlines sum
// and drops its loads, and the inner loop only counts to len(data).
func BenchmarkSumDiscarded(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sum(data)
	}
}

// BenchmarkMulFolded multiplies constants: the product is computed while
// compiling and the loop stores 12.
func BenchmarkMulFolded(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = mul(3, 4)
	}
}

// BenchmarkMulFoldedN is BenchmarkMulFolded with b.N read once: the loop
// above reads it again after every store to sink (which might be b.N, as
// far as the compiler knows), and that one load is all it reads.
func BenchmarkMulFoldedN(b *testing.B) {
	n := b.N
	for i := 0; i < n; i++ {
		sink = mul(3, 4)
	}
}

// BenchmarkSumLoop is BenchmarkSum written with b.Loop.
func BenchmarkSumLoop(b *testing.B) {
	for b.Loop() {
		sink = sum(data)
	}
}

// BenchmarkSumRun measures in a closure, which the linker names
// BenchmarkSumRun.func1.
func BenchmarkSumRun(b *testing.B) {
	b.Run("sub", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			sink = sum(data)
		}
	})
}
