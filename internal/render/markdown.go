package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// writeMarkdown writes a result for a pull request: one table of the
// experiments with their verdicts, the comparisons of an interleaved run,
// and the summary. Only a judged difference is written in bold; an
// inconclusive one is not a claim, and reads like the others.
func writeMarkdown(w io.Writer, r *result.Result, c *compare.Document) error {
	var b strings.Builder
	b.WriteString("| experiment | min | median | p90 | verdict |\n|:--|--:|--:|--:|:--|\n")
	for _, e := range r.Experiments {
		st := e.Stats
		cells := []string{"-", "-", "-"}
		if st.N > 0 {
			cells = []string{units.Duration(st.Min), units.Duration(st.Median), units.Duration(st.P90)}
		} else if e.Error != "" {
			cells[0] = "failed"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", MarkdownCode(e.Label()), strings.Join(cells, " | "), MarkdownCell(verdictCell(e)))
	}
	for _, line := range []string{reportedLine(r), goTestLine(r), slowedLine(r)} {
		if line != "" {
			fmt.Fprintf(&b, "\n%s\n", MarkdownCell(line))
		}
	}
	writeCountMarkdown(&b, r)
	if c != nil {
		b.WriteString("\n")
		if err := writeComparisonMarkdown(&b, *c); err != nil {
			return err
		}
	}
	fmt.Fprintf(&b, "\n<sub>%s; %s</sub>\n", MarkdownCell("summary: "+summaryLine(r)), MarkdownCell(compactSettings(r)))
	_, err := io.WriteString(w, b.String())
	return err
}

// MarkdownCell makes text safe in a markdown table cell: one line, pipes
// escaped.
func MarkdownCell(s string) string {
	return strings.ReplaceAll(units.OneLine(s), "|", `\|`)
}

// MarkdownCode is s as a code span, safe in a table cell: delimited by one
// backtick more than the longest run of them in s (CommonMark), so a name
// with backticks reads as written, not with quotes in their place.
func MarkdownCode(s string) string {
	s = MarkdownCell(s)
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " " // the one space each side a code span drops
	}
	return fence + s + fence
}
