// Command small measures variants of two kernels that run the same machine
// code and differ only in the amount of work: 0% (the same work twice, an
// A/A pair), +1%, +2% and +5%. It is how the defaults of an interleaved
// comparison were measured (docs/statistics.md):
//
//	cd examples/mine
//	go run ./small run --compare small/sum-100,small/sum-100b   # A/A: nothing to claim
//	go run ./small run --compare small/sum-100,small/sum-101    # a real +1%
//
// sum adds values (a loop that loads); chain is a dependent chain of
// multiply-adds (a loop the CPU cannot overlap). Each is a function the
// compiler may not inline, so every variant calls the same code.
package main

import (
	"fmt"

	"github.com/benchy-dev/benchy"
)

//go:noinline
func sum(xs []uint64) uint64 {
	var t uint64
	for _, x := range xs {
		t += x
	}
	return t
}

//go:noinline
func chain(x uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

// base is the work of the 100% variants: about 1 µs of each kernel.
const base = 4000

func main() {
	data := make([]uint64, base*2) // built at run time: no constant to fold
	for i := range data {
		data[i] = uint64(i)
	}
	seed := uint64(len(data))
	for _, v := range []struct {
		suffix string
		work   int // per mille of base
	}{{"100", 1000}, {"100b", 1000}, {"101", 1010}, {"102", 1020}, {"105", 1050}} {
		n := base * v.work / 1000
		benchy.Register(benchy.Experiment{
			Name:        "small/sum-" + v.suffix,
			Description: fmt.Sprintf("sum of %d values", n),
			Units:       float64(n), Unit: "add", ReadsMemory: true,
			Loop: func(iters int) {
				xs := data[:n]
				for i := 0; i < iters; i++ {
					benchy.Keep(sum(xs))
				}
			},
		})
		benchy.Register(benchy.Experiment{
			Name:        "small/chain-" + v.suffix,
			Description: fmt.Sprintf("a chain of %d multiply-adds", n),
			Units:       float64(n), Unit: "multiply-add",
			Loop: func(iters int) {
				for i := 0; i < iters; i++ {
					benchy.Keep(chain(seed, n))
				}
			},
		})
	}
	benchy.Main()
}
