package workload

import (
	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// The fold family runs the same pure mixing function on a compile-time
// constant and on a package variable. Go folds only straight-line inlined
// code: it does not unroll loops, and its inlining budget fits about four
// multiply-xor-shift rounds in one function, so the rounds are written out
// in mix4 and one op calls it twice.

// foldRounds is the number of multiplies in one op (two mix4 calls).
const foldRounds = 8

// foldSeed is the constant that fold/constant mixes.
const foldSeed = 0x2545f4914f6cdd1d

// foldInput is what fold/opaque mixes: a package variable, so the compiler
// cannot know its value.
var foldInput uint64 = foldSeed

// mix4 is four multiply-xor-shift rounds (the constants of SplitMix64 and
// MurmurHash3's finaliser). It is small enough to be inlined.
func mix4(x uint64) uint64 {
	x = (x ^ x>>31) * 0x9e3779b97f4a7c15
	x = (x ^ x>>29) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>32) * 0x94d049bb133111eb
	x = (x ^ x>>33) * 0xff51afd7ed558ccd
	return x
}

var (
	foldConstant = inproc.Workload{
		Name:        "fold/constant",
		Description: "8 multiplies on a compile-time constant: Go computes the answer while compiling and the loop only stores it; expect well under 1 ns",
		Units:       foldRounds,
		Unit:        "multiply",
		FloorCycles: 0.5,
		Loop:        foldConstantLoop,
	}
	foldOpaque = inproc.Workload{
		Name:        "fold/opaque",
		Description: "the same 8 multiplies on a package variable: the work runs; expect a few ns, several times fold/constant",
		Units:       foldRounds,
		Unit:        "multiply",
		FloorCycles: 0.5,
		Loop:        foldOpaqueLoop,
	}
)

func foldConstantLoop(n int) {
	for i := 0; i < n; i++ {
		sink.SinkU64 = mix4(mix4(foldSeed))
	}
}

func foldOpaqueLoop(n int) {
	for i := 0; i < n; i++ {
		sink.SinkU64 = mix4(mix4(foldInput))
	}
}
