// Command tail measures two calls whose medians are the same and whose
// p99 differs by 20%: one call in 50 takes a slow path of 10 sums in
// tail/p99-100 and of 12 sums in tail/p99-120, every other call one sum.
// With 2% of the calls slow, p99 lies among the slow ones. It is how
// run --compare --latency's claims about a tail were measured
// (scripts/tailgoal.sh, docs/latency.md):
//
//	cd examples/mine
//	go run ./tail run --compare tail/p99-100,tail/p99-120 --latency    # p99 +20%
//	go run ./tail run --compare tail/p99-100,tail/p99-100 --latency    # A/A: nothing to claim
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

// slowEvery is how often the slow path runs: 2% of the calls, so p99
// (and p98.5) is a slow call, and p50 and p90 are fast ones.
const slowEvery = 50

func main() {
	data := make([]uint64, 4000) // built at run time: no constant to fold
	for i := range data {
		data[i] = uint64(i)
	}
	for _, slow := range []int{10, 12} {
		var calls int // each experiment's own count: its slow calls are every 50th of its own
		call := func() {
			calls++
			n := 1
			if calls%slowEvery == 0 {
				n = slow
			}
			for range n {
				benchy.Keep(sum(data))
			}
		}
		benchy.Register(benchy.Experiment{
			Name:        fmt.Sprintf("tail/p99-%d", slow*10),
			Description: fmt.Sprintf("a sum of 4000 values per call, and every %dth call %d sums: p50 one sum, p99 %d", slowEvery, slow, slow),
			Units:       4000, Unit: "add", ReadsMemory: true,
			Loop: func(n int) {
				for range n {
					call()
				}
			},
			Call: call,
		})
	}
	benchy.Main()
}
