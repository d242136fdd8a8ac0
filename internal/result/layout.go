package result

// LayoutSensitive is the verdict of a comparison whose change the code
// layout alone moves a benchmark by (gotest --layouts): a difference of
// that size may be the linker's placing of functions, not the code. It is
// not judged: a gate cannot rely on it.
const LayoutSensitive = "layout-sensitive"

// Layouts says how the binaries were linked with --layouts: each revision
// K times with -ldflags=-randlayout=SEED (the Go linker's shuffle of the
// order of functions), and what the layouts did to each benchmark.
type Layouts struct {
	// Seeds are the seeds, one per layout, in order: the same seeds build
	// the same binaries.
	Seeds []int64 `json:"seeds"`
	// Processes is how many processes each layout of each revision ran.
	Processes  int            `json:"processes"`
	Benchmarks []LayoutSpread `json:"benchmarks"`
}

// LayoutSpread is how much the layouts moved one benchmark, apart from how
// much its processes moved it.
type LayoutSpread struct {
	Name string `json:"name"`
	// Old and New are each layout's median ns/op (the median of its
	// processes' medians), in the order of Seeds; Old is empty without
	// --against.
	Old []float64 `json:"old,omitempty"`
	New []float64 `json:"new"`
	// Range is the largest difference between two layouts' medians of a
	// side, relative to that side's median, as measured: it holds process
	// noise too (the process SD over the square root of the processes per
	// layout).
	Range float64 `json:"range"`
	// Move is what layouts alone move the benchmark by: twice LayoutSD,
	// the half-width of the band about 95% of layouts fall in.
	Move float64 `json:"move"`
	// LayoutSD and ProcessSD are the two parts of the variation of the
	// process medians, relative to the median, pooled over the sides: the
	// standard deviation between layouts (one-way random effects, the
	// process noise taken out) and that between the processes of one
	// layout.
	LayoutSD  float64 `json:"layout_sd"`
	ProcessSD float64 `json:"process_sd"`
	// Change is the change the comparison claimed (new/old - 1), and
	// Sensitive says layouts alone move the benchmark at least as much
	// (Move >= |Change|).
	Change    float64 `json:"change,omitempty"`
	Sensitive bool    `json:"sensitive,omitempty"`
}
