package sink

import "testing"

// The harness loop with a sink must cost within 1 ns per iteration: these
// benchmarks put it beside an empty b.Loop measured in the same run.

func BenchmarkEmptyBLoop(b *testing.B) {
	for b.Loop() {
	}
}

//go:noinline
func keepLoop(n int) {
	for i := range n {
		Keep(i)
	}
}

//go:noinline
func sinkLoop(n int) {
	for i := range n {
		SinkInt = i
	}
}

func BenchmarkHarnessLoopKeep(b *testing.B) { keepLoop(b.N) }

func BenchmarkHarnessLoopSink(b *testing.B) { sinkLoop(b.N) }

func TestKeepAndSinksCompile(t *testing.T) {
	keepLoop(3)
	sinkLoop(3)
	if SinkInt != 2 {
		t.Errorf("SinkInt = %d after sinkLoop(3), want 2", SinkInt)
	}
}
