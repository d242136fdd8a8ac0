package gotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"time"
)

// Record is one line the helper wrote to its descriptor: the start or the
// end of one call of a benchmark function. The records are the result of
// a test process; what the benchmark prints is never read as one.
type Record struct {
	Event string `json:"event"` // "start" or "end"
	Name  string `json:"name"`  // b.Name(): testing's full name, "BenchmarkX/sub", without a -GOMAXPROCS suffix
	N     int64  `json:"n"`

	// How the call ended (an end record).
	Returned bool   `json:"returned"` // false: b.FailNow, b.SkipNow (runtime.Goexit) or a panic ended it
	Failed   bool   `json:"failed"`
	Skipped  bool   `json:"skipped"`
	Panic    string `json:"panic"`    // what it panicked with
	PanicAt  string `json:"panic_at"` // where: "file.go:line"
	Subs     bool   `json:"subs"`     // testing's mark: it ran sub-benchmarks with b.Run

	// What was measured (the end of a call that returned).
	Ns       int64            `json:"ns"`   // b.Elapsed() after the call: what testing timed
	Wall     int64            `json:"wall"` // the whole call, timer stopped or not
	CPU      int              `json:"cpu"`
	Pinned   bool             `json:"pinned"`
	Parallel bool             `json:"parallel"`
	Counters map[string]int64 `json:"counters"`
	Func     string           `json:"func"` // the function's symbol
	// Mem says Allocs and Bytes were read: the heap allocations and bytes
	// testing counted while its timer ran (B/op and allocs/op times N).
	Mem      bool               `json:"mem"`
	Allocs   int64              `json:"allocs"`
	Bytes    int64              `json:"bytes"`
	SetBytes int64              `json:"set_bytes"` // b.SetBytes
	Metrics  map[string]float64 `json:"metrics"`   // b.ReportMetric
	// Profile is the prefix of the call's profile files (--profile):
	// PREFIX.cpu, PREFIX.heap0 and PREFIX.heap1.
	Profile string `json:"profile"`

	// Ended, Nested and Loop are not written by the helper: parseLog sets
	// them.
	Ended  bool `json:"-"` // the call has its end record
	Nested bool `json:"-"` // other calls began during it: it ran sub-benchmarks
	// Loop: the call began at one N and ended at another, which only a
	// benchmark written with b.Loop does: testing then ramps inside that
	// one call, and b.Loop's first iteration resets the timer.
	Loop bool `json:"-"`
}

// loops reports whether one of calls is of a benchmark written with
// b.Loop (Record.Loop): testing calls it once, ramping inside the call.
func loops(calls []Record) bool {
	return slices.ContainsFunc(calls, func(c Record) bool { return c.Loop })
}

// Leaf reports whether the call is of a benchmark testing reports: one
// that ran no sub-benchmark.
func (r Record) Leaf() bool { return !r.Subs && !r.Nested }

// Log is what the helper recorded in one process: every call, in the
// order the calls began (each the end record when it ended, else its start
// record), and the calls still under way when the process ended,
// outermost first.
type Log struct {
	Calls   []Record
	Running []Record
}

// parseLog reads the records. Benchmarks run one at a time and a
// sub-benchmark within its parent's call, so the calls nest: an end
// record ends the innermost call under way of its name. A line that is not
// a record (one cut short when the process was killed) is skipped, as is
// an end that matches no call.
func parseLog(data []byte) Log {
	var l Log
	var open []int // indexes into l.Calls of the calls under way
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var r Record
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		switch r.Event {
		case "start":
			if len(open) > 0 {
				l.Calls[open[len(open)-1]].Nested = true
			}
			open = append(open, len(l.Calls))
			l.Calls = append(l.Calls, Record{Event: r.Event, Name: r.Name, N: r.N})
		case "end":
			for i := len(open) - 1; i >= 0; i-- {
				c := &l.Calls[open[i]]
				if c.Name != r.Name {
					continue
				}
				r.Ended, r.Nested, r.Loop = true, c.Nested, c.N != r.N
				*c = r
				open = open[:i] // calls within it that never ended stay so
				break
			}
		}
	}
	for _, i := range open {
		l.Running = append(l.Running, l.Calls[i])
	}
	return l
}

// waitedOut reports whether testing's ramp of a leaf benchmark in l ended
// because its last call waited for a CPU: testing stops when a call lasts
// the sample time, and this one would have lasted less than half of it
// but for the time another task had the CPU (ownNs: a call without a run
// delay, where schedstat is missing, is taken as it is). A call that
// failed ended the ramp for that.
func (l Log) waitedOut(sampleTime time.Duration) bool {
	for _, name := range l.names() {
		calls := l.named(name)
		last := calls[len(calls)-1]
		if !last.Ended || !last.Returned || last.Failed || !last.Leaf() {
			continue
		}
		if last.Ns >= sampleTime.Nanoseconds() && ownNs(last) < sampleTime.Nanoseconds()/2 {
			return true
		}
	}
	return false
}

// named is the calls of the benchmark name.
func (l Log) named(name string) []Record {
	var out []Record
	for _, c := range l.Calls {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// parallel reports whether a call that returned ran b.RunParallel.
func (l Log) parallel() bool {
	for _, c := range l.Calls {
		if c.Ended && c.Returned && c.Parallel {
			return true
		}
	}
	return false
}

// names is the benchmarks that were called, in the order of their first
// call.
func (l Log) names() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range l.Calls {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c.Name)
		}
	}
	return out
}
