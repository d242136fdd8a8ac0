package lies

import "testing"

var (
	sink  int
	bsink []byte
)

// Honest benchmarks: every one must be believed.

func BenchmarkSum(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Sum(Data)
	}
}

func BenchmarkSumLoop(b *testing.B) {
	for b.Loop() {
		sink = Sum(Data)
	}
}

func BenchmarkSizes(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(map[int]string{10: "small", 1000: "large"}[n], func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sink = Sum(Data[:n])
			}
		})
	}
}

func BenchmarkAlloc(b *testing.B) {
	for i := 0; i < b.N; i++ {
		bsink = make([]byte, 64)
	}
}

// BenchmarkQuoteDiscarded discards the result of a call that is not
// inlined: the call still runs, and the benchmark is honest.
func BenchmarkQuoteDiscarded(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Quote("hello, world")
	}
}

// BenchmarkSetupReset has an expensive setup, and resets the timer.
func BenchmarkSetupReset(b *testing.B) {
	setup()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = Sum(Data)
	}
}

// BenchmarkSumHelper hands b to a helper that holds the b.N loop, as
// large libraries write their benchmarks; the helper keeps the result.
func BenchmarkSumHelper(b *testing.B) { benchmarkSum(b, Data) }

// Lying benchmarks: each must be caught.

// BenchmarkSumDiscarded: Sum is inlined and its result discarded, so the
// compiler deletes the work (empty-loop).
func BenchmarkSumDiscarded(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Sum(Data)
	}
}

// BenchmarkSumHelperDiscarded: the loop is in the helper, which discards
// Sum's result, so the compiler deletes the work there (empty-loop).
func BenchmarkSumHelperDiscarded(b *testing.B) { benchmarkSumDiscarded(b, Data) }

// BenchmarkMulFolded: the product of constants is computed while compiling
// (folded).
func BenchmarkMulFolded(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Mul(3, 4)
	}
}

// BenchmarkSetup times its setup: no b.ResetTimer (setup-in-timer).
func BenchmarkSetup(b *testing.B) {
	setup()
	for i := 0; i < b.N; i++ {
		sink = Sum(Data)
	}
}

// BenchmarkParallel cannot be pinned (not-pinned).
func BenchmarkParallel(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		s := 0
		for pb.Next() {
			s += Sum(Data)
		}
		sink = s
	})
}

// setup does a fixed amount of work, about 2 ms, as a real setup does
// (not a fixed time: a setup another task interrupts takes longer).
func setup() {
	for range 8_000 {
		sink += Sum(Data)
	}
}

// The helpers of the Helper benchmarks are not inlined, as a helper too
// large for the inliner is not: their loop is in their own code.

//go:noinline
func benchmarkSum(b *testing.B, xs []int) {
	for i := 0; i < b.N; i++ {
		sink = Sum(xs)
	}
}

//go:noinline
func benchmarkSumDiscarded(b *testing.B, xs []int) {
	for i := 0; i < b.N; i++ {
		Sum(xs)
	}
}
