//go:build !amd64 && !arm64

package counters

// addChain makes turns*16 dependent adds, of a and b in turn, and returns
// their sum.
//
// This is the Go version for architectures without an assembly one. Two
// addends the compiler cannot prove equal keep it from merging adds: with
// one addend, amd64's compiler turns x+s+s into one LEA x+2*s and halves the
// chain. With two, the compiler (Go 1.26, checked on riscv64, ppc64le,
// s390x, loong64, mips64) emits 16 dependent register adds per turn; that is
// the compiler's choice, not a guarantee, so MeasureClock is approximate
// here.
//
//go:noinline
func addChain(turns, a, b uint64) uint64 {
	var x uint64
	for ; turns > 0; turns-- {
		x += a
		x += b
		x += a
		x += b
		x += a
		x += b
		x += a
		x += b
		x += a
		x += b
		x += a
		x += b
		x += a
		x += b
		x += a
		x += b
	}
	return x
}
