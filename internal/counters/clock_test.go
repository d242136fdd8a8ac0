package counters

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/sink"
)

// TestAddChainCounts checks that the chain makes exactly 16 adds per turn,
// the number MeasureClock divides by.
func TestAddChainCounts(t *testing.T) {
	for _, turns := range []uint64{0, 1, 7, 1000} {
		if got, want := addChain(turns, 3, 5), turns*addsPerTurn/2*(3+5); got != want {
			t.Errorf("addChain(%d, 3, 5) = %d, want %d", turns, got, want)
		}
	}
}

func TestMeasureClock(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	hz := MeasureClock(20 * time.Millisecond)
	if hz <= 0 || math.IsInf(hz, 0) || math.IsNaN(hz) {
		t.Fatalf("MeasureClock = %g Hz", hz)
	}
	t.Logf("effective clock %.0f MHz", hz/1e6)
}

func BenchmarkAddChain(b *testing.B) {
	for b.Loop() {
		sink.Keep(addChain(1000, addA, addB))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000*addsPerTurn), "ns/add")
}
