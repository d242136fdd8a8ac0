package compare

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// Document is one comparison as every format writes it: of two sides
// (benchy compare, gotest --against with its layouts and profiles: the
// files of each side, the comparison, how it was made, the instructions
// and the gate), or of an interleaved run's candidates against its
// baseline (run --compare: RunDocument), every judgement made once here.
// internal/render writes it; Reading a written one (ReadDocument, or
// RunDocument of a run's result) gives it back whole.
type Document struct {
	// Tool is the benchy that made the comparison ("benchy v1.2").
	Tool string `json:"-"`
	// Old and New say which runs the sides are; none for an interleaved
	// run.
	Old, New []FileSide `json:"-"`
	// Baseline is, for an interleaved run, the experiment every row's
	// candidate was measured against, round by round on CPU; "" for
	// sides (Interleaved).
	Baseline string `json:"-"`
	CPU      int    `json:"-"`
	Files
	// Method says how the numbers were computed and when a change is
	// claimed.
	Method string `json:"method"`
	// FailOnRegression is the gate's limit, nil without a gate;
	// Regressions are the experiments that fail it, Failed those that
	// failed in NEW, CannotJudge those it could not judge.
	FailOnRegression *float64 `json:"fail_on_regression,omitempty"`
	Regressions      []string `json:"regressions"`
	Failed           []string `json:"failed,omitempty"`
	CannotJudge      []string `json:"cannot_judge,omitempty"`
	// Instructions compares the experiments counted on both sides on
	// their instructions per op (--measure instructions), each row
	// judged with its time row.
	Instructions []CountRow `json:"instructions,omitempty"`
	// ProfileDiffs are the profiles of the two sides diffed (gotest
	// --against --profile).
	ProfileDiffs []result.ProfileDiff `json:"profile_diffs,omitempty"`
	// Layouts is what the layouts did (gotest --against --layouts).
	Layouts *result.Layouts `json:"layouts,omitempty"`
	// Gate is the gate's judgement, its regressions with their rows
	// (without a gate, the zero Gate).
	Gate Gate `json:"-"`
}

// FileSide says which run one side of the comparison is.
type FileSide struct {
	File  string    `json:"file"`
	Tool  string    `json:"tool"`
	Start time.Time `json:"start"`
	Host  string    `json:"host"`
	CPU   int       `json:"cpu"`
}

// FileSides are the runs rs, read from the files (or named) names.
func FileSides(names []string, rs []*result.Result) []FileSide {
	out := make([]FileSide, len(rs))
	for i, r := range rs {
		s := FileSide{File: strings.TrimSpace(names[i]), Tool: r.Tool, Start: r.Start, Host: "unknown: the result holds no snapshot", CPU: r.CPU}
		if r.Before != nil {
			s.Host = r.Before.Hostname.String()
		}
		out[i] = s
	}
	return out
}

