package history

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/stats"
)

// Bases a point's value can be on, best last: the time of one op, the
// time the thread was on the CPU, either counted in cycles at the clock
// measured around the experiment, and instructions retired.
const (
	BasisTime         = "time"
	BasisOnCPU        = "on-CPU time"
	BasisCycles       = "cycles"
	BasisOnCPUCycles  = "on-CPU cycles"
	BasisInstructions = "instructions"
)

// Point is one experiment's value on one basis in one result.
type Point struct {
	Benchmark string
	Basis     string
	Median    float64 // per op, in ns, cycles or instructions
	Lo, Hi    float64 // the 95% interval of the median (Lo = Hi = Median when too few samples)
	N         int     // samples
	ClockHz   float64 // the clock measured around the experiment, 0 when not measured
	Codes     string  // the codes of the experiment's findings, comma-separated
}

// Row is one point with what it was measured on.
type Row struct {
	Point
	Hash     string
	Machine  string
	Package  string
	Source   Source
	Measured time.Time
}

// Key names one series: a benchmark of a package on a machine.
type Key struct {
	Package   string `json:"package,omitempty"`
	Benchmark string `json:"benchmark"`
	Machine   string `json:"machine"`
}

// Series is one benchmark's values over commits on one machine, on one
// basis.
type Series struct {
	Key
	Basis   string   `json:"basis"`
	Unit    string   `json:"unit"` // of the values: ns, cycles, instructions
	Commits []Commit `json:"commits"`
	// Dirty counts the results of trees with uncommitted changes, which
	// are stored but take no part: they measured no commit.
	Dirty int `json:"dirty_left_out,omitempty"`
}

// Commit is the value of one commit in a series: the median of the
// medians of its runs (one run: its median), and the widest interval of
// them.
type Commit struct {
	Source   Source    `json:"source"`
	Measured time.Time `json:"measured"` // the last run's time
	Value    float64   `json:"value"`
	Lo       float64   `json:"lo"`
	Hi       float64   `json:"hi"`
	Runs     int       `json:"runs"`
	// Results are the hashes of the stored results of its runs, in the
	// order measured: where `history check --confirm` reads how the
	// benchmark was measured.
	Results []string `json:"-"`
	// SE is the standard error of the log of Value from the runs' own
	// intervals (the median of their 95% intervals' half-widths over
	// 1.96, over √Runs); 0 when no run had an interval. The step search
	// weighs the commit by it (Weights).
	SE float64 `json:"-"`
}

// Short is a commit's hash as people read it.
func Short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// Build turns stored rows into series, one per package, benchmark and
// machine whose benchmark re matches (all when re is nil), sorted by
// name then machine. Rows come in the store's order (commit time, then
// time measured), which is the order of the commits.
func Build(rows []Row, re *regexp.Regexp) []Series {
	type run struct {
		hash   string
		src    Source
		when   time.Time
		points map[string]Point // by basis
	}
	byKey := map[Key][]*run{}
	var keys []Key
	for _, r := range rows {
		if re != nil && !re.MatchString(r.Benchmark) {
			continue
		}
		k := Key{r.Package, r.Benchmark, r.Machine}
		runs, ok := byKey[k]
		if !ok {
			keys = append(keys, k)
		}
		if len(runs) == 0 || runs[len(runs)-1].hash != r.Hash {
			runs = append(runs, &run{hash: r.Hash, src: r.Source, when: r.Measured, points: map[string]Point{}})
			byKey[k] = runs
		}
		runs[len(runs)-1].points[r.Basis] = r.Point
	}
	slices.SortFunc(keys, func(a, b Key) int {
		return strings.Compare(a.Package+"\x00"+a.Benchmark+"\x00"+a.Machine, b.Package+"\x00"+b.Benchmark+"\x00"+b.Machine)
	})
	var out []Series
	for _, k := range keys {
		s := Series{Key: k}
		var clean []map[string]Point
		var runs []*run
		for _, r := range byKey[k] {
			if r.src.Dirty {
				s.Dirty++
				continue
			}
			clean = append(clean, r.points)
			runs = append(runs, r)
		}
		s.Basis = ChooseBasis(clean)
		s.Unit = unitOf(s.Basis)
		index := map[string]int{}
		var vals [][]Point
		for _, r := range runs {
			p, ok := r.points[s.Basis]
			if !ok {
				continue
			}
			i, seen := index[r.src.Commit]
			if !seen {
				i = len(s.Commits)
				index[r.src.Commit] = i
				s.Commits = append(s.Commits, Commit{Source: r.src})
				vals = append(vals, nil)
			}
			s.Commits[i].Measured = r.when
			s.Commits[i].Results = append(s.Commits[i].Results, r.hash)
			vals[i] = append(vals[i], p)
		}
		for i, ps := range vals {
			c := &s.Commits[i]
			var ms, halves []float64
			c.Lo, c.Hi = math.Inf(1), 0
			for _, p := range ps {
				ms = append(ms, p.Median)
				c.Lo, c.Hi = min(c.Lo, p.Lo), max(c.Hi, p.Hi)
				if p.Lo > 0 && p.Hi > p.Lo {
					halves = append(halves, math.Log(p.Hi/p.Lo)/2/1.96)
				}
			}
			c.Value, c.Runs = stats.Median(ms), len(ps)
			if len(halves) > 0 {
				c.SE = stats.Median(halves) / math.Sqrt(float64(len(ps)))
			}
		}
		out = append(out, s)
	}
	return out
}

