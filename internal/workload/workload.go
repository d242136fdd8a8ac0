// Package workload is benchy's catalogue of built-in experiments. Each family
// lives in its own file; each experiment's loop is a named top-level
// function, so `benchy asm` can find and show its machine code. Inputs come
// from package variables (the compiler cannot see through them) and results
// go to a sink, except where the point of the experiment is to break that.
package workload

import (
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// catalogue lists every experiment in the order they are run and listed.
var catalogue = []inproc.Workload{
	sumUnused, sumSink, sumKeep, sumTotal, sumNoinlineTotal, sumOpaque,
	foldConstant, foldOpaque,
	concatQuadratic, concatBuilder,
	sortInts, sortCopy,
	clockNow,
	tailSteady, tailRareSlow, tailStall,
	empty,
}

// All returns every experiment in a stable order. The slice is a copy.
func All() []inproc.Workload {
	return append([]inproc.Workload(nil), catalogue...)
}
