package command

import (
	"testing"

	"github.com/benchy-dev/benchy/internal/harness"
)

// TestMaxRSSOfALargeChild: a child that touches 200 MiB reports about
// that (its Go runtime adds a few MiB).
func TestMaxRSSOfALargeChild(t *testing.T) {
	if raceEnabled {
		t.Skip("a race-enabled child's shadow memory doubles its RSS")
	}
	_, out := measure(t, Config{Command: childLine(t, "alloc", "200")}, pinned(t, 2))
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	const want = 200 << 10 // KiB
	for i, s := range out.Samples {
		got := s.Counters[CounterMaxRSS]
		if got < want*9/10 || got > want*11/10 {
			t.Errorf("sample %d: max-rss-kb %d, want %d within 10%%", i, got, want)
		}
		t.Logf("sample %d: max-rss-kb %d", i, got)
	}
}

// TestMaxRSSWhileBenchyIsLarge: the kernel counts the forking process's
// peak RSS as the child's at exec, so a small child forked by a process
// holding 300 MiB would report 300 MiB. Forked by the helper, it reports
// its own.
func TestMaxRSSWhileBenchyIsLarge(t *testing.T) {
	const bigMiB = 300
	big := make([]byte, bigMiB<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1
	}
	defer func() { sink = big[:1] }()
	if hwm := vmHWM("/proc/self/status"); hwm < bigMiB<<10 {
		t.Fatalf("the test process's peak RSS is %d KiB, not the %d MiB it touched", hwm, bigMiB)
	}
	_, out := measure(t, Config{Command: childLine(t, "alloc", "10")}, pinned(t, 2))
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	for i, s := range out.Samples {
		got, floor := s.Counters[CounterMaxRSS], s.Counters[CounterRSSFloor]
		if got >= bigMiB<<10 || floor >= bigMiB<<10 {
			t.Errorf("sample %d: max-rss-kb %d, rss-floor-kb %d of a 10 MiB child: the parent's %d MiB leaked into it", i, got, floor, bigMiB)
		}
		t.Logf("sample %d: max-rss-kb %d, rss-floor-kb %d", i, got, floor)
	}
	// For contrast, what forking from this process itself reports.
	_, local := measure(t, Config{Command: childLine(t, "alloc", "10"), Executor: NewLocalSpawner()}, harness.Options{
		CPU: lastCPU(t), Iters: 1, WarmupRuns: 0, Samples: 1})
	if local.Err == nil {
		s := local.Samples[0]
		t.Logf("forked by the test process itself: max-rss-kb %d, rss-floor-kb %d", s.Counters[CounterMaxRSS], s.Counters[CounterRSSFloor])
	}
}
