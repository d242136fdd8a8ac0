package render

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func compactRow(name, allocs, verdict string) []string {
	return []string{name, "1.19", "1.26", "1.33", "1.33", "µs", allocs, verdict}
}

var compactHeaderRow = []string{"experiment", "min", "median", "p90", "max", "", "allocs", "verdict"}

func TestFitAllocsKeepsAColumnThatFits(t *testing.T) {
	rows := [][]string{compactRow("sum/sink", "0", "believable"), compactRow("concat", "20", "doubtful: slow-core")}
	header, got, notes := fitAllocs(compactHeaderRow, rows, nil, 80)
	if !slices.Equal(header, compactHeaderRow) || len(got[0]) != 8 || len(notes) != 0 {
		t.Errorf("a table whose verdicts fit changed: %q %q %q", header, got, notes)
	}
}

func TestFitAllocsMovesTheColumnUnderTheTable(t *testing.T) {
	rows := [][]string{
		compactRow("sum/noinline-total", "0", "not believable: disturbed"),
		compactRow("concat/quadratic", "7999", "doubtful: no-load-in-loop +4"),
		compactRow("concat/builder", "20", "believable"),
		compactRow("failed", "-", "not believable: failed"),
	}
	header, got, notes := fitAllocs(compactHeaderRow, rows, []string{"† on-CPU"}, 80)
	if slices.Contains(header, "allocs") {
		t.Fatalf("the allocs column stayed: %q", header)
	}
	for _, row := range got {
		if len(row) != len(header) {
			t.Errorf("row %q has %d cells for %d columns", row, len(row), len(header))
		}
	}
	if verdictsTooWide(header, got, 80) != 0 {
		t.Errorf("a verdict still needs a line of its own: %q", got)
	}
	want := []string{"allocs/op: concat/quadratic 7999, concat/builder 20; 0 in the others", "† on-CPU"}
	if !slices.Equal(notes, want) {
		t.Errorf("footnotes = %q, want %q", notes, want)
	}
}

func TestFitAllocsKeepsTheColumnWhenTheNoteWouldBeLong(t *testing.T) {
	var rows [][]string
	for i := range 12 {
		rows = append(rows, compactRow(fmt.Sprintf("parse/json-document-%02d", i), "1234", "not believable: disturbed"))
	}
	header, got, notes := fitAllocs(compactHeaderRow, rows, nil, 80)
	if !slices.Contains(header, "allocs") || len(got[0]) != 8 || len(notes) != 0 {
		t.Errorf("twelve allocating experiments moved to a footnote: %q", notes)
	}
}

func TestFitAllocsNamesMaxRSSForPrograms(t *testing.T) {
	header := slices.Clone(compactHeaderRow)
	header[allocsColumn] = "max RSS"
	rows := [][]string{compactRow("./a", "3.1 MiB", "not believable: disturbed"), compactRow("./b", "≤3 MiB", "not believable: impossible")}
	_, _, notes := fitAllocs(header, rows, nil, 70)
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "max RSS: ./a 3.1 MiB, ./b ≤3 MiB") || strings.Contains(notes[0], "others") {
		t.Errorf("footnotes = %q", notes)
	}
}

// A comparison table too wide for 80 columns loses the column the text
// repeats, then wraps its last column at spaces, never inside a word.
func TestFitLeft(t *testing.T) {
	header := []string{"experiment", "change", "p", "verdict"}
	row := []string{"fold/opaque", "-0.05%", "1.00", "no difference detected"}
	join := func(rows [][]string) string {
		var b strings.Builder
		WriteLeft(&b, rows)
		return b.String()
	}
	for _, c := range []struct {
		name  string
		width int
		drop  int
		want  string
	}{
		{"fits", 80, 2, "experiment   change  p     verdict\nfold/opaque  -0.05%  1.00  no difference detected\n"},
		{"without p", 45, 2, "experiment   change  verdict\nfold/opaque  -0.05%  no difference detected\n"},
		{"wrapped", 40, 2, "experiment   change  verdict\nfold/opaque  -0.05%  no difference\n                     detected\n"},
		{"no column to drop", 45, -1, "experiment   change  p     verdict\nfold/opaque  -0.05%  1.00  no difference\n                           detected\n"},
		{"room below the longest word", 25, 2, "experiment   change  verdict\nfold/opaque  -0.05%  no\n                     difference\n                     detected\n"},
	} {
		got := join(FitLeft([][]string{header, row}, c.width, c.drop))
		if got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}
