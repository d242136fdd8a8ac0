// Package harness runs workloads the way a careful person would by hand:
// pinned to one CPU with Go's own threads kept off it, collector quiet,
// warmed up, calibrated so every sample is long against the clock, and
// sampled many times. It knows nothing of output formats.
package harness

// Workload is one experiment: a loop whose time per op is measured.
type Workload struct {
	// Name is "family/variant", e.g. "sum/sink".
	Name string
	// Description says in one line what the experiment demonstrates and what
	// the user should expect to see.
	Description string
	// Units is how many units of work one op performs (e.g. 4096 additions).
	Units float64
	// Unit names one unit of work, singular ("add", "multiply").
	Unit string
	// FloorCycles is the least time in cycles one unit could take on the
	// best core there is; a median below Units*FloorCycles cycles means the
	// work did not run. Zero means DefaultFloorCycles.
	FloorCycles float64
	// ReadsMemory says the work reads its input from memory, so a measured
	// loop without a load has lost its work.
	ReadsMemory bool
	// Setup, when not nil, runs once before warm-up, outside any timing.
	Setup func()
	// Loop performs n ops and puts every result into a sink. It is a named
	// function, not a closure, so its machine code can be found and shown.
	Loop func(n int)
}

// DefaultFloorCycles is the floor per unit when a workload declares none:
// adding one uint64 streamed from L1 with the widest vectors (AVX-512: 8
// lanes, two adds per cycle) takes about 1/16 cycle; nothing simpler is
// worth measuring.
const DefaultFloorCycles = 1.0 / 16

// Floor returns the declared floor per unit, or the default.
func (w Workload) Floor() float64 {
	if w.FloorCycles > 0 {
		return w.FloorCycles
	}
	return DefaultFloorCycles
}
