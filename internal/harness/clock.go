package harness

import "time"

// ClockInfo is what time.Now costs and how finely it steps on this
// machine, measured once per run.
type ClockInfo struct {
	NowCost     time.Duration // mean cost of one call, as a float in ns below
	NowCostNs   float64
	Granularity time.Duration // smallest non-zero step between two readings
}

// clockCalls is how many readings MeasureClock takes: enough to average
// the call cost to a fraction of a ns, few enough to stay under a ms.
const clockCalls = 20000

// MeasureClock measures the cost and granularity of the monotonic clock
// that time.Since reads.
func MeasureClock() ClockInfo {
	start := time.Now()
	prev := start
	var step time.Duration
	for range clockCalls {
		now := time.Now()
		if d := now.Sub(prev); d > 0 && (step == 0 || d < step) {
			step = d
		}
		prev = now
	}
	total := prev.Sub(start)
	cost := float64(total.Nanoseconds()) / clockCalls
	if step == 0 {
		// Never stepped in clockCalls readings: the step is at least the
		// whole span.
		step = max(total, 1)
	}
	return ClockInfo{NowCost: time.Duration(cost), NowCostNs: cost, Granularity: step}
}
