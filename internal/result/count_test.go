package result

import (
	"testing"
)

func TestEstimatedCycles(t *testing.T) {
	// 100 instructions, 40 reads, 10 writes: 150 accesses; 20 miss L1, of
	// which 5 miss the last level: 130 L1 hits + 5 × 15 + 35 × 5.
	ev := map[string]float64{EventIr: 100, EventDr: 40, EventDw: 10, EventI1mr: 2, EventD1mr: 15, EventD1mw: 3,
		EventILmr: 1, EventDLmr: 3, EventDLmw: 1}
	got, ok := EstimatedCycles(ev)
	if !ok || got != 130+5*15+35*5 {
		t.Errorf("EstimatedCycles = %v, %v; want %v", got, ok, 130+5*15+35*5)
	}
	delete(ev, EventDLmw)
	if _, ok := EstimatedCycles(ev); ok {
		t.Error("an estimate with an event missing")
	}

}