// NewDocument is the document of files, the comparison of the runs olds
// and news (read from old and cur), judged by the gate at fail (a
// fraction; fail < 0 means no gate); the instructions counted on both
// sides are compared too, each row judged with its time row.
func NewDocument(tool string, old, cur []FileSide, olds, news []*result.Result, files Files, fail float64) Document {
	d := Document{Tool: tool, Old: old, New: cur, Files: files, Method: method(files), Regressions: []string{}}
	if fail >= 0 {
		d.FailOnRegression = &fail
		d.Gate = files.Gate(fail)
		for _, r := range d.Gate.Regressions {
			d.Regressions = append(d.Regressions, r.Name)
		}
		d.Failed, d.CannotJudge = orEmpty(d.Gate.Failed), orEmpty(d.Gate.CannotJudge)
	}
	d.Instructions = judgedCounts(olds, news, files.Rows)
	return d
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// The gate's outcomes (Document.Outcome).
const (
	GateNone        = ""             // no gate was asked for
	GatePassed      = "passed"       // every experiment judged, none regressed
	GateFailed      = "failed"       // a regression, or a failure in NEW
	GateCannotJudge = "cannot judge" // neither, and something it could not judge
)

// Outcome is what the gate decided.
func (d Document) Outcome() string {
	switch {
	case d.FailOnRegression == nil:
		return GateNone
	case d.Gate.Passed():
		return GatePassed
	case len(d.Gate.Regressions)+len(d.Gate.Failed) > 0:
		return GateFailed
	}
	return GateCannotJudge
}

// judgedCounts compares the sides on their instructions per op, each row
// judged with its time row (what both bases mean together); nil when
// nothing was counted on both sides.
func judgedCounts(olds, news []*result.Result, timeRows []Row) []CountRow {
	rows := Counts(olds, news)
	for i := range rows {
		for _, t := range timeRows {
			if t.Name == rows[i].Name {
				rows[i].Judge(t.Verdict, t.Change())
			}
		}
	}
	return rows
}

// method says how the numbers were computed and when a change is claimed.
func method(f Files) string {
	runs, pairedRuns := false, false
	for _, r := range f.Rows {
		runs = runs || (r.BaseRuns > 1 && r.CandidateRuns > 1)
		pairedRuns = pairedRuns || r.PairedRuns
	}
	assumed := false
	for _, r := range f.Rows {
		assumed = assumed || r.RunNoiseAssumed
	}
	how := "one run on a side: ratio of medians new/old with a percentile-bootstrap interval (fixed seed), " +
		"widened by the run-to-run variation measured on the other side's runs"
	if assumed {
		how = fmt.Sprintf("one run per side: ratio of medians new/old with a percentile-bootstrap interval (fixed seed), "+
			"widened by a %s run-to-run variation, assumed (nothing measures it: give several runs per side)", units.Percent(f.RunNoise))
	}
	switch {
	case pairedRuns:
		how = "processes in pairs (process k of old and of new ran in one round): the geometric mean of the ratios of their medians new/old, " +
			"with the paired t-test on their logs"
	case runs:
		how = "runs as the unit: ratio of the geometric means of the run medians new/old, with Welch's t-test on their logs"
	}
	switch n := f.Adjusted(); {
	case n == 1:
		how += " (one comparison: no adjustment)"
	case n > 1:
		how += fmt.Sprintf("; %d comparisons held to %s together: intervals at %s and p-values Bonferroni-adjusted",
			n, units.Percent(f.Alpha), units.Level(f.Level()))
	}
	return fmt.Sprintf("%s; a change is claimed when the interval excludes 1, p < %s, and the change and the whole interval lie beyond %s",
		how, strconv.FormatFloat(f.Alpha, 'f', -1, 64), units.Percent(f.Threshold))
}

// DocumentJSON is a document as its JSON file holds it: what the file is
// (a schema, a kind, the benchy that wrote it), so that benchy report
// reads it back, then the files of each side and the comparison.
type DocumentJSON struct {
	Schema int        `json:"schema"`
	Kind   string     `json:"kind"`
	Tool   string     `json:"tool"`
	Old    []FileSide `json:"old"`
	New    []FileSide `json:"new"`
	Document
}

// JSON is d as its file holds it.
func (d Document) JSON() DocumentJSON {
	return DocumentJSON{result.SchemaVersion, result.KindComparison, d.Tool, d.Old, d.New, d}
}

// ReadDocument reads back what d.JSON() was written as (data is a
// document result.Unmarshal found to be of KindComparison). The gate is
// the one the file records: its rows hold no samples to judge again.
func ReadDocument(data []byte) (Document, error) {
	var j DocumentJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return Document{}, err
	}
	d := j.Document
	d.Tool, d.Old, d.New = j.Tool, j.Old, j.New
	if d.FailOnRegression != nil {
		d.Gate = Gate{Failed: d.Failed, CannotJudge: d.CannotJudge}
		for _, r := range d.Rows {
			if slices.Contains(d.Regressions, r.Name) {
				d.Gate.Regressions = append(d.Gate.Regressions, r)
			}
		}
	}
	return d, nil
}

// RunDocument is the document of an interleaved run (run --compare): its
// candidates against the baseline, one row each, as Interleaved judged
// them and analyze stored them in r.Comparison (the run's JSON, which
// scripts read); nil when r compared nothing. Like ReadDocument for a
// comparison's file it judges nothing again: the result is the schema's
// leaf and cannot hold a Document, so the rows are stored there and the
// document is read back from them.
func RunDocument(r *result.Result) *Document {
	if len(r.Comparison) == 0 {
		return nil
	}
	d := &Document{Tool: r.Tool, Baseline: r.Comparison[0].Base, CPU: r.CPU, Regressions: []string{}}
	d.Threshold, d.Alpha = r.Settings.Threshold, stats.DefaultAlpha
	for _, p := range r.Comparison {
		d.Rows = append(d.Rows, Row{Name: p.Candidate, Pair: p})
	}
	d.Method = interleavedMethod(*d)
	return d
}

// Interleaved reports whether d is an interleaved run's (RunDocument).
func (d Document) Interleaved() bool { return d.Baseline != "" }

// interleavedMethod says how an interleaved run's rows were judged: in
// rounds on one CPU against the baseline, as one family when there were
// several tests, and with the threshold raised to the ratio's drift
// where a row measured it. The family is read from the first row that
// has a test (a row that was not comparable has none, and Bonferroni
// leaves it out), its level as that row's interval was taken: a run
// with looks takes it above the family's (stats.LookShare).
func interleavedMethod(d Document) string {
	s := fmt.Sprintf("interleaved rounds on cpu%d, baseline %s", d.CPU, d.Baseline)
	if i := slices.IndexFunc(d.Rows, func(r Row) bool { return r.Verdict != result.NotComparable }); i >= 0 && d.Rows[i].Comparisons > 1 {
		s += fmt.Sprintf("; %d comparisons held to %s together: intervals at %s, p-values Bonferroni-adjusted",
			d.Rows[i].Comparisons, units.Percent(d.Alpha), units.Level(d.Rows[i].Level))
	}
	if slices.ContainsFunc(d.Rows, func(r Row) bool { return r.ThresholdMeasured }) {
		s += fmt.Sprintf("; threshold the larger of %s and the ratio's drift", units.Percent(d.Threshold))
	}
	return s
}
