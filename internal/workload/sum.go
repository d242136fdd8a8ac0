package workload

import (
	"github.com/benchy-dev/benchy/internal/sink"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// The sum family asks one question six ways: is the work of summing 4096
// uint64 values still in the measured loop? Go inlines sum, so what the
// loop does with the result decides what the compiler keeps.

// sumLen is the number of values summed by one op.
const sumLen = 4096

// sumData holds 0..4095. It is a package variable so the compiler cannot
// compute the sum at compile time. Its sum is 4096*4095/2 = 8386560.
var sumData = func() []uint64 {
	s := make([]uint64, sumLen)
	for i := range s {
		s[i] = uint64(i)
	}
	return s
}()

// sumDataPtr is how sum/opaque reaches the input: a load through a pointer
// in every iteration, the Go spelling of hiding the input.
var sumDataPtr = &sumData

// sum adds the values; small enough to be inlined.
func sum(xs []uint64) uint64 {
	var t uint64
	for _, x := range xs {
		t += x
	}
	return t
}

// sumNoinline is sum kept as a call.
//
//go:noinline
func sumNoinline(xs []uint64) uint64 {
	var t uint64
	for _, x := range xs {
		t += x
	}
	return t
}

func sumWorkload(variant, desc string, loop func(int)) inproc.Workload {
	return inproc.Workload{
		Name:        "sum/" + variant,
		Description: desc,
		Units:       sumLen,
		Unit:        "add",
		ReadsMemory: true,
		Loop:        loop,
	}
}

var (
	sumUnused = sumWorkload("unused",
		"result discarded: Go drops the loads and adds but keeps the empty counting loop, so the time looks plausible and is wrong",
		sumUnusedLoop)
	sumSink = sumWorkload("sink",
		"result stored to a package variable: the work runs; the honest time of a 4096-value sum",
		sumSinkLoop)
	sumKeep = sumWorkload("keep",
		"result passed to sink.Keep (runtime.KeepAlive): the work runs; expect the same time as sum/sink",
		sumKeepLoop)
	sumTotal = sumWorkload("total",
		"results added up and used after the loop: Go does not hoist the call, so the work runs; expect sum/sink's time",
		sumTotalLoop)
	sumNoinlineTotal = sumWorkload("noinline-total",
		"sum/total with a //go:noinline sum: Go still calls it every op (it does not reuse one result); expect sum/sink's time plus a call",
		sumNoinlineTotalLoop)
	sumOpaque = sumWorkload("opaque",
		"input reloaded through a pointer every op and result kept, the black_box pattern; in Go no faster or slower than sum/keep",
		sumOpaqueLoop)
)

func sumUnusedLoop(n int) {
	for i := 0; i < n; i++ {
		sum(sumData)
	}
}

func sumSinkLoop(n int) {
	for i := 0; i < n; i++ {
		sink.SinkU64 = sum(sumData)
	}
}

func sumKeepLoop(n int) {
	for i := 0; i < n; i++ {
		sink.Keep(sum(sumData))
	}
}

func sumTotalLoop(n int) {
	var total uint64
	for i := 0; i < n; i++ {
		total += sum(sumData)
	}
	sink.SinkU64 = total
}

func sumNoinlineTotalLoop(n int) {
	var total uint64
	for i := 0; i < n; i++ {
		total += sumNoinline(sumData)
	}
	sink.SinkU64 = total
}

func sumOpaqueLoop(n int) {
	for i := 0; i < n; i++ {
		sink.Keep(sum(*sumDataPtr))
	}
}
