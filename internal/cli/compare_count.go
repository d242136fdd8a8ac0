package cli

import (
	"fmt"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// countRows compares the sides on their instructions per op, each row
// judged with its time row (what both bases mean together); nil when
// nothing was counted on both sides.
func countRows(old, cur []*result.Result, timeRows []compare.Row) []compare.CountRow {
	rows := compare.Counts(old, cur)
	for i := range rows {
		for _, t := range timeRows {
			if t.Name == rows[i].Name {
				rows[i].Judge(t.Verdict, t.Change())
			}
		}
	}
	return rows
}

var countHeader = []string{"instructions", "old", "new", "change", "noise", "verdict"}

// countCells are a count row's cells after its name.
func countCells(r compare.CountRow) []string {
	if r.Verdict == compare.CountNotCompared {
		return []string{render.CountNumber(r.Old), render.CountNumber(r.New), "-", "-", r.Verdict}
	}
	return []string{render.CountNumber(r.Old), render.CountNumber(r.New), units.Change(r.Change),
		"±" + units.Sig(100*r.Noise, 2) + "%", r.Verdict}
}

// countText is the comparison on instructions: a table, then per
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
	render.WriteLeft(&b, table)
	for _, r := range rows {
		switch {
		case r.Reason != "":
			fmt.Fprintf(&b, "%s\n", render.Wrap(r.Name+": instructions not compared: "+r.Reason, textWidth, "  "))
		case r.Both != "":
			fmt.Fprintf(&b, "%s\n", render.Wrap(r.Both, textWidth, "  "))
		}
	}
	fmt.Fprintf(&b, "%s\n", render.Wrap("instructions: counted per op, claimed beyond 3 standard errors of the counts' run-to-run variation (measured in each run, and never less than "+
		units.Sig(100*compare.CountFloor, 2)+"% a run); not a time", textWidth, "  "))
	return b.String()
}

// countMarkdown is countText for a pull request.
func countMarkdown(rows []compare.CountRow) string {
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n| " + strings.Join(countHeader, " | ") + " |\n|:--|--:|--:|--:|--:|:--|\n")
	for _, r := range rows {
		cs := countCells(r)
		if r.Verdict == compare.MoreInstructions || r.Verdict == compare.FewerInstructions {
			cs[4] = "**" + cs[4] + "**"
		}
		fmt.Fprintf(&b, "| %s | %s |\n", render.MarkdownCode(r.Name), strings.Join(mdCells(cs), " | "))
	}
	for _, r := range rows {
		switch {
		case r.Reason != "":
			fmt.Fprintf(&b, "\n- %s instructions not compared: %s", render.MarkdownCode(r.Name), render.MarkdownCell(r.Reason))
		case r.Both != "":
			fmt.Fprintf(&b, "\n- %s", render.MarkdownCell(r.Both))
		}
	}
	b.WriteByte('\n')
	return b.String()
}
