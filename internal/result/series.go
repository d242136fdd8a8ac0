package result

import "slices"

// Series is the shape of an experiment's samples in run order, one series
// per process, as the analysis classified it (changepoints, Barrett et
// al. 2017). It is stored so that every writer draws what the verdict was
// decided on, and none searches for changepoints again.
type Series struct {
	// Class is the experiment's shape across its processes: "flat",
	// "warmup", "slowdown", "no steady state" or "inconsistent".
	Class string `json:"class"`
	// Reason is the classification in one line a person reads.
	Reason string `json:"reason,omitempty"`
	// Processes holds one series per process, in the order of
	// ProcessIndex.
	Processes []ProcessSeries `json:"processes"`
}

// ProcessSeries is the classification of one process's samples.
type ProcessSeries struct {
	// Judged is false when the series was too short or held a value
	// that is not a positive finite time: then nothing else is set.
	Judged bool   `json:"judged"`
	Class  string `json:"class,omitempty"`
	// Changes are the positions in this process's series (not indices
	// into the experiment's samples) where a new level starts.
	Changes []int `json:"changes,omitempty"`
	// Segments are the levels between the changes, in run order.
	Segments []Segment `json:"segments,omitempty"`
}

// Segment is a run of a process's samples at one level: positions
// Start up to End (exclusive) of its series, and their median ns/op.
type Segment struct {
	Start  int     `json:"start"`
	End    int     `json:"end"`
	Median float64 `json:"median"`
}

// Judged reports whether any process's series could be classified.
func (s *Series) Judged() bool {
	return s != nil && slices.ContainsFunc(s.Processes, func(p ProcessSeries) bool { return p.Judged })
}

// ProcessIndex maps each process's series to e's samples: ProcessIndex()[p][i]
// is the index in e.Samples of the i-th sample of the p-th process, the
// processes in ascending order of their number. Samples without iterations
// take no part.
func (e Experiment) ProcessIndex() [][]int {
	var procs []int
	byProc := map[int][]int{}
	for i, s := range e.Samples {
		if s.Iters <= 0 {
			continue
		}
		if _, ok := byProc[s.Process]; !ok {
			procs = append(procs, s.Process)
		}
		byProc[s.Process] = append(byProc[s.Process], i)
	}
	slices.Sort(procs)
	out := make([][]int, len(procs))
	for k, p := range procs {
		out[k] = byProc[p]
	}
	return out
}
