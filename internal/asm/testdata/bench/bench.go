// Package asmbench is compiled by the tests of benchy's asm package: its
// benchmarks are the honest loop and the usual ways a benchmark measures
// less than it seems to, and File.Inspect must tell them apart in the test
// binary.
package asmbench

var (
	data = make([]uint64, 1000)
	sink uint64
)

// sum is small enough to be inlined into every benchmark.
func sum(xs []uint64) uint64 {
	var t uint64
	for _, x := range xs {
		t += x
	}
	return t
}

// mul is inlined too, and with constant arguments folded to a constant.
func mul(a, b uint64) uint64 { return a * b }
