package workload

import (
	"math/rand/v2"
	"slices"

	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// The sort family sorts 8000 ints. Sorting sorted data is a different (and
// much faster) experiment, so every op first copies the shuffled input into
// a scratch slice; sort/copy-8000 measures that copy alone, so its time can
// be subtracted.

// sortLen is the number of ints one op sorts.
const sortLen = 8000

// sortInput is a permutation of 0..7999 from a fixed seed, so every run
// sorts the same data.
var sortInput = func() []int {
	r := rand.New(rand.NewPCG(1, 2))
	return r.Perm(sortLen)
}()

// sortScratch is where each op copies the input before sorting; it is
// allocated once so the op does not allocate.
var sortScratch = make([]int, sortLen)

var (
	sortInts = inproc.Workload{
		Name:        "sort/ints-8000",
		Description: "slices.Sort of 8000 shuffled ints; each op includes copying the input first (see sort/copy-8000 to subtract it); expect hundreds of microseconds",
		Units:       sortLen,
		Unit:        "int",
		ReadsMemory: true,
		Loop:        sortIntsLoop,
	}
	sortCopy = inproc.Workload{
		Name:        "sort/copy-8000",
		Description: "only the copy of 8000 ints that each sort/ints-8000 op starts with: subtract it from that time; expect about a microsecond",
		Units:       sortLen,
		Unit:        "int",
		ReadsMemory: true,
		Loop:        sortCopyLoop,
	}
)

func sortIntsLoop(n int) {
	for i := 0; i < n; i++ {
		copy(sortScratch, sortInput)
		slices.Sort(sortScratch)
	}
	sink.SinkInt = sortScratch[sortLen-1]
}

func sortCopyLoop(n int) {
	for i := 0; i < n; i++ {
		copy(sortScratch, sortInput)
	}
	sink.SinkInt = sortScratch[sortLen-1]
}