// clockMoveMax: clocks measured around the runs of a series that differ
// by more than this share moved between runs (a governor, turbo, a
// neighbour heating the package), and the runs are judged in cycles.
const clockMoveMax = 0.02

// ChooseBasis is what a series of runs (each run's points by basis) is
// judged on: the best basis every run recorded. Instructions when every
// run counted them (what the code does, whatever the clock); else cycles
// when the clock moved (a run's finding says so, or the measured clocks
// differ by more than 2%) and every run measured it, on-CPU cycles when
// also another task took the CPU; else the on-CPU time when another task
// took the CPU in a run and every run counted it; else the time.
func ChooseBasis(runs []map[string]Point) string {
	all := func(basis string) bool {
		for _, r := range runs {
			if _, ok := r[basis]; !ok {
				return false
			}
		}
		return len(runs) > 0
	}
	moved, disturbed := false, false
	lo, hi := math.Inf(1), 0.0
	for _, r := range runs {
		p, ok := r[BasisTime]
		if !ok {
			continue
		}
		codes := strings.Split(p.Codes, ",")
		moved = moved || slices.Contains(codes, "freq-change") || slices.Contains(codes, "slow-clock")
		disturbed = disturbed || slices.Contains(codes, "disturbed") || slices.Contains(codes, "steal")
		if p.ClockHz > 0 {
			lo, hi = min(lo, p.ClockHz), max(hi, p.ClockHz)
		}
	}
	moved = moved || hi > lo*(1+clockMoveMax)
	switch {
	case all(BasisInstructions):
		return BasisInstructions
	case moved && disturbed && all(BasisOnCPUCycles):
		return BasisOnCPUCycles
	case moved && all(BasisCycles):
		return BasisCycles
	case disturbed && all(BasisOnCPU):
		return BasisOnCPU
	}
	return BasisTime
}

func unitOf(basis string) string {
	switch basis {
	case BasisCycles, BasisOnCPUCycles:
		return "cycles"
	case BasisInstructions:
		return "instructions"
	}
	return "ns"
}

// SEs are the standard errors of the series' per-commit log values
// (Commit.SE), in commit order.
func (s Series) SEs() []float64 {
	ses := make([]float64, len(s.Commits))
	for i, c := range s.Commits {
		ses[i] = c.SE
	}
	return ses
}

// Values are the series' per-commit values, in commit order.
func (s Series) Values() []float64 {
	xs := make([]float64, len(s.Commits))
	for i, c := range s.Commits {
		xs[i] = c.Value
	}
	return xs
}
