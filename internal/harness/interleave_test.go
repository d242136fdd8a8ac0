package harness

import (
	"reflect"
	"testing"
)

func TestRoundOrder(t *testing.T) {
	var two [][]int
	for r := range 4 {
		two = append(two, RoundOrder(2, r))
	}
	if want := [][]int{{0, 1}, {1, 0}, {0, 1}, {1, 0}}; !reflect.DeepEqual(two, want) {
		t.Errorf("two candidates: %v, want ABBA %v", two, want)
	}
	var three [][]int
	for r := range 4 {
		three = append(three, RoundOrder(3, r))
	}
	if want := [][]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 1, 2}}; !reflect.DeepEqual(three, want) {
		t.Errorf("three candidates: %v, want a rotation %v", three, want)
	}
	// Every candidate takes every position equally often over k rounds.
	for k := 1; k <= 5; k++ {
		count := make([][]int, k)
		for i := range count {
			count[i] = make([]int, k)
		}
		for r := range k * 2 {
			for pos, c := range RoundOrder(k, r) {
				count[c][pos]++
			}
		}
		for c := range count {
			for pos := range count[c] {
				if count[c][pos] != 2 {
					t.Errorf("k=%d: candidate %d at position %d %d times in %d rounds, want 2", k, c, pos, count[c][pos], 2*k)
				}
			}
		}
	}
}

func TestInterleaveSamplesEveryCandidateEveryRound(t *testing.T) {
	var order []string
	loop := func(name string) func(int) {
		return func(n int) {
			order = append(order, name)
			addLoop(n)
		}
	}
	opts := quickOptions(0)
	opts.Iters = 10
	opts.Samples = 4
	opts.Warmup = 1 // one warm-up run each
	outs := Interleave([]Workload{{Name: "a", Loop: loop("a")}, {Name: "b", Loop: loop("b")}}, opts)
	for _, o := range outs {
		if o.Err != nil || len(o.Samples) != 4 {
			t.Fatalf("%s: err %v, %d samples; want 4", o.Workload.Name, o.Err, len(o.Samples))
		}
	}
	// After each candidate's warm-up, the samples run a b | b a | a b | b a,
	// then one untimed run each counts allocations.
	tail := order[len(order)-10:]
	if want := []string{"a", "b", "b", "a", "a", "b", "b", "a", "a", "b"}; !reflect.DeepEqual(tail, want) {
		t.Errorf("run order %v, want %v", tail, want)
	}
}

func TestInterleaveStoppedStillCountsAllocations(t *testing.T) {
	stop := make(chan struct{})
	opts := quickOptions(0)
	opts.Iters = 10
	opts.Samples = 1000
	opts.Stop = stop
	opts.Progress = func(p Progress) {
		if p.Phase == "sampling" && p.Sample == 2 {
			select {
			case <-stop:
			default:
				close(stop)
			}
		}
	}
	alloc := func(n int) {
		for range n {
			testBytes = make([]byte, 64)
		}
	}
	outs := Interleave([]Workload{{Name: "a", Loop: alloc}, {Name: "b", Loop: alloc}}, opts)
	for _, o := range outs {
		if !o.Interrupted || len(o.Samples) == 0 || len(o.Samples) > 3 {
			t.Errorf("%s: interrupted %v, %d samples; want stopped after round 3", o.Workload.Name, o.Interrupted, len(o.Samples))
		}
		if o.AllocsPerOp != 1 {
			t.Errorf("%s: allocs/op %v after a stop, want 1 (measured on one op)", o.Workload.Name, o.AllocsPerOp)
		}
	}
}
