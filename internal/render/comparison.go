package render

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// WriteComparison writes the comparison d in format: text, markdown or
// json (ComparisonFormats), one exporter each.
func WriteComparison(w io.Writer, d compare.Document, format string) error {
	switch format {
	case "json":
		return writeComparisonJSON(w, d)
	case "markdown":
		return writeComparisonMarkdown(w, d)
	case "text":
		return writeComparisonText(w, d)
	}
	return fmt.Errorf("unknown format %q: a comparison is written as %s", format, strings.Join(ComparisonFormats, ", "))
}

// ComparisonFormats are the formats of a comparison.
var ComparisonFormats = []string{"text", "json", "markdown"}

// comparisonWidth is the width the text of a comparison is written for:
// an 80-column terminal.
const comparisonWidth = 80

// fileSideText is one run of a side: its file, tool, time, host and CPU.
func fileSideText(s compare.FileSide) string {
	when := "unknown time"
	if !s.Start.IsZero() {
		when = s.Start.UTC().Format("2006-01-02 15:04 UTC")
	}
	return fmt.Sprintf("%s (%s, %s, host %s, cpu%d)", result.Printable(s.File), s.Tool, when, s.Host, s.CPU)
}

// sidesText is the files of a side, one line each.
func sidesText(label string, ss []compare.FileSide) string {
	var b strings.Builder
	indent := strings.Repeat(" ", len(label)+2)
	for i, s := range ss {
		if i == 0 {
			fmt.Fprintf(&b, "%s\n", Wrap(label+": "+fileSideText(s), comparisonWidth, indent))
		} else {
			// Wrap keeps words, not the spaces before the first.
			fmt.Fprintf(&b, "%s%s\n", indent, Wrap(fileSideText(s), comparisonWidth-len(indent), indent))
		}
	}
	return b.String()
}

// GateMessage is the one line the gate fails with: the regressions and
// failures, else what it could not judge.
func GateMessage(c compare.Document) string {
	limit := units.Percent(*c.FailOnRegression)
	var parts []string
	if len(c.Gate.Regressions) > 0 {
		var rs []string
		for _, r := range c.Gate.Regressions {
			rs = append(rs, fmt.Sprintf("%s %s (%s CI %s to %s)", r.Name,
				units.Change(r.Change()), units.Level(r.Level), units.Change(r.CILow-1), units.Change(r.CIHigh-1)))
		}
		parts = append(parts, fmt.Sprintf("%s slower by more than %s with the whole confidence interval: %s",
			units.Count(len(rs), "experiment"), limit, strings.Join(rs, ", ")))
	}
	if len(c.Gate.Failed) > 0 {
		parts = append(parts, "failed in new: "+strings.Join(c.Gate.Failed, ", "))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("--fail-on-regression %s: cannot judge %s (exit 4)", limit, strings.Join(c.Gate.CannotJudge, "; "))
	}
	return fmt.Sprintf("--fail-on-regression %s: %s", limit, strings.Join(parts, "; "))
}

// gateLine is the gate's outcome for the report, "" without a gate.
func gateLine(c compare.Document) string {
	switch c.Outcome() {
	case compare.GatePassed:
		return fmt.Sprintf("gate: passed: --fail-on-regression %s: every experiment was judged, and none is significantly slower by more than %s",
			units.Percent(*c.FailOnRegression), units.Percent(*c.FailOnRegression))
	case compare.GateCannotJudge:
		return "gate: CANNOT JUDGE: " + GateMessage(c)
	case compare.GateFailed:
		return "gate: FAILED: " + GateMessage(c)
	}
	return ""
}

// rowCells are one row's columns in every table format: old and new median,
// change, interval, p-value, verdict. A row that is not comparable shows
// its medians only: its change would be a number nobody should read.
func rowCells(r compare.Row) []string {
	c := []string{perOpCell(r.BaseMedian, r.Basis), perOpCell(r.CandidateMedian, r.Basis), "-", "-", "-", r.Verdict}
	if r.Judged() {
		c[2] = units.Change(r.Change())
		c[3] = units.Change(r.CILow-1) + " to " + units.Change(r.CIHigh-1)
		c[4] = FmtP(r.AdjustedP)
	}
	return c
}

func geomeanCells(g compare.Geomean) []string {
	n := fmt.Sprintf("(%d experiments)", g.N)
	if g.N == 1 {
		n = "(1 experiment)"
	}
	return []string{perOpCell(g.Old, g.Basis), perOpCell(g.New, g.Basis), units.Change(g.Ratio - 1), "", "", n}
}

// pColumn is the p-value's column in a row of the table.
const pColumn = 5

// compareHeader is the table's header; the interval's level is the
// comparisons' (95% for one, higher for several held together).
func compareHeader(c compare.Files) []string {
	return []string{"experiment", "old", "new", "change", units.Level(c.Level()) + " CI", "p", "verdict"}
}

// sharedBasis is what the rows' sentences say of their basis when two or
// more rows say the same, so the text says it once; "" otherwise.
func sharedBasis(rows []compare.Row) string {
	if len(rows) < 2 {
		return ""
	}
	first := BasisText(rows[0].Pair)
	for _, r := range rows[1:] {
		if BasisText(r.Pair) != first {
			return ""
		}
	}
	return first
}

func mdCells(cs []string) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = MarkdownCell(c)
	}
	return out
}

func mdList(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = MarkdownCode(x)
	}
	return strings.Join(out, ", ")
}

// sideFiles is the file names of a side, comma-separated, printable (a file
// name is the user's, and may hold anything).
func sideFiles(ss []compare.FileSide) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = result.Printable(s.File)
	}
	return strings.Join(names, ",")
}

// perOpCell is a median on the basis it was compared on: a time, or
// cycles ("4210 cyc").
func perOpCell(v float64, basis string) string {
	if basis == result.BasisCycles || basis == result.BasisOnCPUCycles {
		if !(v > 0) || math.IsInf(v, 0) {
			return "-"
		}
		return units.Sig(v, 3) + " cyc"
	}
	return fmtTime(v)
}

// fmtTime is units.Duration for a table cell: "-" for no time.
func fmtTime(ns float64) string {
	if !(ns > 0) || math.IsInf(ns, 0) {
		return "-"
	}
	return units.Duration(ns)
}

var countHeader = []string{"instructions", "old", "new", "change", "noise", "verdict"}

// countCells are a count row's cells after its name.
func countCells(r compare.CountRow) []string {
	if r.Verdict == compare.CountNotCompared {
		return []string{CountNumber(r.Old), CountNumber(r.New), "-", "-", r.Verdict}
	}
	return []string{CountNumber(r.Old), CountNumber(r.New), units.Change(r.Change),
		"±" + units.Sig(100*r.Noise, 2) + "%", r.Verdict}
}
