package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
)

// writeComparisonMarkdown writes a pull-request comment: the machine
// differences first, a table, the reasons of rows without a verdict, the
// method and the gate.
func writeComparisonMarkdown(w io.Writer, c compare.Document) error {
	if c.Interleaved() {
		_, err := io.WriteString(w, interleavedMarkdown(c))
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### benchy compare: %s → %s\n\n", MarkdownCode(sideFiles(c.Old)), MarkdownCode(sideFiles(c.New)))
	if len(c.Differences) == 0 {
		b.WriteString("Same machine and settings in both runs.\n\n")
	} else {
		b.WriteString("> [!WARNING]\n> **Machine differences** that can explain a change:\n")
		for _, d := range c.Differences {
			fmt.Fprintf(&b, "> - %s: %s → %s\n", MarkdownCell(d.What), MarkdownCode(d.Old), MarkdownCode(d.New))
		}
		b.WriteByte('\n')
	}
	b.WriteString("| " + strings.Join(compareHeader(c.Files), " | ") + " |\n")
	b.WriteString("|:--|--:|--:|--:|:--|--:|:--|\n")
	for _, r := range c.Rows {
		cs := rowCells(r)
		if r.Verdict == result.Faster || r.Verdict == result.Slower {
			cs[5] = "**" + cs[5] + "**"
		}
		fmt.Fprintf(&b, "| %s | %s |\n", MarkdownCode(r.Name), strings.Join(mdCells(cs), " | "))
	}
	if c.Geomean.N > 0 {
		fmt.Fprintf(&b, "| geomean | %s |\n", strings.Join(mdCells(geomeanCells(c.Geomean)), " | "))
	}
	var notes []string
	for _, r := range c.Rows {
		if r.Verdict == result.NotComparable || r.Verdict == result.Inconclusive {
			notes = append(notes, fmt.Sprintf("- %s %s: %s\n", MarkdownCode(r.Name), r.Verdict, MarkdownCell(r.Reason)))
		}
		if r.Caution != "" {
			notes = append(notes, fmt.Sprintf("- %s caution: %s\n", MarkdownCode(r.Name), MarkdownCell(r.Caution)))
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
	fmt.Fprintf(&b, "\n<sub>%s</sub>\n", MarkdownCell(c.Method))
	if g := gateLine(c); g != "" {
		fmt.Fprintf(&b, "\n**%s**\n", MarkdownCell(g))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// interleavedMarkdown is an interleaved run's comparison in a pull
// request: a sentence per candidate, in bold where a difference is
// claimed (an inconclusive one is not a claim, and reads like the others).
func interleavedMarkdown(c compare.Document) string {
	var b strings.Builder
	for _, r := range c.Rows {
		s := MarkdownCell(Sentence(r.Pair))
		if r.Verdict == result.Faster || r.Verdict == result.Slower {
			s = "**" + s + "**"
		}
		fmt.Fprintf(&b, "- %s\n", s)
	}
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
		fmt.Fprintf(&b, "| %s | %s |\n", MarkdownCode(r.Name), strings.Join(mdCells(cs), " | "))
	}
	for _, r := range rows {
		switch {
		case r.Reason != "":
			fmt.Fprintf(&b, "\n- %s instructions not compared: %s", MarkdownCode(r.Name), MarkdownCell(r.Reason))
		case r.Both != "":
			fmt.Fprintf(&b, "\n- %s", MarkdownCell(r.Both))
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// writeProfileDiffsMarkdown is writeProfileDiffsText for a pull request.
func writeProfileDiffsMarkdown(b *strings.Builder, ds []result.ProfileDiff) {
	if len(ds) == 0 {
		return
	}
	b.WriteString("\n**Profiles, new less old** (CPU per op, what grew most first)\n")
	for _, d := range ds {
		fmt.Fprintf(b, "\n%s\n", MarkdownCell(ProfileDiffLine(d)))
		if len(d.Rows) == 0 {
			continue
		}
		rows := ProfileDiffRows(d, profileDiffRows)
		b.WriteString("\n| " + strings.Join(rows[0], " | ") + " |\n|:--|--:|--:|--:|--:|\n")
		for _, r := range rows[1:] {
			fmt.Fprintf(b, "| %s | %s |\n", MarkdownCode(r[0]), strings.Join(mdCells(r[1:]), " | "))
		}
	}
}
