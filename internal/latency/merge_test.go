package latency

import (
	"math"
	"reflect"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// stored is the stored form of calls of the given times, in one window,
// with an open loop at rate per second whose times are each call's plus
// wait.
func stored(times []int64, cost float64, gc uint32, wait int64, achieved float64) result.Latency {
	closed, open := New(), New()
	for _, v := range times {
		closed.Record(v)
		open.Record(v + wait)
	}
	l := result.Latency{ClockCostNs: cost, GCCycles: gc, Windows: []result.LatencyWindow{{Calls: uint64(len(times)), MaxNs: closed.Max()}}}
	closed.Store(&l)
	l.Rate = &result.LatencyRate{PerSecond: 1000, IntervalNs: 1_000_000, Achieved: achieved, MaxLagNs: wait}
	open.Store(&l.Rate.Open)
	return l
}

// The calls of two processes merged are the calls of both in one
// histogram (equal to recording them all in one), the windows of both in
// order, the collections added; the clock's cost is weighted by calls,
// and the open loop is merged the same way, the rate achieved being the
// calls over the time both took on the timetable.
func TestMergeStored(t *testing.T) {
	a := []int64{1000, 1200, 90_000}
	b := []int64{1100, 1100, 1300, 1500, 2_000_000, 800, 700, 1000, 1000}
	dst := stored(a, 30, 1, 500, 1000)
	MergeStored(&dst, stored(b, 42, 2, 7000, 500))

	all := New()
	for _, v := range append(append([]int64(nil), a...), b...) {
		all.Record(v)
	}
	if got := Load(dst); !reflect.DeepEqual(got, all) {
		t.Errorf("merged histogram: %d calls, min %d, max %d; want the %d calls of both", got.Count(), got.Min(), got.Max(), all.Count())
	}
	if dst.Calls != 12 || len(dst.Windows) != 2 || dst.Windows[1].Calls != 9 || dst.GCCycles != 3 {
		t.Errorf("calls %d, windows %v, collections %d: want 12, the two windows in order, 3", dst.Calls, dst.Windows, dst.GCCycles)
	}
	if want := (30.0*3 + 42*9) / 12; math.Abs(dst.ClockCostNs-want) > 1e-9 {
		t.Errorf("clock cost %v, want %v, weighted by calls", dst.ClockCostNs, want)
	}
	r := dst.Rate
	if r.Open.Calls != 12 || r.Open.MaxNs != 2_007_000 || r.MaxLagNs != 7000 {
		t.Errorf("open loop: %d calls, max %d, lag %d: want 12, 2007000, 7000", r.Open.Calls, r.Open.MaxNs, r.MaxLagNs)
	}
	// 3 calls at 1000/s take 3 ms, 9 at 500/s 18 ms: 12 in 21 ms.
	if want := 12 / 0.021; math.Abs(r.Achieved-want) > 1e-6 {
		t.Errorf("achieved %v/s, want %v/s", r.Achieved, want)
	}
	// Into nothing: a copy.
	var empty result.Latency
	src := stored(b, 42, 2, 0, 500)
	MergeStored(&empty, src)
	if !reflect.DeepEqual(Load(empty), Load(src)) || empty.ClockCostNs != 42 || len(empty.Windows) != 1 {
		t.Errorf("merged into an empty latency: %+v, want a copy of the calls", empty)
	}
}
