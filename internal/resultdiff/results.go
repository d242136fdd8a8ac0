// Package resultdiff compares two benchy result files: experiment by
// experiment (matched by name, Holm-adjusted), and the differences of
// machine and settings that can explain a change.
package resultdiff

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/report"
)

// Row is one experiment of two result files compared: compare.Unpaired on the
// ns/op of their samples, named "old NAME" and "new NAME".
type Row struct {
	Name string `json:"name"`
	compare.Pair
	// Caution names a side whose verdict is doubtful (e.g. "old is
	// doubtful: drift"): its number may be right, but a claimed change
	// may come from what made it doubtful.
	Caution string `json:"caution,omitempty"`
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
	N     int     `json:"n"`
	Old   float64 `json:"old_ns"`
	New   float64 `json:"new_ns"`
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
	// Differences are the machine and settings differences that can
	// explain a change, to be read before the numbers.
	Differences []Difference `json:"machine_differences"`
	Rows        []Row        `json:"experiments"` // in the old file's order
	Geomean     Geomean      `json:"geomean"`
	OnlyOld     []string     `json:"only_in_old"`
	OnlyNew     []string     `json:"only_in_new"`
}

// ErrNothingInCommon is returned when the two results share no experiment.
var ErrNothingInCommon = errors.New("no experiment in common")

// Results compares two analyzed results (report.Analyze) experiment by
// experiment, matched by name. An experiment that failed or carries an
// error finding in either file is "not comparable" with the reason; the
// p-values of the others are compare.Holm-adjusted over all of them, since a gate
// over many experiments must not fire on the one that was unlucky.
func Results(old, cur *report.Result, threshold float64) (Files, error) {
	// Empty lists, not null, in JSON: scripts index them without a check.
	f := Files{Threshold: compare.CleanThreshold(threshold), Differences: Differences(old, cur),
		OnlyOld: []string{}, OnlyNew: []string{}}
	if f.Differences == nil {
		f.Differences = []Difference{}
	}
	newByName := map[string]*report.Experiment{}
	for i := range cur.Experiments {
		e := &cur.Experiments[i]
		if _, dup := newByName[e.Name]; !dup {
			newByName[e.Name] = e
		}
	}
	seen := map[string]bool{}
	for i := range old.Experiments {
		o := &old.Experiments[i]
		if seen[o.Name] {
			continue
		}
		seen[o.Name] = true
		n, ok := newByName[o.Name]
		if !ok {
			f.OnlyOld = append(f.OnlyOld, o.Name)
			continue
		}
		row := Row{Name: o.Name, Pair: compare.Unpaired(report.NsPerOp(o.Samples), report.NsPerOp(n.Samples), f.Threshold)}
		row.SetNames("old "+o.Name, "new "+o.Name)
		if why := notComparable(o, n); why != "" {
			if row.Verdict == compare.NotComparable {
				why += "; " + row.Reason
			}
			row.MarkNotComparable(why)
		} else if row.Verdict != compare.NotComparable {
			row.Caution = doubtful(o, n)
		}
		f.Rows = append(f.Rows, row)
	}
	for _, e := range cur.Experiments {
		if !seen[e.Name] && !slices.Contains(f.OnlyNew, e.Name) {
			f.OnlyNew = append(f.OnlyNew, e.Name)
		}
	}
	if len(f.Rows) == 0 {
		return f, ErrNothingInCommon
	}
	pairs := make([]compare.Pair, len(f.Rows))
	for i, r := range f.Rows {
		pairs[i] = r.Pair
	}
	compare.Holm(pairs, compare.DefaultAlpha)
	for i := range f.Rows {
		f.Rows[i].Pair = pairs[i]
	}
	f.Geomean = geomean(f.Rows)
	return f, nil
}

// Regressions returns the rows significantly slower by more than limit
// (0.05 = 5%) with the whole confidence interval beyond it: the rows a
// gate fails on. The gate is judged on its own terms, not through the
// verdict, so a limit below --threshold still catches what it names.
// Noise cannot make such a row: it needs a significant adjusted p-value
// and a lower bound above 1+limit.
func (f Files) Regressions(limit float64) []Row {
	var rs []Row
	for _, r := range f.Rows {
		if r.Verdict != compare.NotComparable && r.AdjustedP < r.Alpha && r.CILow > 1+limit {
			rs = append(rs, r)
		}
	}
	return rs
}

// Adjusted returns how many comparisons the p-values were adjusted over.
func (f Files) Adjusted() int {
	for _, r := range f.Rows {
		if r.Verdict != compare.NotComparable {
			return r.Comparisons
		}
	}
	return 0
}

// notComparable says why an experiment pair gets no verdict: a side
// failed, or has an error finding (its number cannot be right, so a
// difference from it means nothing either). The reason names the finding
// codes; the findings themselves are in the result files.
func notComparable(old, cur *report.Experiment) string {
	o, n := unbelievable(old), unbelievable(cur)
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

// doubtful names the sides whose verdict is doubtful, with the reasons.
func doubtful(old, cur *report.Experiment) string {
	var parts []string
	for _, side := range []struct {
		name string
		e    *report.Experiment
	}{{"old", old}, {"new", cur}} {
		if side.e.Verdict == report.VerdictDoubtful {
			parts = append(parts, side.name+" is doubtful: "+strings.Join(side.e.Reasons, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// unbelievable is why one side's number cannot be used: "failed: <error>"
// or "is not believable: impossible, ..."; "" when it can.
func unbelievable(e *report.Experiment) string {
	if e.Error != "" {
		return "failed: " + oneLine(e.Error)
	}
	var codes []string
	for _, f := range e.Findings {
		if f.Severity == finding.Error && !slices.Contains(codes, f.Code) {
			codes = append(codes, f.Code)
		}
	}
	if len(codes) == 0 {
		return ""
	}
	return "is not believable: " + strings.Join(codes, ", ")
}

// bothRuns turns the reason of one run into the reason of both.
func bothRuns(reason string) string {
	return strings.Replace(reason, "is not", "are not", 1)
}

func geomean(rows []Row) Geomean {
	var g Geomean
	var lo, ln, lr float64
	for _, r := range rows {
		if r.Verdict == compare.NotComparable {
			continue
		}
		g.N++
		lo += math.Log(r.BaseMedian)
		ln += math.Log(r.CandidateMedian)
		lr += math.Log(r.Ratio)
	}
	if g.N > 0 {
		n := float64(g.N)
		g.Old, g.New, g.Ratio = math.Exp(lo/n), math.Exp(ln/n), math.Exp(lr/n)
	}
	return g
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
