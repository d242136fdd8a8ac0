//go:build linux

package harness_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/targets/fake"
)

func TestRoundOrder(t *testing.T) {
	var two [][]int
	for r := range 4 {
		two = append(two, harness.RoundOrder(2, r))
	}
	if want := [][]int{{0, 1}, {1, 0}, {0, 1}, {1, 0}}; !reflect.DeepEqual(two, want) {
		t.Errorf("two candidates: %v, want ABBA %v", two, want)
	}
	var three [][]int
	for r := range 4 {
		three = append(three, harness.RoundOrder(3, r))
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
			for pos, c := range harness.RoundOrder(k, r) {
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
	var log []string
	a, b := fake.New("a", 1), fake.New("b", 1)
	a.Log, b.Log = &log, &log
	opts := quickOptions(0)
	opts.Iters = 10
	opts.Samples = 4
	outs := harness.Interleave([]harness.Target{a, b}, opts)
	for _, o := range outs {
		if o.Err != nil || len(o.Samples) != 4 {
			t.Fatalf("%s: err %v, %d samples; want 4", o.Name, o.Err, len(o.Samples))
		}
	}
	var samples []string
	for _, entry := range log {
		if entry == "a: sample 10" || entry == "b: sample 10" {
			samples = append(samples, entry[:1])
		}
	}
	if want := []string{"a", "b", "b", "a", "a", "b", "b", "a"}; !slices.Equal(samples, want) {
		t.Errorf("sample order %v, want ABBA %v", samples, want)
	}
	// Both are opened before the first sample and closed after the last.
	if log[0] != "a: open" || log[1] != "b: open" || log[len(log)-2] != "a: close completed" || log[len(log)-1] != "b: close completed" {
		t.Errorf("log %v: want both opened first and closed last", log)
	}
}

func TestInterleaveStopped(t *testing.T) {
	stop := make(chan struct{})
	opts := quickOptions(0)
	opts.Iters = 10
	opts.Samples = 1000
	opts.Stop = stop
	opts.Progress = func(p harness.Progress) {
		if p.Phase == "sampling" && p.Sample == 2 {
			select {
			case <-stop:
			default:
				close(stop)
			}
		}
	}
	a, b := fake.New("a", 1), fake.New("b", 1)
	outs := harness.Interleave([]harness.Target{a, b}, opts)
	for _, o := range outs {
		if !o.Interrupted || len(o.Samples) == 0 || len(o.Samples) > 3 {
			t.Errorf("%s: interrupted %v, %d samples; want stopped after round 3", o.Name, o.Interrupted, len(o.Samples))
		}
	}
	for _, ft := range []*fake.Target{a, b} {
		if last := ft.Calls[len(ft.Calls)-1]; last != "close stopped" {
			t.Errorf("%s closed with %q, want close stopped", ft.ID, last)
		}
	}
}
