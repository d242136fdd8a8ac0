package gotest

import (
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// input-consumed: an N=1 call far longer than the later calls give for one
// iteration, their fixed cost per call included, is a loop that changes
// its own input; a setup timed in every call (cold in the first), a cold
// first call a few times slower, the cost of a call of a tiny op, and the
// time page faults the first call took beyond the later calls' may have
// cost, are not.
func TestInputConsumedRamps(t *testing.T) {
	// ramp is testing's: the N=1 call took first, the later ones fixed
	// beside perOp per iteration.
	ramp := func(first, fixed, perOp float64, ns ...int64) []Record {
		calls := []Record{{N: 1, Ns: int64(first)}}
		for _, n := range ns {
			calls = append(calls, Record{N: n, Ns: int64(fixed + perOp*float64(n))})
		}
		return calls
	}
	// faulted gives the N=1 call first faults, the later ones later.
	faulted := func(calls []Record, first, later int64) []Record {
		for i := range calls {
			calls[i].Counters = map[string]int64{result.CounterMinorFaults: later}
		}
		calls[0].Counters[result.CounterMinorFaults] = first
		return calls
	}
	cases := []struct {
		name  string
		calls []Record
		want  bool
		says  []string
	}{
		// An in-place sort of 20,000 numbers: 1.5 ms, then sorted data
		// in 10.8 µs.
		{"sorts in place", ramp(1.5e6, 0, 10_800, 100, 9_500), true,
			[]string{"took 1.5 ms for N=1, the later ones 10.8 µs per op: a call of one iteration 139× faster", "sorts sorted data", "b.StopTimer"}},
		{"sorts in place, a fixed cost too", ramp(1.5e6, 20_000, 10_800, 100, 9_500), true,
			[]string{"and at most 20 µs once per call: a call of one iteration 49× faster"}},
		// SortSetup, recorded: a 1.9 ms setup timed in every call, paid
		// cold (its memory faulted in) by the N=1 call.
		{"setup in the timer", ramp(10.4e6, 1.9e6, 1.68e6, 3, 60), false, nil},
		{"a cold first call", ramp(9*200_000, 0, 200_000, 100, 500), false, nil},
		// A cold first call of a tiny op under load: bufio's
		// ReaderWriteToOptimal, recorded at a load of 18.
		{"a tiny op", ramp(236_891, 0, 258, 100, 100_000), false, nil},
		{"no time per op", ramp(154_363, 0, 0, 100, 100_000), false, nil},
		{"too few calls", ramp(1.5e6, 0, 10_800, 100), false, nil},
		// slices' Index_Large, recorded: 4 MB allocated in the timer, its
		// pages faulted in by the N=1 call only.
		{"faults in the first call", faulted(ramp(12.9e6, 0, 3_800, 200, 19_719), 1039, 51), false, nil},
		{"faults do not explain it all", faulted(ramp(12.9e6, 0, 3_800, 200, 19_719), 100, 51), true,
			[]string{"took 12.9 ms for N=1 (2.45 ms of it at most its 49 page faults beyond the later calls')"}},
	}
	for _, c := range cases {
		f, ok := inputConsumed(c.calls)
		if ok != c.want || ok && (f.Code != result.CodeInputConsumed || f.Severity != finding.Warn) {
			t.Errorf("%s: %v %+v, want %v", c.name, ok, f, c.want)
		}
		for _, s := range c.says {
			if !strings.Contains(f.Message, s) {
				t.Errorf("%s: %q does not say %q", c.name, f.Message, s)
			}
		}
	}
	// testdata/gotest/amortised's ParallelStart, recorded under load:
	// b.RunParallel's goroutines each sleep 30 ms per call, and the last
	// call, 240 ms, pulls the line's fixed cost down.
	parallel := []Record{{N: 1, Ns: 35_901_664}, {N: 1, Ns: 41_858_822}, {N: 3, Ns: 37_723_148}, {N: 13, Ns: 30_907_879},
		{N: 72, Ns: 30_334_569}, {N: 408, Ns: 30_873_274}, {N: 2276, Ns: 31_172_752}, {N: 12_582, Ns: 39_697_322},
		{N: 54_618, Ns: 30_500_645}, {N: 308_589, Ns: 30_789_404}, {N: 1_727_168, Ns: 34_275_102}, {N: 8_683_836, Ns: 36_438_065},
		{N: 41_068_809, Ns: 45_663_666}, {N: 154_987_669, Ns: 240_481_298}}
	if f, ok := inputConsumed(parallel); ok {
		t.Errorf("a fixed cost of 30 ms per call read as a consumed input: %s", f.Message)
	}
	for i := range parallel {
		parallel[i].Parallel = true
	}
	if f, ok := inputConsumed(parallel); ok {
		t.Errorf("b.RunParallel calls judged: %s", f.Message)
	}
	// b.Loop ramps inside one call: its first iteration is not timed alone.
	loop := ramp(1.5e6, 0, 10_800, 100, 9_500)
	loop[2].Loop = true
	if f, ok := inputConsumed(loop); ok {
		t.Errorf("b.Loop calls judged: %s", f.Message)
	}
}
