package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// writeComparisonText writes the comparison for a terminal: the sides,
// the machine differences, the table, a sentence per row, the
// instructions, layouts and profiles, the method and the gate.
func writeComparisonText(w io.Writer, c compare.Document) error {
	if c.Interleaved() {
		_, err := io.WriteString(w, interleavedText(c))
		return err
	}
	var b strings.Builder
	b.WriteString(sidesText("old", c.Old) + sidesText("new", c.New) + "\n")
	if len(c.Differences) == 0 {
		b.WriteString(Wrap("machine: no difference in host, CPU model, kernel, Go, benchy, governor, turbo, frequency limits, core type, clock, load, GOMAXPROCS, pinned CPU or settings", comparisonWidth, "  ") + "\n\n")
	} else {
		b.WriteString("machine differences that can explain a change (read them before the numbers):\n")
		rows := make([][]string, len(c.Differences))
		for i, d := range c.Differences {
			rows[i] = []string{"  " + d.What, d.Old, "->", d.New}
		}
		WriteLeft(&b, rows)
		b.WriteByte('\n')
	}
	rows := [][]string{compareHeader(c.Files)}
	for _, r := range c.Rows {
		rows = append(rows, append([]string{r.Name}, rowCells(r)...))
	}
	if c.Geomean.N > 0 {
		rows = append(rows, append([]string{"geomean"}, geomeanCells(c.Geomean)...))
	}
	// Too wide for the terminal, the table loses its p column first
	// (every row's sentence below gives it), then wraps its verdicts.
	WriteLeft(&b, FitLeft(rows, comparisonWidth, pColumn))
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
		fmt.Fprintf(&b, "%s\n", Wrap("every row "+strings.TrimPrefix(shared, "; "), comparisonWidth, "  "))
	}
	for _, r := range c.Rows {
		sentence := Sentence(r.Pair)
		if shared != "" {
			sentence = strings.Replace(sentence, shared, "", 1)
		}
		fmt.Fprintf(&b, "%s\n", Wrap(sentence, comparisonWidth, "  "))
		if r.Caution != "" {
			fmt.Fprintf(&b, "  %s\n", Wrap("caution: "+r.Caution, comparisonWidth-2, "    "))
		}
	}
	b.WriteString(countText(c.Instructions))
	WriteLayoutsText(&b, c.Layouts)
	writeProfileDiffsText(&b, c.ProfileDiffs)
	fmt.Fprintf(&b, "\n%s\n", Wrap("method: "+c.Method, comparisonWidth, "  "))
	if g := gateLine(c); g != "" {
		fmt.Fprintf(&b, "%s\n", Wrap(g, comparisonWidth, "  "))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// interleavedText is an interleaved run's comparison, as the report (-v)
// shows it: how it was made, then a sentence per candidate, and the
// reason of its verdict when the sentence does not give it.
func interleavedText(c compare.Document) string {
	var b strings.Builder
	fmt.Fprintf(&b, "comparison (%s):\n", c.Method)
	for _, r := range c.Rows {
		s := Sentence(r.Pair)
		fmt.Fprintf(&b, "  %s\n", s)
		if r.Reason != "" && !strings.Contains(s, r.Reason) {
			fmt.Fprintf(&b, "    why: %s\n", r.Reason)
		}
	}
	return b.String()
}

// interleavedCompact is interleavedText for the default text, which fits
// one screen: the sentences alone, wrapped to width.
func interleavedCompact(c compare.Document, width int) string {
	var b strings.Builder
	for _, r := range c.Rows {
		fmt.Fprintf(&b, "%s\n", Wrap(Sentence(r.Pair), width, "  "))
	}
	return b.String()
}

// countText is the compare.Document on instructions: a table, then per
// experiment what the two bases say together, and why a row was not
// compared; "" when nothing was counted.
func countText(rows []compare.CountRow) string {
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	table := [][]string{countHeader}
	for _, r := range rows {
		table = append(table, append([]string{r.Name}, countCells(r)...))
	}
	b.WriteByte('\n')
	WriteLeft(&b, table)
	for _, r := range rows {
		switch {
		case r.Reason != "":
			fmt.Fprintf(&b, "%s\n", Wrap(r.Name+": instructions not compared: "+r.Reason, comparisonWidth, "  "))
		case r.Both != "":
			fmt.Fprintf(&b, "%s\n", Wrap(r.Both, comparisonWidth, "  "))
		}
	}
	fmt.Fprintf(&b, "%s\n", Wrap("instructions: counted per op, claimed beyond 3 standard errors of the counts' run-to-run variation (measured in each run, and never less than "+
		units.Sig(100*compare.CountFloor, 2)+"% a run); not a time", comparisonWidth, "  "))
	return b.String()
}

// WriteLayoutsText says what the layouts did, one row per benchmark: the
// layouts' medians of each side, the variation between layouts and between
// processes, the change claimed and whether it is layout-sensitive.
func WriteLayoutsText(w io.Writer, l *result.Layouts) {
	if l == nil {
		return
	}
	fmt.Fprintf(w, "\n%s\n", Wrap(fmt.Sprintf("layouts: %d links of each revision (-ldflags=-randlayout=SEED, seeds %s), %s each, interleaved", len(l.Seeds), seedList(l.Seeds), units.Count(l.Processes, "process")), comparisonWidth, "  "))
	// Short headings: the row of a layout-sensitive benchmark fits 80
	// columns with a name of up to 15 characters.
	rows := [][]string{{"  benchmark", "move", "sd layout", "sd process", "range", "change", ""}}
	for _, sp := range l.Benchmarks {
		change, verdict := "-", ""
		if sp.Change != 0 {
			change = units.Change(sp.Change)
		}
		if sp.Sensitive {
			verdict = result.LayoutSensitive
		}
		rows = append(rows, []string{"  " + sp.Name, "±" + units.Pct(sp.Move), units.Pct(sp.LayoutSD), units.Pct(sp.ProcessSD), units.Pct(sp.Range), change, verdict})
	}
	WriteLeft(w, rows)
	fmt.Fprintf(w, "%s\n", Wrap("move: what layouts alone move a benchmark by, twice the standard deviation between layouts (the processes' own variation taken out); a claimed change no larger is layout-sensitive. range: the largest gap between two layouts' medians, process noise included", comparisonWidth, "  "))
}

func seedList(seeds []int64) string {
	s := make([]string, len(seeds))
	for i, x := range seeds {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// profileDiffRows is how many functions of a difference the text shows.
const profileDiffRows = 8

// writeProfileDiffsText writes the differences of the profiles under a
// comparison: per benchmark a line, then the functions whose time per op
// grew most, first.
func writeProfileDiffsText(b *strings.Builder, ds []result.ProfileDiff) {
	if len(ds) == 0 {
		return
	}
	b.WriteString("\nprofiles, new less old, CPU per op (what grew most first):\n")
	for _, d := range ds {
		fmt.Fprintf(b, "  %s\n", Wrap(ProfileDiffLine(d), comparisonWidth-2, "    "))
		if len(d.Rows) == 0 {
			continue
		}
		rows := ProfileDiffRows(d, profileDiffRows)
		for i := range rows {
			rows[i][0] = "    " + rows[i][0]
		}
		WriteLeft(b, rows)
	}
}
