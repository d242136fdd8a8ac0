package result

// Weights of the estimated cycles: an L1 hit costs 1, a last-level hit 5,
// an access that goes to memory 35. They are the weights iai (and
// CodSpeed's instrumented mode) use, so figures can be set beside theirs.
// They model no real CPU: the figure is an estimate of cost, never a time.
const (
	weightL1  = 1
	weightLL  = 5
	weightRAM = 35
)

// Events of callgrind's cache simulation (--cache-sim=yes), as callgrind
// names them; EventIr is stored as EventInstructions.
const (
	EventIr   = EventInstructions // instructions executed (callgrind's Ir)
	EventDr   = "Dr"              // data reads
	EventDw   = "Dw"              // data writes
	EventI1mr = "I1mr"            // L1 instruction read misses
	EventD1mr = "D1mr"            // L1 data read misses
	EventD1mw = "D1mw"            // L1 data write misses
	EventILmr = "ILmr"            // last-level instruction read misses
	EventDLmr = "DLmr"            // last-level data read misses
	EventDLmw = "DLmw"            // last-level data write misses
)

// CacheEvents are the events the estimate needs, all present only with a
// cache simulation.
var CacheEvents = []string{EventIr, EventDr, EventDw, EventI1mr, EventD1mr, EventD1mw, EventILmr, EventDLmr, EventDLmw}

// EstimatedCycles is L1 hits + 5 × LL hits + 35 × RAM accesses from
// callgrind's cache events (at any scale: totals or per op); false when an
// event is missing (no cache simulation). Every instruction fetch and
// every data access is an access; a miss of L1 that hits the last level
// is an LL hit; a miss of the last level goes to memory.
func EstimatedCycles(ev map[string]float64) (float64, bool) {
	for _, e := range CacheEvents {
		if _, ok := ev[e]; !ok {
			return 0, false
		}
	}
	accesses := ev[EventIr] + ev[EventDr] + ev[EventDw]
	l1Miss := ev[EventI1mr] + ev[EventD1mr] + ev[EventD1mw]
	ram := ev[EventILmr] + ev[EventDLmr] + ev[EventDLmw]
	l1Hits := accesses - l1Miss
	llHits := l1Miss - ram
	return weightL1*l1Hits + weightLL*llHits + weightRAM*ram, true
}
