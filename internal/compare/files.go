// Package compare holds both kinds of comparison benchy makes, built the
// same way (basis, per op, statistics, unusable sides, the family): the
// candidates of an interleaved run against its baseline (Interleaved), and
// two sets of result files experiment by experiment (Results), with the
// differences of machine and settings that can explain a change and the
// gate of --fail-on-regression. The statistics of one pair are
// internal/stats'; the sentences a person reads are internal/render's.
package compare

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Row is one experiment of two result files compared: stats.Unpaired on the
// ns/op of their samples, named "old NAME" and "new NAME".
type Row struct {
	Name string `json:"name"`
	result.Pair
	// Caution names a side whose verdict is doubtful (e.g. "old is
	// doubtful: drift"): its number may be right, but a claimed change
	// may come from what made it doubtful.
	Caution string `json:"caution,omitempty"`

	// newFailed and newPartial say the experiment failed in a new run, or
	// was measured only in part (the run was interrupted in it): the gate
	// never passes either. oldUnusable and newUnusable say a side's number
	// cannot be right (Unusable).
	newFailed, newPartial    bool
	oldUnusable, newUnusable bool
	// sameProgram says both sides run the same program (SameProgram):
	// the gate claims nothing of it, whatever its figures.
	sameProgram bool
}

// MarshalJSON writes the name first and then the pair's fields. Without it
// the embedded Pair's MarshalJSON would be promoted and drop the name.
func (r Row) MarshalJSON() ([]byte, error) {
	name, err := json.Marshal(r.Name)
	if err != nil {
		return nil, err
	}
	pair, err := json.Marshal(r.Pair)
	if err != nil {
		return nil, err
	}
	out := append([]byte(`{"name":`), name...)
	if r.Caution != "" {
		caution, err := json.Marshal(r.Caution)
		if err != nil {
			return nil, err
		}
		out = append(append(out, `,"caution":`...), caution...)
	}
	if len(pair) > 2 { // pair is an object: "{...}"
		out = append(out, ',')
	}
	return append(out, pair[1:]...), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Row) UnmarshalJSON(b []byte) error {
	var named struct {
		Name    string `json:"name"`
		Caution string `json:"caution"`
	}
	if err := json.Unmarshal(b, &named); err != nil {
		return err
	}
	r.Name, r.Caution = named.Name, named.Caution
	return json.Unmarshal(b, &r.Pair)
}

// Geomean summarizes all comparable rows: the geometric means of the old
// and the new medians and of the ratios, over N experiments. It has no
// interval and no verdict: it says which way things moved overall.
type Geomean struct {
	N int `json:"n"`
	// Old and New are on Basis, the basis every row was compared on; 0
	// when the rows were compared on different bases (then only the
	// ratio means something).
	Old   float64 `json:"old,omitempty"`
	New   float64 `json:"new,omitempty"`
	Basis string  `json:"basis,omitempty"`
	Ratio float64 `json:"ratio"`
}

// MarshalJSON leaves out the means when no experiment was comparable:
// they are unknown, and a 0 would read as a value.
func (g Geomean) MarshalJSON() ([]byte, error) {
	if g.N == 0 {
		return []byte(`{"n":0}`), nil
	}
	type plain Geomean
	return json.Marshal(plain(g))
}

// Files is the comparison of two result files.
type Files struct {
	Threshold float64 `json:"threshold"`
	// Alpha is the significance level a change is claimed at, and
	// RunNoise the run-to-run variation assumed for a side of one run
	// (stats.DefaultRunNoise; see Row.Detectable).
	Alpha    float64 `json:"alpha"`
	RunNoise float64 `json:"assumed_run_noise"`
	// Differences are the machine and settings differences that can
	// explain a change, to be read before the numbers.
	Differences []Difference `json:"machine_differences"`
	Rows        []Row        `json:"experiments"` // in the old file's order
	Geomean     Geomean      `json:"geomean"`
	OnlyOld     []string     `json:"only_in_old"`
	OnlyNew     []string     `json:"only_in_new"`
}

// ErrNothingInCommon is returned when the two sides share no experiment.
var ErrNothingInCommon = errors.New("no experiment in common")

// side is one experiment on one side of a comparison: every result file
// of that side that has it.
type side struct {
	label string
	rs    []*result.Result
	es    []*result.Experiment
}

