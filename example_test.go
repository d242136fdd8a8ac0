package benchy_test

import (
	"os"

	"github.com/benchy-dev/benchy"
)

// data is built at run time, so the compiler cannot compute the sum.
var data = func() []uint64 {
	xs := make([]uint64, 4096)
	for i := range xs {
		xs[i] = uint64(i)
	}
	return xs
}()

func sum(xs []uint64) uint64 {
	var t uint64
	for _, x := range xs {
		t += x
	}
	return t
}

// A complete program: register a function, then hand the command line to
// benchy. In a real program main ends with benchy.Main(); here Execute runs
// `list` so the example shows what it prints. `go run . run` would measure
// the loop's time per op; `go run . run --latency` times each call alone
// and reports its percentiles (p50 to p99.9, the max).
func Example() {
	benchy.Register(benchy.Experiment{
		Name:        "mine/sum",
		Description: "sum of 4096 values into a sink",
		Units:       4096, Unit: "add", ReadsMemory: true,
		Loop: func(n int) {
			for i := 0; i < n; i++ {
				benchy.Keep(sum(data))
			}
		},
		// One op alone, for --latency.
		Call: func() { benchy.Keep(sum(data)) },
	})
	benchy.Execute([]string{"list"}, os.Stdout, os.Stderr)
	// Output:
	// NAME      WORK PER OP  DESCRIPTION
	// mine/sum  4096 adds    sum of 4096 values into a sink
}
