package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// spin busies the thread for about d: a call long enough to time alone.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

func spinLoop(n int) {
	for range n {
		spin(2 * time.Microsecond)
	}
}

// --latency: every call of the samples is in the histogram, one window per
// sample, the clock's cost measured; none of the warm-up's or the
// calibration's calls is.
func TestRunLatencyKeepsEveryCall(t *testing.T) {
	if !harness.CanPin {
		t.Skip("pinning needs Linux")
	}
	w := inproc.Workload{Name: "test/spin", Loop: spinLoop, Call: func() { spin(2 * time.Microsecond) }}
	plan := quickPlan()
	plan.Settings.Latency = true
	r, err := Run(context.Background(), plan, []Target{inproc.New(w, inproc.Options{Latency: true, GC: true})})
	if err != nil {
		t.Fatal(err)
	}
	e := r.Experiments[0]
	l := e.Latency
	if e.Error != "" || l == nil {
		t.Fatalf("error %q, latency %v: want the calls kept", e.Error, l)
	}
	var iters int64
	for _, s := range e.Samples {
		iters += s.Iters
	}
	if l.Calls != uint64(iters) || len(l.Windows) != len(e.Samples) || !(l.ClockCostNs > 0) {
		t.Errorf("%d calls in %d windows, clock cost %v ns; the samples made %d calls in %d", l.Calls, len(l.Windows), l.ClockCostNs, iters, len(e.Samples))
	}
	if l.MinNs < 1000 || l.MaxNs < l.MinNs || len(l.Buckets) == 0 {
		t.Errorf("calls of at least 2µs read %d..%d ns in %d buckets", l.MinNs, l.MaxNs, len(l.Buckets))
	}
}

// A call too short to time alone is refused before anything is reported:
// bad usage, one line that says what to do instead.
func TestRunLatencyRefusesShortCalls(t *testing.T) {
	if !harness.CanPin {
		t.Skip("pinning needs Linux")
	}
	w := inproc.Workload{Name: "test/nothing", Loop: func(n int) {}, Call: func() {}}
	r, err := Run(context.Background(), quickPlan(), []Target{inproc.New(w, inproc.Options{Latency: true})})
	if !errors.Is(err, ErrUsage) || r != nil {
		t.Fatalf("result %v, error %v: want no result and bad usage", r != nil, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "test/nothing") || !strings.Contains(msg, "time them in batches instead") || strings.Contains(msg, "\n") {
		t.Errorf("message %q: want one line naming the experiment and what to do", msg)
	}
}
