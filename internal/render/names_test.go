package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// Names of 80 characters, as sub-benchmarks built from parameters have:
// three of one family, two that share only a word with it, one with no
// '/' at all.
const encodingFamily = "Encoding/payload-size-in-bytes=4096/with-checksum-verification-enabled/"

var longNames = []string{
	encodingFamily + "mode=fast",
	encodingFamily + "mode=safe",
	encodingFamily + "mode=slow",
	"Decoding/payload-size-in-bytes=65536/with-checksum-verification-enabled/mode=raw",
	"Hashing/input-length-in-bytes=1048576/with-a-freshly-allocated-buffer/parallel=1",
	"DecodeStreamingJSONDocumentsFromAnUnbufferedNetworkConnectionWithoutAnyPoolingV2",
}

// longNamesResult is the fixture run (every verdict, a failure) with the
// experiments named names, analysed.
func longNamesResult(t *testing.T, names []string) *result.Result {
	t.Helper()
	r := resulttest.Fixture()
	r.Experiments = r.Experiments[:len(names)]
	for i, name := range names {
		if n := utf8.RuneCountInString(name); n != 80 {
			t.Fatalf("%s: %d characters, want 80", name, n)
		}
		r.Experiments[i].Name = name
	}
	analyze.Analyze(r)
	return r
}

// shownRows reads the rows of a text table: the name each shows, whole
// or as the heading above it and the end on its row (shortenNames), and
// that row's line. Headings are the lines of one word at the margin.
func shownRows(lines []string) (rows map[string]string, headings []string) {
	rows = map[string]string{}
	heading := ""
	for _, l := range lines {
		fields := strings.Fields(l)
		switch {
		case len(fields) == 1 && !strings.HasPrefix(l, " "):
			heading = l
			headings = append(headings, l)
		case len(fields) > 1 && strings.HasPrefix(l, "  ") && strings.TrimSpace(l) != "":
			rows[heading+strings.TrimPrefix(fields[0], "…")] = l
		case len(fields) > 1 && !strings.HasPrefix(l, " "):
			rows[fields[0]] = l
		}
	}
	return rows, headings
}

// checkFits fails t for a line of out wider than width, and returns the
// lines.
func checkFits(t *testing.T, out string, width int) []string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > width {
			t.Errorf("line of %d runes at width %d: %q", n, width, l)
		}
	}
	return lines
}

