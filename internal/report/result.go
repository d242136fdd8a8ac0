// Package report turns raw samples into statistics, findings and verdicts,
// and writes results as text, JSON, CSV or Go benchmark format. It knows
// nothing of pinning or of how samples were taken.
package report

import (
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine"
)

// SchemaVersion is the version of the JSON result format. It grows when a
// field changes meaning or is removed; adding a field does not change it.
const SchemaVersion = 1

// Result is everything one `benchy run` measured and knew. It is what the
// JSON file holds, and what every writer renders.
type Result struct {
	Schema  int       `json:"schema"`
	Tool    string    `json:"tool"`    // "benchy <version>"
	Command []string  `json:"command"` // os.Args
	Start   time.Time `json:"start"`
	End     time.Time `json:"end"`
	// Interrupted is true when the run was stopped (Ctrl-C) before the end:
	// what was measured is kept, the rest is missing.
	Interrupted bool `json:"interrupted,omitempty"`

	CPU        int    `json:"cpu"`        // the CPU the measured thread was pinned to
	CPUChoice  string `json:"cpu_choice"` // why this CPU: "--cpu 2" or the chooser's reason
	GOMAXPROCS int    `json:"gomaxprocs"` // set explicitly before pinning

	Settings Settings `json:"settings"`
	Clock    Clock    `json:"clock"`

	Before *machine.Snapshot `json:"machine_before,omitempty"`
	After  *machine.Snapshot `json:"machine_after,omitempty"`
	// BusyDuring is how busy every CPU was between the start and the end of
	// the measurement, from /proc/stat read before and after.
	BusyDuring []machine.CPUBusy `json:"busy_during,omitempty"`
	// Environment holds the machine checks for the pinned CPU.
	Environment []finding.Finding `json:"environment,omitempty"`

	Experiments []Experiment `json:"experiments"`
}

// Settings are the options the run was made with.
type Settings struct {
	Bench      string        `json:"bench"`
	Samples    int           `json:"samples"`
	Warmup     time.Duration `json:"warmup_ns"`
	SampleTime time.Duration `json:"sample_time_ns"`
	Iters      int64         `json:"iters,omitempty"` // fixed iterations per sample, 0 = calibrated
	GC         bool          `json:"gc"`              // collector left on during samples
	Isolate    bool          `json:"isolate"`         // other threads kept off the measured CPU
	Smoke      bool          `json:"smoke,omitempty"`
	Window     time.Duration `json:"window_ns"` // busy window of the header snapshot
}

// Clock describes time.Now as measured at the start of the run.
type Clock struct {
	NowCostNs     float64 `json:"now_cost_ns"`    // mean cost of one time.Now call
	GranularityNs float64 `json:"granularity_ns"` // smallest non-zero step seen
}

// Experiment is one workload's result.
type Experiment struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Units       float64 `json:"units"`        // units of work per op
	Unit        string  `json:"unit"`         // what one unit is
	FloorCycles float64 `json:"floor_cycles"` // least cycles per unit on any core
	ReadsMemory bool    `json:"reads_memory,omitempty"`

	// Error is set when the workload failed (panicked, pin did not hold);
	// then Samples may be empty.
	Error string `json:"error,omitempty"`

	Iters   int64            `json:"iters_per_sample"`
	Samples []harness.Sample `json:"samples"`
	GC      GCStats          `json:"gc"`

	// Stats, Findings and Verdict are derived from the fields above (and the
	// run's clock and machine); `benchy report` recomputes them.
	Stats    Stats             `json:"stats"`
	Findings []finding.Finding `json:"findings,omitempty"`
	Verdict  string            `json:"verdict,omitempty"`
}

// GCStats is measured around the whole sampling phase, outside timing.
type GCStats struct {
	Cycles      uint32  `json:"cycles"`        // GC cycles completed while sampling
	AllocsPerOp float64 `json:"allocs_per_op"` // heap allocations per op
	BytesPerOp  float64 `json:"bytes_per_op"`  // heap bytes per op
}

// Stats is the distribution of ns/op over the samples; see README for
// each definition.
type Stats struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	MAD    float64 `json:"mad"`
}
