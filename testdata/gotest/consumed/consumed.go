// Package consumed holds the input of benchmarks that sort it: one sorts
// it in place, so every iteration after its first sorts sorted data.
package consumed

// Size is the number of elements sorted: large enough that sorting them
// in random order (about 8 ms) is far more work than checking
// that they are in order.
const Size = 100_000

// Data is in a pseudo-random order, the same in every process, until
// BenchmarkSortInPlace sorts it; Pristine is the same numbers, which no
// benchmark changes (the honest ones sort copies of it: in one go test
// process they run after the one that sorted Data).
var (
	Data     = Shuffled(Size)
	Pristine = Shuffled(Size)
)

// Shuffled returns n numbers in a pseudo-random order (a linear
// congruential generator: the same order every time).
func Shuffled(n int) []int {
	xs := make([]int, n)
	x := uint64(1)
	for i := range xs {
		x = x*6364136223846793005 + 1442695040888963407
		xs[i] = int(x >> 33)
	}
	return xs
}