// Results compares two sides of analyzed results (analyze.Analyze), olds
// and news, each one or more result files of the same programs, experiment
// by experiment, matched by name. The run is the unit (stats.Runs): every
// file, and every process within a file, is one run, since runs differ as
// wholes. Each comparison is judged in cycles where every run measured its
// clock around the experiment, on on-CPU time where the machine took the
// CPU away, and is inconclusive where nothing measured can leave out what
// interfered (Basis). An experiment that failed or cannot be right
// on either side is "not comparable"; the others are one family (Family:
// intervals at stats.FamilyLevel, Bonferroni-adjusted p-values), since a
// gate over many experiments must not fire on the one that was unlucky.
func Results(olds, news []*result.Result, threshold float64) (Files, error) {
	return results(olds, news, threshold, false)
}

// Against compares the two sides of one interleaved run of two builds
// (gotest --against): process k of old and process k of new ran in the
// same round, so each experiment is judged on the pairs
// (stats.PairedRuns) where both sides have the same processes, and as
// Results does otherwise.
func Against(old, cur *result.Result, threshold float64) (Files, error) {
	return AgainstPooled([]*result.Result{old}, []*result.Result{cur}, threshold)
}

// AgainstPooled is Against over several interleaved runs of the same two
// builds, olds[k] and news[k] from run k (benchy bisect measures an
// undecided commit again): the runs' processes are pooled, each still
// paired with the one of its round.
func AgainstPooled(olds, news []*result.Result, threshold float64) (Files, error) {
	return results(olds, news, threshold, true)
}

// Position is where benchmark name of mids sits between the same
// benchmark of goods and of bads, all measured interleaved in the same
// rounds (a bisection's step: GOOD, BAD and a commit, run k of each in
// round k, pooled over its attempts as AgainstPooled pools them):
// stats.Position of their process runs, on the basis all three can be
// compared on. ok is false when a side lacks the benchmark, its runs
// cannot be paired, or the machine left a basis that cannot be trusted
// (a busy moment: the ratio would carry what it could not leave out).
func Position(goods, bads, mids []*result.Result, name string, level float64) (ratio, lo, hi float64, ok bool) {
	var all [3]*side
	var sides []Side
	for k, rs := range [][]*result.Result{goods, bads, mids} {
		byName, _ := collect("", rs)
		all[k] = byName[name]
		if all[k] == nil {
			return 0, 0, 0, false
		}
		for i, e := range all[k].es {
			sides = append(sides, Side{E: e, Run: RunInterference(all[k].rs[i])})
		}
	}
	basis, busy := Basis(sides, false)
	if busy.Reason != "" {
		return 0, 0, 0, false
	}
	return stats.Position(all[0].runs(basis), all[1].runs(basis), all[2].runs(basis), level)
}

func results(olds, news []*result.Result, threshold float64, paired bool) (Files, error) {
	// Empty lists, not null, in JSON: scripts index them without a check.
	f := Files{Threshold: cleanThreshold(threshold), Alpha: stats.DefaultAlpha, RunNoise: stats.DefaultRunNoise,
		Differences: Differences(olds[0], news[0]),
		OnlyOld:     []string{}, OnlyNew: []string{}}
	if f.Differences == nil {
		f.Differences = []Difference{}
	}
	oldSides, oldNames := collect("old", olds)
	newSides, newNames := collect("new", news)
	var common []string
	for _, name := range oldNames {
		if _, ok := newSides[name]; !ok {
			f.OnlyOld = append(f.OnlyOld, name)
			continue
		}
		common = append(common, name)
	}
	for _, name := range newNames {
		if _, ok := oldSides[name]; !ok {
			f.OnlyNew = append(f.OnlyNew, name)
		}
	}
	if len(common) == 0 {
		return f, ErrNothingInCommon
	}
	pairs := Family(func(level float64) []result.Pair {
		f.Rows = f.Rows[:0]
		var pairs []result.Pair
		for _, name := range common {
			row := compareSides(name, oldSides[name], newSides[name], f.Threshold, level, paired)
			f.Rows = append(f.Rows, row)
			pairs = append(pairs, row.Pair)
		}
		return pairs
	})
	for i := range f.Rows {
		f.Rows[i].Pair = pairs[i]
	}
	f.Geomean = geomean(f.Rows)
	return f, nil
}

// SameProgramReason is the reason of a row whose two sides run the same
// program (SameProgram).
const SameProgramReason = "old and new run the same program (only comments, line numbers or file paths differ): what was measured is the machine's"

