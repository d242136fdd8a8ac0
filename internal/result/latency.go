package result

// Latency is what `run --latency` kept of every single call of an
// experiment's Call: the calls' times, less the clock's own cost, in a
// log-bucketed histogram (internal/latency says how it is bucketed), and
// what the analysis derived from it. For `benchy exec` (Runs) each run of
// the program is a call: the analysis fills it from the runs' times.
type Latency struct {
	// Calls is how many calls were timed; MinNs, MaxNs and SumNs are
	// exact (not bucketed).
	Calls uint64 `json:"calls"`
	MinNs int64  `json:"min_ns"`
	MaxNs int64  `json:"max_ns"`
	SumNs uint64 `json:"sum_ns"`
	// Runs says the calls are whole runs of a program (exec, a
	// KindProcess experiment): the histogram holds the wall time of each
	// run the statistics judge, the analysis derives it from the samples
	// (`benchy report` too), and no clock cost is subtracted (a run is
	// millions of times the clock's cost).
	Runs bool `json:"runs,omitempty"`
	// ClockCostNs is what timing one call costs (two readings of the
	// monotonic clock with nothing between, their median difference),
	// measured on the pinned thread before the calls and subtracted from
	// every call; a call that came out below it counts as 0.
	ClockCostNs float64 `json:"clock_cost_ns"`
	// SubBits sets the buckets: values below 2^SubBits ns have a bucket
	// each, above that every power of two is cut into 2^(SubBits-1)
	// buckets, so a bucket is at most 1/2^(SubBits-1) of its value wide.
	SubBits int `json:"sub_bits"`
	// Buckets are the non-empty buckets, ascending.
	Buckets []LatencyBucket `json:"buckets"`
	// GCCycles counts the collections that completed while the calls
	// were timed; Windows are the runs of calls between two readings of
	// the collector's count (one per sample), so a slow call can be laid
	// beside the collections of its window.
	GCCycles uint32          `json:"gc_cycles"`
	Windows  []LatencyWindow `json:"windows,omitempty"`
	// Rate is the open loop of `run --rate`: the calls started at fixed
	// intended times, and timed from them too. Nil for a closed loop
	// (each call as soon as the one before it ended).
	Rate *LatencyRate `json:"rate,omitempty"`

	// Derived by the analysis (`benchy report` recomputes them).
	Percentiles []Percentile `json:"percentiles,omitempty"`
	// Tail is the heavy-tail measure: the calls beyond TailFactor times
	// the median, their share of the calls and of the time.
	Tail *Tail `json:"tail,omitempty"`
}

// LatencyBucket is one bucket of a latency histogram: the calls whose
// time (in ns) lies in [LowNs, the next bucket's LowNs).
type LatencyBucket struct {
	LowNs int64  `json:"low_ns"`
	Count uint64 `json:"count"`
}

// Percentile is one percentile of the calls' times with its
// distribution-free confidence interval (order statistics).
type Percentile struct {
	// P is the quantile, 0.999 for p99.9; Name its label ("p99.9").
	P    float64 `json:"p"`
	Name string  `json:"name"`
	// Need is the fewest calls that report it: 10 beyond it, 10/(1-P).
	// With fewer, Reported is false and Ns and the interval are absent.
	Need     uint64 `json:"need"`
	Reported bool   `json:"reported"`
	Ns       int64  `json:"ns,omitempty"`
	// LoNs and HiNs bound it at Level with Coverage its exact level; an
	// end no call reaches is -1.
	LoNs     int64   `json:"lo_ns,omitempty"`
	HiNs     int64   `json:"hi_ns,omitempty"`
	Level    float64 `json:"level,omitempty"`
	Coverage float64 `json:"coverage,omitempty"`
}

// Tail is the share of the calls, and of their time, that took more than
// Factor times the median.
type Tail struct {
	Factor    float64 `json:"factor"`
	AboveNs   int64   `json:"above_ns"`
	Calls     uint64  `json:"calls"`
	CallShare float64 `json:"call_share"`
	TimeShare float64 `json:"time_share"`
	// Windows counts the windows whose slowest call is in the tail, and
	// WindowsGC those of them in which a collection completed.
	Windows   int `json:"windows"`
	WindowsGC int `json:"windows_gc"`
}

// HeavyTailShare: the calls beyond TailFactor times the median holding at
// least 5% of the time is a heavy tail (heavy-tail). Below that the slow
// calls move the mean by under 5%, the least change benchy calls a
// difference elsewhere; above it the mean, and a loop's time per op, are
// no longer the time of a usual call.
const HeavyTailShare = 0.05

// LatencyWindow is one run of timed calls (a sample): how many, the
// slowest, and the collections that completed during it. With --rate,
// LagNs is how far behind the timetable it ended.
type LatencyWindow struct {
	Calls    uint64 `json:"calls"`
	MaxNs    int64  `json:"max_ns"`
	GCCycles uint32 `json:"gc_cycles"`
	LagNs    int64  `json:"lag_ns,omitempty"`
}

// LatencyRate is the open loop of `run --rate`: call i of a window was
// due i intervals after its start (the timetable paused between windows,
// a backlog carried over). The Latency that holds it times each call
// from its actual start, as a closed loop does; Open times it from its
// intended start, as a client arriving on time sees it, the wait behind a
// stall included.
type LatencyRate struct {
	// PerSecond is the rate asked, IntervalNs the time between two
	// intended starts; Achieved is the calls per second of the windows
	// on their timetable: PerSecond when the calls kept up.
	PerSecond  float64 `json:"per_second"`
	IntervalNs int64   `json:"interval_ns"`
	Achieved   float64 `json:"achieved"`
	// MaxLagNs is the most a window ended behind the timetable.
	MaxLagNs int64 `json:"max_lag_ns"`
	// FellBehind says the calls could not keep up: the lag grew at the
	// end of each of the last windows (latency.FellBehind), and the
	// sampling stopped there. Open then describes a queue that grew
	// without bound, not the calls.
	FellBehind bool `json:"fell_behind,omitempty"`
	// Open holds the calls' times from their intended start: the
	// histogram and, derived by the analysis, the percentiles.
	Open Latency `json:"open"`
}
