package inproc

import (
	"maps"
	"slices"
	"testing"
	"time"
)

// A sample runs in chunks no longer than chunkTime at the last time per
// iteration measured, which together do its n iterations; the first
// sample, with nothing measured yet, and calls timed one by one, run
// whole.
func TestSampleRunsInChunks(t *testing.T) {
	var got []int
	tg := New(Workload{Name: "x", Loop: func(n int) { got = append(got, n) }}, Options{})
	if k := tg.chunks(1000); k != 1 {
		t.Errorf("nothing measured yet: %d chunks, want 1", k)
	}
	tg.nsPerOp = float64(time.Millisecond) // 1000 iterations: 1 s
	if k := tg.chunks(1000); k != 125 {
		t.Errorf("1 s at 8 ms a chunk: %d chunks, want 125", k)
	}
	got = nil
	tg.nsPerOp = float64(20*time.Millisecond) / 1001
	s, err := tg.Sample(1001)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{334, 334, 333}; !slices.Equal(got, want) || s[0].Iters != 1001 {
		t.Errorf("chunks %v, sample of %d iterations; want %v, 1001", got, s[0].Iters, want)
	}
	tg.calls = &calls{}
	if k := tg.chunks(1001); k != 1 {
		t.Errorf("calls timed one by one: %d chunks, want 1", k)
	}
}

// The counts of a sample are the sum of its chunks'; a count one chunk
// could not trust is left out of the sample.
func TestSumDeltas(t *testing.T) {
	sum := sumDeltas(nil, map[string]int64{"a": 1, "b": 2}, true)
	sum = sumDeltas(sum, map[string]int64{"a": 10, "b": 20}, false)
	sum = sumDeltas(sum, map[string]int64{"a": 100}, false)
	if want := map[string]int64{"a": 111}; !maps.Equal(sum, want) {
		t.Errorf("sum %v, want %v", sum, want)
	}
}
