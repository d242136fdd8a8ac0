package inproc_test

import (
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// countingCounters counts its reads, so a sample's "reads" delta is how
// many stretches it was read around; "odd" is there on every other read
// only, as a count a source could not read every time.
type countingCounters struct{ reads int64 }

func (c *countingCounters) Read() (map[string]int64, error) {
	c.reads++
	m := map[string]int64{"reads": c.reads}
	if c.reads%4 != 0 {
		m["odd"] = c.reads
	}
	return m, nil
}
func (*countingCounters) Close() error { return nil }

// slowOps busy-waits at least a millisecond of wall time per op and
// records the iterations of each call.
type slowOps struct{ calls []int }

func (s *slowOps) loop(n int) {
	s.calls = append(s.calls, n)
	for range n {
		end := time.Now().Add(time.Millisecond)
		for time.Now().Before(end) {
		}
	}
}

func TestLongSampleRunsInStretches(t *testing.T) {
	ops := &slowOps{}
	src := &countingCounters{}
	target := inproc.New(inproc.Workload{Name: "test/slow", Loop: ops.loop}, inproc.Options{
		OpenCounters: func() (counters.Source, result.CounterReport) { return src, result.CounterReport{} },
	})
	if err := target.Open(); err != nil {
		t.Fatal(err)
	}
	defer target.Close(harness.EndStopped)
	// The first timed run knows no time per op and runs in one call.
	if _, err := target.Time(2); err != nil {
		t.Fatal(err)
	}
	if len(ops.calls) != 1 {
		t.Fatalf("first timed run made calls %v, want one", ops.calls)
	}
	// 30 ops of at least 1 ms are at least 30 ms: at least five stretches
	// of at most MaxStretch, at the time per op the last run measured.
	const n = 30
	ops.calls = nil
	samples, err := target.Sample(n)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, c := range ops.calls {
		sum += c
		if c < 1 {
			t.Errorf("a stretch of %d iterations", c)
		}
	}
	if sum != n || len(ops.calls) < int(n*time.Millisecond/inproc.MaxStretch) {
		t.Errorf("sample of %d ops ran as calls %v, want them all in at least %d stretches", n, ops.calls, n*time.Millisecond/inproc.MaxStretch)
	}
	s := samples[0]
	if s.Iters != n || s.Ns < int64(n*time.Millisecond) {
		t.Errorf("sample %+v, want %d iterations in at least %v", s, n, n*time.Millisecond)
	}
	if got := s.Counters["reads"]; got != int64(len(ops.calls)) {
		t.Errorf("reads delta %d over %d stretches: want the counters read around each", got, len(ops.calls))
	}
	if _, ok := s.Counters["odd"]; ok {
		t.Errorf("counters %v: a count missing from some stretch is in the sample's total", s.Counters)
	}
}

func TestShortSampleRunsInOneStretch(t *testing.T) {
	ops := &slowOps{}
	target := inproc.New(inproc.Workload{Name: "test/slow", Loop: ops.loop}, inproc.Options{})
	if err := target.Open(); err != nil {
		t.Fatal(err)
	}
	defer target.Close(harness.EndStopped)
	if _, err := target.Time(1); err != nil {
		t.Fatal(err)
	}
	ops.calls = nil
	if _, err := target.Sample(1); err != nil {
		t.Fatal(err)
	}
	if len(ops.calls) != 1 || ops.calls[0] != 1 {
		t.Errorf("a one-op sample ran as calls %v, want one call of one op", ops.calls)
	}
}