// SameProgram judges the rows named in names again, knowing that their two
// sides run the same program: the same machine code and data at the same
// addresses (gotest.Binary.Program). Whatever was measured, no part of it
// can be the code's, so none of them is faster or slower, nor left
// unjudged because the machine was busy: each is no difference, its
// figures kept as what the machine did. On a loaded machine a paired test
// at 95% still claims a change in identical code now and then (a real
// gotest --against of a comment read 6.9% faster, 95% CI -9.7% to -3.9%,
// over 4 pairs); of the same program that claim is known to be false. A
// row that is not comparable (a side failed) stays so.
func (f *Files) SameProgram(names []string) {
	for i := range f.Rows {
		r := &f.Rows[i]
		if !slices.Contains(names, r.Name) || r.Verdict == result.NotComparable {
			continue
		}
		r.Verdict, r.Reason = result.NoDifference, SameProgramReason
		r.Busy, r.BusyBound = "", 0
		r.sameProgram = true
	}
}

// collect indexes the experiments of a side's results by name, with the
// names in the order they first appear.
func collect(label string, rs []*result.Result) (map[string]*side, []string) {
	sides := map[string]*side{}
	var names []string
	for _, r := range rs {
		for i := range r.Experiments {
			e := &r.Experiments[i]
			s, ok := sides[e.Name]
			if !ok {
				s = &side{label: label}
				sides[e.Name] = s
				names = append(names, e.Name)
			}
			s.rs, s.es = append(s.rs, r), append(s.es, e)
		}
	}
	return sides, names
}

// compareSides is one row: the runs of old against those of new.
func compareSides(name string, old, cur *side, threshold, level float64, paired bool) Row {
	var sides []Side
	for _, s := range []*side{old, cur} {
		for i, e := range s.es {
			sides = append(sides, Side{Label: s.label, E: e, Run: RunInterference(s.rs[i])})
		}
	}
	basis, busy := Basis(sides, !paired)
	oldRuns, curRuns := old.runs(basis), cur.runs(basis)
	row := Row{Name: name}
	if paired && len(oldRuns) == len(curRuns) && len(oldRuns) >= 2 {
		row.Pair = Judge(stats.PairedRuns(oldRuns, curRuns, level), Rule{Threshold: threshold})
	} else {
		row.Pair = Judge(stats.RunsAt(oldRuns, curRuns, stats.DefaultRunNoise, level), Rule{Threshold: threshold})
	}
	row.Basis = basis
	row.Base, row.Candidate = "old "+name, "new "+name
	for i, e := range cur.es {
		row.newFailed = row.newFailed || e.Error != ""
		row.newPartial = row.newPartial || (cur.rs[i].Interrupted && len(e.Samples) < cur.rs[i].Settings.Samples)
	}
	row.oldUnusable, row.newUnusable = unusable(old) != "", unusable(cur) != ""
	switch why := notComparable(old, cur); {
	case why != "":
		if row.Verdict == result.NotComparable {
			why += "; " + row.Reason
		}
		markNotComparable(&row.Pair, why)
	case row.Verdict == result.NotComparable:
	default:
		if busy.Reason != "" {
			despite(&row.Pair, busy.Reason, busy.Bound)
		}
		row.Caution = doubtful(old, cur)
	}
	return row
}

// runs returns the per-op values of every run of s on the basis: one run
// per result file, or per process where a file holds several.
func (s *side) runs(basis string) [][]float64 {
	var out [][]float64
	for _, e := range s.es {
		// The samples its statistics are of, unless leaving the slowed
		// ones out leaves too few to compare (stats.MinSamples), or the
		// experiment's processes are its runs: a process's samples are
		// checked as one batch, and leaving one out would pair run k of
		// one side with run k+1 of the other (gotest --against).
		view := e.WithoutSlowed()
		if len(view.Samples) < stats.MinSamples || processes(*e) > 1 {
			view = *e
		}
		if basis == result.BasisOnCPU || basis == result.BasisOnCPUCycles {
			// The samples whose on-CPU time is known, of the view or, as
			// Basis counted them, of the whole experiment.
			if v, ok := view.WithOnCPU(stats.MinSamples); ok {
				view = v
			} else if v, ok := e.WithOnCPU(stats.MinSamples); ok {
				view = v
			}
		}
		xs, _ := result.PerOp(view, basis)
		byProcess := map[int][]float64{}
		var order []int
		i := 0
		for _, smp := range view.Samples {
			if smp.Iters <= 0 {
				continue
			}
			if _, ok := byProcess[smp.Process]; !ok {
				order = append(order, smp.Process)
			}
			if i < len(xs) {
				byProcess[smp.Process] = append(byProcess[smp.Process], xs[i])
			}
			i++
		}
		for _, p := range order {
			out = append(out, byProcess[p])
		}
	}
	return out
}

// processes counts the processes e's samples were taken in.
func processes(e result.Experiment) int {
	seen := map[int]bool{}
	for _, s := range e.Samples {
		seen[s.Process] = true
	}
	return len(seen)
}