// At 100 columns, 80-character names leave every verdict whole on its
// row: what a family shares goes once on a line above its rows, and a
// name that shares nothing is wrapped, the name and never the verdict.
func TestCompactLongNames(t *testing.T) {
	r := longNamesResult(t, longNames)
	var b strings.Builder
	if err := WriteWith(&b, r, "text", Options{Width: 100}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rows, headings := shownRows(checkFits(t, out, 100))
	for _, e := range r.Experiments {
		row, ok := rows[e.Name]
		if !ok {
			t.Errorf("no row shows %s:\n%s", e.Name, out)
			continue
		}
		if !strings.HasSuffix(row, "  "+verdictCell(e)) {
			t.Errorf("the row of %s does not end with its whole verdict %q: %q", e.Name, verdictCell(e), row)
		}
	}
	if n := strings.Count(strings.Join(headings, "\n")+"\n", encodingFamily+"\n"); n != 1 {
		t.Errorf("the family's heading %q is written %d times, want once:\n%s", encodingFamily, n, out)
	}
	if t.Failed() {
		t.Logf("\n%s", out)
	}
}

// A name too long for its row and with no '/' to cut at is wrapped: its
// end, marked as a continuation, stays on the row with the whole verdict.
func TestCompactWrapsAnUncuttableName(t *testing.T) {
	name := longNames[len(longNames)-1]
	r := longNamesResult(t, []string{name})
	var b strings.Builder
	if err := WriteWith(&b, r, "text", Options{Width: 100}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := checkFits(t, out, 100)
	rows, headings := shownRows(lines)
	row, ok := rows[name]
	if !ok || len(headings) != 1 || !strings.HasPrefix(strings.TrimSpace(row), "…") {
		t.Fatalf("want %s wrapped, its end on the row under its start:\n%s", name, out)
	}
	if !strings.HasSuffix(row, "  "+verdictCell(r.Experiments[0])) {
		t.Errorf("the row does not end with its whole verdict %q: %q", verdictCell(r.Experiments[0]), row)
	}
}

// Names that fit are left as they are, however long the verdicts.
func TestShortenNamesLeavesNamesThatFit(t *testing.T) {
	rows := [][]string{compactRow("sum/sink", "0", "believable"), compactRow("sort/ints-8000", "1", "not believable: no-load-in-loop")}
	if heads := shortenNames(compactHeaderRow, rows, 60); heads[0] != "" || heads[1] != "" || rows[1][0] != "sort/ints-8000" {
		t.Errorf("shortened names that fit: %q %q", heads, rows)
	}
}

// Sub-benchmarks of one parent share its heading, however long their own
// level: a row keeps its last level, not as many levels as fit.
func TestShortenNamesGroupsSiblings(t *testing.T) {
	rows := [][]string{
		compactRow("Parse/size=4096/small/x", "0", "believable"),
		compactRow("Parse/size=4096/small/abcdefghijklmn", "0", "believable"),
	}
	heads := shortenNames(compactHeaderRow, rows, 40)
	if heads[0] != "Parse/size=4096/small/" || heads[1] != heads[0] || rows[0][0] != "  x" || rows[1][0] != "  abcdefghijklmn" {
		t.Errorf("heads %q, rows %q %q: want both under Parse/size=4096/small/", heads, rows[0][0], rows[1][0])
	}
}

// At 100 columns the comparison table keeps every verdict whole on its
// row too, with names of 80 characters.
func TestFitLeftLongNames(t *testing.T) {
	rows := [][]string{{"experiment", "old", "new", "change", "98.8% CI", "p", "verdict"}}
	verdicts := []string{"slower", "no difference detected", "not comparable"}
	for i, name := range longNames {
		rows = append(rows, []string{name, "1.14 µs", "1.43 µs", "+25.2%", "+12.6% to +39.2%", "0.001", verdicts[i%len(verdicts)]})
	}
	var b strings.Builder
	if err := WriteLeft(&b, FitLeft(rows, 100, 5)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	got, headings := shownRows(checkFits(t, out, 100))
	for i, name := range longNames {
		row, ok := got[name]
		if !ok {
			t.Errorf("no row shows %s:\n%s", name, out)
			continue
		}
		if v := verdicts[i%len(verdicts)]; !strings.HasSuffix(row, "  "+v) {
			t.Errorf("the row of %s does not end with its whole verdict %q: %q", name, v, row)
		}
	}
	if len(headings) != 4 {
		t.Errorf("%d headings, want 4 (one for the family, one for each other name):\n%s", len(headings), out)
	}
}

func TestCutName(t *testing.T) {
	for _, tt := range []struct {
		name       string
		n          int
		head, tail string
	}{
		{"Encoding/size=4096/mode=fast", 20, "Encoding/size=4096/", "mode=fast"},
		{"Encoding/size=4096/mode=fast", 9, "Encoding/size=4096/", "mode=fast"},
		{"Encoding/size=4096/mode=fast", 8, "Encoding/size=4096/mode=", "…fast"},
		{"Encoding/", 6, "Enco", "…ding/"},
		{"payload-size-in-bytes", 10, "payload-size-", "…in-bytes"},
		{"ParseVeryLongDocumentName", 10, "ParseVeryLongDocument", "…Name"},
		{"a/bcdefghijkl", 5, "a/bcdefgh", "…ijkl"},
	} {
		if head, tail := cutName(tt.name, tt.n); head != tt.head || tail != tt.tail {
			t.Errorf("cutName(%q, %d) = %q, %q, want %q, %q", tt.name, tt.n, head, tail, tt.head, tt.tail)
		}
	}
}

// A heading wider than the screen breaks after a '/', or at the width
// within a level longer than it.
func TestHeadingLines(t *testing.T) {
	got := headingLines("Encoding/payload/with-checksum/", 12)
	want := []string{"Encoding/", "payload/", "with-checksu", "m/"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("headingLines = %q, want %q", got, want)
	}
}
