package result

// Profile is what --profile recorded of an experiment: where its profiles
// are and a short summary of them. The profiles cover the measured calls
// only (not warm-up, calibration, testing's ramp or benchy's own work
// between samples); the files are pprof's format, read with go tool pprof.
// The result keeps paths and the top functions, never the profiles.
type Profile struct {
	// CPU is the path of the CPU profile; Alloc that of the allocation
	// profile (alloc_space and alloc_objects of the measured calls),
	// empty when they allocated nothing the profiler sampled.
	CPU   string `json:"cpu,omitempty"`
	Alloc string `json:"alloc,omitempty"`
	// Samples is how many samples the CPU profile holds: Go's profiler
	// takes one per 10ms of CPU time (100 Hz), so a profile of 300ms of
	// calls has about 30, too few to read (see ProfileMinSamples).
	Samples int `json:"samples"`
	// Ops is the number of ops the profiles cover, the divisor of every
	// per-op value below.
	Ops int64 `json:"ops"`
	// CPUNsPerOp is the CPU time the profile holds per op (every thread);
	// AllocBytesPerOp the bytes the allocation profile holds per op (an
	// estimate: Go samples one allocation per 512 KiB).
	CPUNsPerOp      float64 `json:"cpu_ns_per_op"`
	AllocBytesPerOp float64 `json:"alloc_bytes_per_op,omitempty"`
	// Top are the functions with the most CPU time of their own (flat),
	// per op in ns, with their cumulative time; AllocTop the functions
	// that allocated most, per op in bytes.
	Top      []ProfileEntry `json:"top,omitempty"`
	AllocTop []ProfileEntry `json:"alloc_top,omitempty"`
	// Error says why there is no profile, or only part of one.
	Error string `json:"error,omitempty"`
}

// ProfileEntry is one function of a profile, per op: its own time (or
// bytes) and that of everything it called too.
type ProfileEntry struct {
	Func string  `json:"func"`
	Flat float64 `json:"flat"`
	Cum  float64 `json:"cum"`
}

// ProfileMinSamples is the least number of CPU samples a profile needs
// before its shares are worth reading: a function with a share s of n
// samples has a standard error of sqrt(s(1-s)/n), about 3 points for a
// 10% function at 100 samples, and 5 at 30.
const ProfileMinSamples = 100

// Sparse reports whether the CPU profile has too few samples to read.
func (p *Profile) Sparse() bool { return p != nil && p.CPU != "" && p.Samples < ProfileMinSamples }

// ProfileDiff is the difference of the CPU profiles of one benchmark on two
// revisions (gotest --against --profile): new minus old by function, as
// pprof -diff_base computes it, with old scaled to new's ops so the sums
// are per op.
type ProfileDiff struct {
	Name string `json:"name"`
	// Path is the difference as a profile: go tool pprof -top PATH.
	Path string `json:"path,omitempty"`
	// OldSamples and NewSamples are the samples of each side's profile.
	OldSamples int `json:"old_samples"`
	NewSamples int `json:"new_samples"`
	// OldNsPerOp and NewNsPerOp are each side's CPU time per op in its
	// profile.
	OldNsPerOp float64 `json:"old_ns_per_op"`
	NewNsPerOp float64 `json:"new_ns_per_op"`
	// Rows are the functions whose time changed most, what grew most
	// first, then what shrank most last.
	Rows  []ProfileDelta `json:"rows,omitempty"`
	Error string         `json:"error,omitempty"`
}

// ProfileDelta is one function's time per op (ns) on each side.
type ProfileDelta struct {
	Func    string  `json:"func"`
	OldFlat float64 `json:"old_flat"`
	NewFlat float64 `json:"new_flat"`
	OldCum  float64 `json:"old_cum"`
	NewCum  float64 `json:"new_cum"`
}

// FlatDelta is the change of the function's own time per op, new - old.
func (d ProfileDelta) FlatDelta() float64 { return d.NewFlat - d.OldFlat }

// CumDelta is the change of its cumulative time per op.
func (d ProfileDelta) CumDelta() float64 { return d.NewCum - d.OldCum }