// Gate is what --fail-on-regression decides from the comparison:
// regressions (significantly slower by more than limit, with the whole
// interval beyond it), failures (failed in a new run, or not believable
// there while it was in the old), and what it cannot judge (inconclusive,
// too few samples, not believable in the old runs only, missing from the
// new runs, or measured only partly there). It passes only when all three
// are empty. An experiment not believable on both sides (an emptied loop
// that stays emptied) is no change and does not hold the gate.
type Gate struct {
	Regressions []Row
	Failed      []string
	// CannotJudge names each experiment it could not judge with why:
	// "clock/now (missing from new)".
	CannotJudge []string
}

// Gate judges the comparison at limit (0.05 = 5%).
func (f Files) Gate(limit float64) Gate {
	var g Gate
	for _, r := range f.Rows {
		switch {
		case r.newFailed, r.newUnusable && !r.oldUnusable:
			g.Failed = append(g.Failed, r.Name)
		case r.newUnusable && r.oldUnusable:
		case r.newPartial:
			g.CannotJudge = append(g.CannotJudge, r.Name+" (measured only in part in new: the run was interrupted)")
		case r.Verdict == result.Inconclusive:
			g.CannotJudge = append(g.CannotJudge, r.Name+" (inconclusive: the machine was busy)")
		case !r.Judged():
			g.CannotJudge = append(g.CannotJudge, r.Name+" ("+r.Reason+")")
		case r.sameProgram:
			// The same program: whatever was measured is the machine's.
		case r.AdjustedP < r.Alpha && r.CILow > 1+limit:
			g.Regressions = append(g.Regressions, r)
		}
	}
	for _, name := range f.OnlyOld {
		g.CannotJudge = append(g.CannotJudge, name+" (missing from new)")
	}
	return g
}

// Passed reports whether the gate passed.
func (g Gate) Passed() bool {
	return len(g.Regressions) == 0 && len(g.Failed) == 0 && len(g.CannotJudge) == 0
}

// Adjusted returns how many comparisons the p-values were adjusted over.
func (f Files) Adjusted() int {
	for _, r := range f.Rows {
		if r.Verdict != result.NotComparable {
			return r.Comparisons
		}
	}
	return 0
}

// Level is the confidence level of the intervals: 0.95 for one
// comparison, stats.FamilyLevel for several made at once.
func (f Files) Level() float64 {
	return stats.FamilyLevel(f.Adjusted(), f.Alpha)
}

// notComparable says why an experiment gets no verdict: a run of a side
// failed, or cannot be right (Unusable; its number cannot be right,
// so a difference from it means nothing either).
func notComparable(old, cur *side) string {
	o, n := unusable(old), unusable(cur)
	switch {
	case o == "" && n == "":
		return ""
	case o == n:
		return "both runs " + bothRuns(o)
	case o == "":
		return "new " + n
	case n == "":
		return "old " + o
	}
	return "old " + o + "; new " + n
}

// unusable is Unusable of the first run of s that cannot be used.
func unusable(s *side) string {
	for _, e := range s.es {
		if u := Unusable(e); u != "" {
			return u
		}
	}
	return ""
}

// doubtful names the sides whose verdict is doubtful, with the reasons.
func doubtful(old, cur *side) string {
	var parts []string
	for _, s := range []*side{old, cur} {
		var reasons []string
		for _, e := range s.es {
			if e.Verdict == result.VerdictDoubtful {
				for _, c := range e.Reasons {
					if !slices.Contains(reasons, c) {
						reasons = append(reasons, c)
					}
				}
			}
		}
		if len(reasons) > 0 {
			parts = append(parts, s.label+" is doubtful: "+strings.Join(reasons, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// bothRuns turns the reason of one run into the reason of both.
func bothRuns(reason string) string {
	return strings.Replace(reason, "is not", "are not", 1)
}

// geomean is over the rows that were judged: not comparable and
// inconclusive rows have no ratio anyone should read.
func geomean(rows []Row) Geomean {
	var g Geomean
	var lo, ln, lr float64
	mixed := false
	for _, r := range rows {
		if !r.Judged() {
			continue
		}
		if g.N > 0 && r.Basis != g.Basis {
			mixed = true
		}
		g.N++
		g.Basis = r.Basis
		lo += math.Log(r.BaseMedian)
		ln += math.Log(r.CandidateMedian)
		lr += math.Log(r.Ratio)
	}
	if g.N > 0 {
		n := float64(g.N)
		g.Old, g.New, g.Ratio = math.Exp(lo/n), math.Exp(ln/n), math.Exp(lr/n)
	}
	if mixed {
		g.Old, g.New, g.Basis = 0, 0, ""
	}
	return g
}
