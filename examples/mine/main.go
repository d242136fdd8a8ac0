// Command mine is a complete program that measures its own functions with
// benchy: one Register per function, then benchy.Main.
//
//	go run . run            # measure both, pinned, and judge them
//	go run . asm mine/sum   # the machine code of the measured loop
//
// mine/sum keeps its result and is honest; mine/sum-discarded throws its
// result away, so the compiler deletes the work and benchy says so
// (no-load-in-loop), whatever its time looks like.
package main

import "github.com/benchy-dev/benchy"

// sum adds the values: small enough for the compiler to inline.
func sum(xs []uint64) uint64 {
	var t uint64
	for _, x := range xs {
		t += x
	}
	return t
}

func main() {
	data := make([]uint64, 4096) // built at run time: no constant to fold
	for i := range data {
		data[i] = uint64(i)
	}
	benchy.Register(benchy.Experiment{
		Name: "mine/sum", Description: "sum of 4096 values, kept: the honest time",
		Units: 4096, Unit: "add", ReadsMemory: true,
		Loop: func(n int) {
			for i := 0; i < n; i++ {
				benchy.Keep(sum(data))
			}
		},
	})
	benchy.Register(benchy.Experiment{
		Name: "mine/sum-discarded", Description: "the same sum, result thrown away: the work is deleted",
		Units: 4096, Unit: "add", ReadsMemory: true,
		Loop: func(n int) {
			for i := 0; i < n; i++ {
				sum(data)
			}
		},
	})
	benchy.Main()
}
