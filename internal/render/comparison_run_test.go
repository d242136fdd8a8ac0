package render

import (
	"bytes"
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// interleavedResult is the fixture's first experiment interleaved with
// two candidates, one twice as fast and one the same, analysed.
func interleavedResult() *result.Result {
	r := resulttest.Fixture()
	base := r.Experiments[0]
	fast, same := base, base
	fast.Name, same.Name = base.Name+"#fast", base.Name+"#same"
	fast.Samples = slices.Clone(base.Samples)
	for i := range fast.Samples {
		fast.Samples[i].Ns /= 2
	}
	same.Samples = slices.Clone(base.Samples)
	r.Experiments = []result.Experiment{base, fast, same}
	r.Settings.Compare = []string{base.Name, fast.Name, same.Name}
	analyze.Analyze(r)
	return r
}

// The comparison of an interleaved run is its document's, written by the
// comparison's exporter of each format inside the run's report: the text
// (-v) and markdown hold what WriteComparison writes of the document, the
// default text and the page every row's sentence, and the JSON the rows
// where scripts read them, each with its sentence.
func TestRunComparisonIsTheDocuments(t *testing.T) {
	r := interleavedResult()
	d := compare.RunDocument(r)
	if d == nil || len(d.Rows) != 2 || d.Rows[0].Verdict != result.Faster {
		t.Fatalf("document %+v, want two rows, the first faster", d)
	}
	write := func(format string, o Options) string {
		t.Helper()
		var b bytes.Buffer
		if err := WriteWith(&b, r, format, o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	section := func(format string) string {
		t.Helper()
		var b bytes.Buffer
		if err := WriteComparison(&b, *d, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	text, md := section("text"), section("markdown")
	if !strings.HasPrefix(text, "comparison ("+d.Method+"):\n") {
		t.Errorf("the document's text does not open with its method:\n%s", text)
	}
	for _, tt := range []struct {
		format  string
		o       Options
		section string
	}{
		{"text", Options{Verbose: true, Width: 1000}, text},
		{"markdown", Options{}, md},
	} {
		if got := write(tt.format, tt.o); !strings.Contains(got, tt.section) {
			t.Errorf("%s: the report does not hold the document's comparison\n%s\nreport:\n%s", tt.format, tt.section, got)
		}
	}
	compact, page := write("text", Options{Width: 1000}), write("html", Options{})
	for _, row := range d.Rows {
		s := Sentence(row.Pair)
		if !strings.Contains(compact, s+"\n") {
			t.Errorf("text: no sentence %q", s)
		}
		if !strings.Contains(page, "<p>"+html.EscapeString(s)+"</p>") {
			t.Errorf("html: no sentence %q", s)
		}
		if row.Verdict == result.Faster && !strings.Contains(md, "- **"+MarkdownCell(s)+"**\n") {
			t.Errorf("markdown: the claimed %q is not in bold", s)
		}
	}
	got, err := result.Decode(strings.NewReader(write("json", Options{})))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Comparison) != len(d.Rows) {
		t.Fatalf("json: %d pairs, want %d", len(got.Comparison), len(d.Rows))
	}
	for i, p := range got.Comparison {
		if p.Candidate != d.Rows[i].Name || p.Sentence != Sentence(d.Rows[i].Pair) {
			t.Errorf("json pair %d: %s %q, want %s %q", i, p.Candidate, p.Sentence, d.Rows[i].Name, Sentence(d.Rows[i].Pair))
		}
	}
	if r.Comparison[0].Sentence != "" {
		t.Error("writing the JSON wrote the sentences into the result itself")
	}
}
