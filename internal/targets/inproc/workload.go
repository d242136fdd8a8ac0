package inproc

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
	// work did not run. Zero means result.DefaultFloorCycles.
	FloorCycles float64
	// ReadsMemory says the work reads its input from memory, so a measured
	// loop without a load has lost its work.
	ReadsMemory bool
	// Setup, when not nil, runs once before warm-up, outside any timing.
	Setup func()
	// Loop performs n ops and puts every result into a sink. It may be a
	// closure: its machine code is found from the function value.
	Loop func(n int)
	// Call, when not nil, performs one op, for timing single calls (run
	// --latency): the same contract as one op of Loop.
	Call func()
}
