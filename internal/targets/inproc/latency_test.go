package inproc

import (
	"strings"
	"testing"
	"time"
)

// spinFor is a call that takes at least d, whatever the machine does.
func spinFor(d time.Duration) func() {
	return func() {
		for start := time.Now(); time.Since(start) < d; {
		}
	}
}

// With a rate, the samples' calls are timed twice, from their start and
// from their intended start: as many calls in both, a window per sample
// with its lag, the rate asked and the one achieved.
func TestLatencyOpenLoop(t *testing.T) {
	tg := New(Workload{Name: "x", Loop: func(int) {}, Call: spinFor(20 * time.Microsecond)}, Options{Latency: true, Rate: 10000})
	if err := tg.Open(); err != nil {
		t.Fatal(err)
	}
	defer tg.Close(0)
	if _, err := tg.Time(5); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := tg.Sample(20); err != nil {
			t.Fatal(err)
		}
	}
	l := tg.Latency()
	r := l.Rate
	if r == nil {
		t.Fatal("no rate recorded")
	}
	if l.Calls != 60 || r.Open.Calls != 60 || len(l.Windows) != 3 {
		t.Errorf("%d calls, %d open, %d windows: want 60, 60, 3 (the warm-up's are not kept)", l.Calls, r.Open.Calls, len(l.Windows))
	}
	if r.PerSecond != 10000 || r.IntervalNs != 100_000 || r.Achieved <= 0 || r.FellBehind {
		t.Errorf("rate %+v: want 10000/s asked, 100 µs apart, some achieved, not fallen behind", *r)
	}
	// A call is never timed shorter from its intended start than from its
	// actual start.
	if r.Open.MaxNs < l.MaxNs || r.Open.MinNs < l.MinNs || r.Open.SumNs < l.SumNs {
		t.Errorf("open loop %d..%d (sum %d) below the closed %d..%d (sum %d)", r.Open.MinNs, r.Open.MaxNs, r.Open.SumNs, l.MinNs, l.MaxNs, l.SumNs)
	}
}

// Calls of 200 µs asked at 100,000 a second (10 µs apart) end further
// behind every sample: the sixth sample stops the sampling and says so,
// and the rate is marked fallen behind.
func TestLatencyOpenLoopFallsBehind(t *testing.T) {
	tg := New(Workload{Name: "x", Loop: func(int) {}, Call: spinFor(200 * time.Microsecond)}, Options{Latency: true, Rate: 100000})
	if err := tg.Open(); err != nil {
		t.Fatal(err)
	}
	defer tg.Close(0)
	var err error
	samples := 0
	for ; samples < 20 && err == nil; samples++ {
		_, err = tg.Sample(10)
	}
	if err == nil || !strings.Contains(err.Error(), "cannot keep up with 100000/s") || !strings.Contains(err.Error(), "lower --rate") {
		t.Fatalf("error %v, want cannot keep up", err)
	}
	if samples != 6 {
		t.Errorf("stopped at sample %d, want 6 (5 growing lags after the first)", samples)
	}
	if r := tg.Latency().Rate; r == nil || !r.FellBehind || r.MaxLagNs < 10_000_000 || r.Achieved >= 5001 {
		t.Errorf("rate %+v: want fallen behind, over 10 ms behind, under 5000/s achieved", r)
	}
}
