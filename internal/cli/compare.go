package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// compareOptions are the flags of `benchy compare`.
type compareOptions struct {
	Old, New string
	// Threshold and FailOnRegression are fractions (0.02 = 2%);
	// FailOnRegression < 0 means no gate.
	Threshold        float64
	FailOnRegression float64
	Format           string
}

// compareFormats are the output formats of `benchy compare`.
var compareFormats = []string{"text", "json", "markdown"}

func init() {
	commands = append(commands, func(g *globalOptions) *cobra.Command { return newCompareCmd(g, nil) })
}

// newCompareCmd makes the command; runF, when not nil, is called with the
// options in place of running (tests read what the flags became).
func newCompareCmd(g *globalOptions, runF func(*compareOptions) error) *cobra.Command {
	opts := &compareOptions{}
	var threshold, fail string
	cmd := &cobra.Command{
		Use:   "compare OLD.json[,OLD2.json...] NEW.json[,NEW2.json...]",
		Short: "Compare results: what changed, and whether it is more than noise",
		Long: `compare matches the experiments of benchy results by name and says, for
each, whether NEW is faster, slower, or not detectably different from OLD.

Runs differ as wholes, so the run is the unit: give several result files
per side (comma-separated) and their run medians are compared (Welch's t on
the logs); with one run on a side the interval is widened by the run-to-run
variation measured on the other side's runs, or, with one run on each side,
by the 3% such runs usually have, assumed, and the sentence says how large
a change it can tell. Comparisons are in cycles where the clock
was measured around the experiment, on on-CPU time where another task took
the CPU, and "inconclusive" where nothing measured can leave out what
interfered. A change is claimed only when the interval excludes 1 (with
several experiments the intervals are held to 5% together, Bonferroni, and
agree with the adjusted p-values) and both the change and the whole
interval lie beyond --threshold. Before the numbers it
lists every difference of machine or settings that could explain a change.

With --fail-on-regression PCT it exits 1 when an experiment is
significantly slower by more than PCT with its whole confidence interval,
or failed in NEW; exit 4 when it cannot judge (an inconclusive or not
comparable experiment, one missing from NEW or measured only in part): rerun
on a quieter machine. Exit 2: bad files or flags, or no experiment in
common.`,
		Example: `  benchy compare old.json new.json
  benchy compare a1.json,a2.json,a3.json b1.json,b2.json,b3.json
  benchy compare old.json new.json --fail-on-regression 5% --format markdown`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return Usagef("compare takes OLD and NEW, each a result file or a comma-separated list of them (runs of one side), got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Old, opts.New = args[0], args[1]
			var err error
			if opts.Threshold, err = parseFraction("--threshold", threshold); err != nil {
				return err
			}
			opts.FailOnRegression = -1
			if cmd.Flags().Changed("fail-on-regression") {
				if opts.FailOnRegression, err = parseFraction("--fail-on-regression", fail); err != nil {
					return err
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return compareRun(opts, g.Stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&threshold, "threshold", "2%", "smallest change claimed as a difference: `PCT` as 2% or 0.02")
	f.StringVar(&fail, "fail-on-regression", "", "exit 1 when an experiment is significantly slower by more than `PCT` (5% or 0.05)")
	f.StringVar(&opts.Format, "format", "text", "output format: "+strings.Join(compareFormats, ", "))
	return cmd
}

// maxFraction bounds the percentages the flags take (1000%).
const maxFraction = 10

// parseFraction reads a percentage "5%" or a fraction "0.05". A bare
// number above 1 is refused rather than guessed: "5" could mean 5% or 5x.
func parseFraction(flag, s string) (float64, error) {
	return parseFractionBelow(flag, s, maxFraction)
}

// parseFractionBelow is parseFraction with limit as the largest value
// taken; +Inf leaves the range to the caller, so a flag's one error names
// its own bounds.
func parseFractionBelow(flag, s string, limit float64) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, Usagef("%s %q: not a percentage; write e.g. 5%% or 0.05", flag, s)
	}
	if pct {
		v /= 100
	} else if v > 1 {
		return 0, Usagef("%s %s: write %s%% or %s", flag, t, t, strconv.FormatFloat(v/100, 'f', -1, 64))
	}
	if !math.IsInf(limit, 1) && (v < 0 || v > limit) {
		return 0, Usagef("%s %s: must be between 0%% and %s", flag, t, units.Percent(limit))
	}
	return v, nil
}

// compareRun loads, analyzes and compares the two sides, writes the
// comparison to w, and returns the gate's error when it fails (exit 1)
// or cannot judge (exit 4).
func compareRun(opts *compareOptions, w io.Writer) error {
	if err := checkFormat(opts.Format, compareFormats); err != nil {
		return err
	}
	old, err := loadSide(opts.Old)
	if err != nil {
		return err
	}
	cur, err := loadSide(opts.New)
	if err != nil {
		return err
	}
	files, err := compare.Results(old, cur, opts.Threshold)
	if errors.Is(err, compare.ErrNothingInCommon) {
		return Usagef("%s and %s have no experiment in common (old: %s; new: %s)",
			opts.Old, opts.New, names(old[0]), names(cur[0]))
	}
	if err != nil {
		return err
	}
	c := newComparison(sides(strings.Split(opts.Old, ","), old), sides(strings.Split(opts.New, ","), cur), files, opts.FailOnRegression)
	c.Instructions = countRows(old, cur, files.Rows)
	if err := c.write(w, opts.Format); err != nil {
		return err
	}
	return c.exit()
}

// newComparison is what every format writes; fail < 0 means no gate.
func newComparison(old, cur []fileSide, files compare.Files, fail float64) comparison {
	c := comparison{Old: old, New: cur, Files: files, Method: method(files), Regressions: []string{}}
	if fail >= 0 {
		c.FailOnRegression = &fail
		c.gate = files.Gate(fail)
		for _, r := range c.gate.Regressions {
			c.Regressions = append(c.Regressions, r.Name)
		}
		c.Failed, c.CannotJudge = orEmpty(c.gate.Failed), orEmpty(c.gate.CannotJudge)
	}
	return c
}

// write writes c in format (text, json or markdown).
func (c comparison) write(w io.Writer, format string) error {
	switch format {
	case "json":
		return writeCompareJSON(w, c)
	case "markdown":
		return writeCompareMarkdown(w, c)
	}
	return writeCompareText(w, c)
}

// exit is the gate's outcome: nil without a gate or when it passed, exit
// 1 on a regression or a failure, exit 4 when it cannot judge.
func (c comparison) exit() error {
	switch {
	case c.FailOnRegression == nil || c.gate.Passed():
		return nil
	case len(c.gate.Regressions)+len(c.gate.Failed) > 0:
		return &SlowerError{Msg: c.gateMessage()}
	}
	return &CannotJudgeError{Msg: c.gateMessage()}
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// loadSide loads the results of one side: a file, or a comma-separated
// list of files (runs of the same programs).
func loadSide(list string) ([]*result.Result, error) {
	var rs []*result.Result
	seen := map[string]bool{}
	for _, path := range strings.Split(list, ",") {
		if path = strings.TrimSpace(path); path == "" {
			return nil, Usagef("%q: an empty file name in the list", list)
		}
		if abs, err := filepath.Abs(path); err == nil && seen[abs] {
			return nil, Usagef("%s is given twice: one file is one run, and counting it twice would hide the variation between runs", path)
		} else {
			seen[abs] = true
		}
		r, err := loadForCompare(path)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// method says how the numbers were computed and when a change is claimed.
func method(f compare.Files) string {
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

// loadForCompare loads and analyzes one result; every failure is one
// usage line that names the file.
func loadForCompare(path string) (*result.Result, error) {
	r, err := result.Load(path)
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, Usagef("%s: %v", path, pe.Err)
	}
	if ke := (*result.KindError)(nil); errors.As(err, &ke) {
		return nil, Usagef("%v: compare takes results (the --out FILE.json of run, exec or gotest)", err)
	}
	if err != nil {
		return nil, Usagef("%v", err)
	}
	if len(r.Experiments) == 0 {
		return nil, Usagef("%s: the result holds no experiment", path)
	}
	analyze.Analyze(r)
	return r, nil
}

func names(r *result.Result) string {
	ns := make([]string, len(r.Experiments))
	for i, e := range r.Experiments {
		ns[i] = e.Name
	}
	return strings.Join(ns, ", ")
}

// comparison is what every format writes.
type comparison struct {
	Old, New []fileSide `json:"-"`
	compare.Files
	Method string `json:"method"`
	// FailOnRegression is the gate's limit, nil without a gate;
	// Regressions are the experiments that fail it, Failed those that
	// failed in NEW, CannotJudge those it could not judge.
	FailOnRegression *float64 `json:"fail_on_regression,omitempty"`
	Regressions      []string `json:"regressions"`
	Failed           []string `json:"failed,omitempty"`
	CannotJudge      []string `json:"cannot_judge,omitempty"`
	// Instructions compares the experiments counted on both sides on
	// their instructions per op (--measure instructions).
	Instructions []compare.CountRow `json:"instructions,omitempty"`
	// ProfileDiffs are the profiles of the two sides diffed (gotest
	// --against --profile).
	ProfileDiffs []result.ProfileDiff `json:"profile_diffs,omitempty"`
	// Layouts is what the layouts did (gotest --against --layouts).
	Layouts *result.Layouts `json:"layouts,omitempty"`
	gate    compare.Gate
}

// fileSide says which run one side of the comparison is.
type fileSide struct {
	File  string    `json:"file"`
	Tool  string    `json:"tool"`
	Start time.Time `json:"start"`
	Host  string    `json:"host"`
	CPU   int       `json:"cpu"`
}

func sides(paths []string, rs []*result.Result) []fileSide {
	out := make([]fileSide, len(rs))
	for i, r := range rs {
		s := fileSide{File: strings.TrimSpace(paths[i]), Tool: r.Tool, Start: r.Start, Host: "unknown: the result holds no snapshot", CPU: r.CPU}
		if r.Before != nil {
			s.Host = r.Before.Hostname.String()
		}
		out[i] = s
	}
	return out
}

// sidesText is the files of a side, one line each.
func sidesText(label string, ss []fileSide) string {
	var b strings.Builder
	indent := strings.Repeat(" ", len(label)+2)
	for i, s := range ss {
		if i == 0 {
			fmt.Fprintf(&b, "%s\n", render.Wrap(label+": "+s.String(), textWidth, indent))
		} else {
			fmt.Fprintf(&b, "%s\n", render.Wrap(indent+s.String(), textWidth, indent))
		}
	}
	return b.String()
}

func (s fileSide) String() string {
	when := "unknown time"
	if !s.Start.IsZero() {
		when = s.Start.UTC().Format("2006-01-02 15:04 UTC")
	}
	return fmt.Sprintf("%s (%s, %s, host %s, cpu%d)", result.Printable(s.File), s.Tool, when, s.Host, s.CPU)
}

// gateMessage is the one line the gate fails with: the regressions and
// failures, else what it could not judge.
func (c comparison) gateMessage() string {
	limit := units.Percent(*c.FailOnRegression)
	var parts []string
	if len(c.gate.Regressions) > 0 {
		var rs []string
		for _, r := range c.gate.Regressions {
			rs = append(rs, fmt.Sprintf("%s %s (%s CI %s to %s)", r.Name,
				units.Change(r.Change()), units.Level(r.Level), units.Change(r.CILow-1), units.Change(r.CIHigh-1)))
		}
		parts = append(parts, fmt.Sprintf("%s slower by more than %s with the whole confidence interval: %s",
			units.Count(len(rs), "experiment"), limit, strings.Join(rs, ", ")))
	}
	if len(c.gate.Failed) > 0 {
		parts = append(parts, "failed in new: "+strings.Join(c.gate.Failed, ", "))
	}
	if len(parts) == 0 {
		return fmt.Sprintf("--fail-on-regression %s: cannot judge %s (exit 4)", limit, strings.Join(c.gate.CannotJudge, "; "))
	}
	return fmt.Sprintf("--fail-on-regression %s: %s", limit, strings.Join(parts, "; "))
}

// gateLine is the gate's outcome for the report, "" without a gate.
func (c comparison) gateLine() string {
	if c.FailOnRegression == nil {
		return ""
	}
	if c.gate.Passed() {
		return fmt.Sprintf("gate: passed: --fail-on-regression %s: every experiment was judged, and none is significantly slower by more than %s",
			units.Percent(*c.FailOnRegression), units.Percent(*c.FailOnRegression))
	}
	if len(c.gate.Regressions)+len(c.gate.Failed) == 0 {
		return "gate: CANNOT JUDGE: " + c.gateMessage()
	}
	return "gate: FAILED: " + c.gateMessage()
}

// cells are one row's columns in every table format: old and new median,
// change, interval, p-value, verdict. A row that is not comparable shows
// its medians only: its change would be a number nobody should read.
func cells(r compare.Row) []string {
	c := []string{perOpCell(r.BaseMedian, r.Basis), perOpCell(r.CandidateMedian, r.Basis), "-", "-", "-", r.Verdict}
	if r.Judged() {
		c[2] = units.Change(r.Change())
		c[3] = units.Change(r.CILow-1) + " to " + units.Change(r.CIHigh-1)
		c[4] = render.FmtP(r.AdjustedP)
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

func writeCompareText(w io.Writer, c comparison) error {
	var b strings.Builder
	b.WriteString(sidesText("old", c.Old) + sidesText("new", c.New) + "\n")
	if len(c.Differences) == 0 {
		b.WriteString(render.Wrap("machine: no difference in host, CPU model, kernel, Go, benchy, governor, turbo, frequency limits, core type, clock, load, GOMAXPROCS, pinned CPU or settings", textWidth, "  ") + "\n\n")
	} else {
		b.WriteString("machine differences that can explain a change (read them before the numbers):\n")
		rows := make([][]string, len(c.Differences))
		for i, d := range c.Differences {
			rows[i] = []string{"  " + d.What, d.Old, "->", d.New}
		}
		render.WriteLeft(&b, rows)
		b.WriteByte('\n')
	}
	rows := [][]string{compareHeader(c.Files)}
	for _, r := range c.Rows {
		rows = append(rows, append([]string{r.Name}, cells(r)...))
	}
	if c.Geomean.N > 0 {
		rows = append(rows, append([]string{"geomean"}, geomeanCells(c.Geomean)...))
	}
	// Too wide for the terminal, the table loses its p column first
	// (every row's sentence below gives it), then wraps its verdicts.
	render.WriteLeft(&b, render.FitLeft(rows, textWidth, pColumn))
	if len(c.OnlyOld)+len(c.OnlyNew) > 0 {
		b.WriteByte('\n')
	}
	if len(c.OnlyOld) > 0 {
		fmt.Fprintf(&b, "only in old: %s\n", strings.Join(c.OnlyOld, ", "))
	}
	if len(c.OnlyNew) > 0 {
		fmt.Fprintf(&b, "only in new: %s\n", strings.Join(c.OnlyNew, ", "))
	}
	b.WriteByte('\n')
	shared := sharedBasis(c.Rows)
	if shared != "" {
		fmt.Fprintf(&b, "%s\n", render.Wrap("every row "+strings.TrimPrefix(shared, "; "), textWidth, "  "))
	}
	for _, r := range c.Rows {
		sentence := render.Sentence(r.Pair)
		if shared != "" {
			sentence = strings.Replace(sentence, shared, "", 1)
		}
		fmt.Fprintf(&b, "%s\n", render.Wrap(sentence, textWidth, "  "))
		if r.Caution != "" {
			fmt.Fprintf(&b, "  %s\n", render.Wrap("caution: "+r.Caution, textWidth-2, "    "))
		}
	}
	b.WriteString(countText(c.Instructions))
	writeLayoutsText(&b, c.Layouts)
	writeProfileDiffsText(&b, c.ProfileDiffs)
	fmt.Fprintf(&b, "\n%s\n", render.Wrap("method: "+c.Method, textWidth, "  "))
	if g := c.gateLine(); g != "" {
		fmt.Fprintf(&b, "%s\n", render.Wrap(g, textWidth, "  "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// sharedBasis is what the rows' sentences say of their basis when two or
// more rows say the same, so the text says it once; "" otherwise.
func sharedBasis(rows []compare.Row) string {
	if len(rows) < 2 {
		return ""
	}
	first := render.BasisText(rows[0].Pair)
	for _, r := range rows[1:] {
		if render.BasisText(r.Pair) != first {
			return ""
		}
	}
	return first
}

// textWidth is the width text reports are written for (the prose of a
// comparison, the list, the machine): an 80-column terminal.
const textWidth = 80

// writeCompareMarkdown writes a pull-request comment: the machine
// differences first, a table, the reasons of rows without a verdict, the
// method and the gate.
func writeCompareMarkdown(w io.Writer, c comparison) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### benchy compare: %s → %s\n\n", render.MarkdownCode(files(c.Old)), render.MarkdownCode(files(c.New)))
	if len(c.Differences) == 0 {
		b.WriteString("Same machine and settings in both runs.\n\n")
	} else {
		b.WriteString("> [!WARNING]\n> **Machine differences** that can explain a change:\n")
		for _, d := range c.Differences {
			fmt.Fprintf(&b, "> - %s: %s → %s\n", render.MarkdownCell(d.What), render.MarkdownCode(d.Old), render.MarkdownCode(d.New))
		}
		b.WriteByte('\n')
	}
	b.WriteString("| " + strings.Join(compareHeader(c.Files), " | ") + " |\n")
	b.WriteString("|:--|--:|--:|--:|:--|--:|:--|\n")
	for _, r := range c.Rows {
		cs := cells(r)
		if r.Verdict == result.Faster || r.Verdict == result.Slower {
			cs[5] = "**" + cs[5] + "**"
		}
		fmt.Fprintf(&b, "| %s | %s |\n", render.MarkdownCode(r.Name), strings.Join(mdCells(cs), " | "))
	}
	if c.Geomean.N > 0 {
		fmt.Fprintf(&b, "| geomean | %s |\n", strings.Join(mdCells(geomeanCells(c.Geomean)), " | "))
	}
	var notes []string
	for _, r := range c.Rows {
		if r.Verdict == result.NotComparable || r.Verdict == result.Inconclusive {
			notes = append(notes, fmt.Sprintf("- %s %s: %s\n", render.MarkdownCode(r.Name), r.Verdict, render.MarkdownCell(r.Reason)))
		}
		if r.Caution != "" {
			notes = append(notes, fmt.Sprintf("- %s caution: %s\n", render.MarkdownCode(r.Name), render.MarkdownCell(r.Caution)))
		}
	}
	if len(c.OnlyOld) > 0 {
		notes = append(notes, fmt.Sprintf("- only in old: %s\n", mdList(c.OnlyOld)))
	}
	if len(c.OnlyNew) > 0 {
		notes = append(notes, fmt.Sprintf("- only in new: %s\n", mdList(c.OnlyNew)))
	}
	if len(notes) > 0 {
		b.WriteString("\n" + strings.Join(notes, ""))
	}
	b.WriteString(countMarkdown(c.Instructions))
	writeProfileDiffsMarkdown(&b, c.ProfileDiffs)
	fmt.Fprintf(&b, "\n<sub>%s</sub>\n", render.MarkdownCell(c.Method))
	if g := c.gateLine(); g != "" {
		fmt.Fprintf(&b, "\n**%s**\n", render.MarkdownCell(g))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdCells(cs []string) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = render.MarkdownCell(c)
	}
	return out
}

func mdList(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = render.MarkdownCode(x)
	}
	return strings.Join(out, ", ")
}

// files is the file names of a side, comma-separated, printable (a file
// name is the user's, and may hold anything).
func files(ss []fileSide) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = result.Printable(s.File)
	}
	return strings.Join(names, ",")
}

// comparisonDoc is a comparison as its JSON document holds it: what the
// document is (a schema, a kind, the benchy that wrote it), so that benchy
// report reads it back, then the files of each side and the comparison.
type comparisonDoc struct {
	Schema int        `json:"schema"`
	Kind   string     `json:"kind"`
	Tool   string     `json:"tool"`
	Old    []fileSide `json:"old"`
	New    []fileSide `json:"new"`
	comparison
}

func writeCompareJSON(w io.Writer, c comparison) error {
	c.Rows = slices.Clone(c.Rows)
	for i := range c.Rows {
		c.Rows[i].Sentence = render.Sentence(c.Rows[i].Pair)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(comparisonDoc{result.SchemaVersion, result.KindComparison, "benchy " + Version, c.Old, c.New, c})
}

// readComparison reads back what writeCompareJSON wrote (data is a
// document result.Unmarshal found to be of KindComparison). The gate is
// the one the file records: its rows hold no samples to judge again.
func readComparison(data []byte) (comparison, error) {
	var d comparisonDoc
	if err := json.Unmarshal(data, &d); err != nil {
		return comparison{}, fmt.Errorf("not a valid benchy comparison: %s", oneLine(err.Error()))
	}
	c := d.comparison
	c.Old, c.New = d.Old, d.New
	if c.FailOnRegression != nil {
		c.gate = compare.Gate{Failed: c.Failed, CannotJudge: c.CannotJudge}
		for _, r := range c.Rows {
			if slices.Contains(c.Regressions, r.Name) {
				c.gate.Regressions = append(c.gate.Regressions, r)
			}
		}
	}
	return c, nil
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
