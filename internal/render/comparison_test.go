package render

import (
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
)

func TestFmtTime(t *testing.T) {
	for _, tt := range []struct {
		ns   float64
		want string
	}{
		{0.2749, "0.275 ns"}, {47.23, "47.2 ns"}, {999.4, "999 ns"}, {999.7, "1 µs"}, {1137, "1.14 µs"},
		{4.1e7, "41 ms"}, {2.5e9, "2.5 s"}, {0, "-"}, {math.NaN(), "-"},
	} {
		if got := fmtTime(tt.ns); got != tt.want {
			t.Errorf("fmtTime(%v) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}

// A basis every row shares is said once above the sentences, not in each.
func TestCompareTextSaysASharedBasisOnce(t *testing.T) {
	var c compare.Document
	for _, name := range []string{"a", "b", "c"} {
		p := result.Pair{Base: "old " + name, Candidate: "new " + name, Basis: result.BasisOnCPUCycles, Verdict: result.NoDifference,
			Ratio: 1, CILow: 0.99, CIHigh: 1.01, P: 0.5, AdjustedP: 0.5, N: 8, Paired: true}
		p.Sentence = "new " + name + " vs old " + name + ": no difference detected (ratio 1.00" + BasisText(p) + ")"
		c.Rows = append(c.Rows, compare.Row{Name: name, Pair: p})
	}
	var b strings.Builder
	if err := writeComparisonText(&b, c); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "the machine was busy"); n != 1 {
		t.Errorf("the basis is said %d times, want once:\n%s", n, b.String())
	}
	if !strings.Contains(b.String(), "every row judged on on-CPU cycles") {
		t.Errorf("no shared basis line:\n%s", b.String())
	}
}

// Sub-benchmarks with long names keep the comparison table within 80
// columns: their family once on a line above, each row its last level.
func TestCompareTextShortensLongNames(t *testing.T) {
	family := "Encoding/payload-size-in-bytes=4096/with-checksum-verification-enabled/"
	var c compare.Document
	for _, mode := range []string{"mode=fast", "mode=safe", "mode=slow"} {
		name := family + mode
		p := result.Pair{Base: "old " + name, Candidate: "new " + name, Verdict: result.Slower,
			BaseMedian: 1140, CandidateMedian: 1430, Ratio: 1.25, CILow: 1.12, CIHigh: 1.39, P: 0.001, AdjustedP: 0.001, N: 21}
		p.Sentence = "new " + name + " is 25% slower than old " + name
		c.Rows = append(c.Rows, compare.Row{Name: name, Pair: p})
	}
	var b strings.Builder
	if err := writeComparisonText(&b, c); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	table := out[strings.Index(out, "experiment "):]
	table = table[:strings.Index(table, "\n\n")]
	if strings.Count(table, family+"\n") != 1 {
		t.Errorf("the family is not once on a line of its own:\n%s", table)
	}
	for _, l := range strings.Split(table, "\n") {
		if n := utf8.RuneCountInString(l); n > comparisonWidth {
			t.Errorf("a line of %d runes: %q", n, l)
		}
		if strings.HasPrefix(l, "  mode=") && !strings.HasSuffix(l, "  slower") {
			t.Errorf("a row without its verdict: %q", l)
		}
	}
}

// TestWriteLayoutsText: the layouts' table names the seeds, what the
// layouts move each benchmark by and which claimed change is
// layout-sensitive, within 80 columns.
func TestWriteLayoutsText(t *testing.T) {
	l := &result.Layouts{Seeds: []int64{1, 2, 3, 4}, Processes: 2, Benchmarks: []result.LayoutSpread{
		{Name: "Parse/small-128", Move: 0.05, LayoutSD: 0.025, Change: 0.03, Sensitive: true},
		{Name: "Large", Move: 0.05, LayoutSD: 0.025, Change: 0.30},
	}}
	var b strings.Builder
	WriteLayoutsText(&b, l)
	for _, want := range []string{"seeds 1,2,3,4", "±5%", "layout-sensitive"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("layouts text lacks %q:\n%s", want, b.String())
		}
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.Contains(line, "Large") && strings.Contains(line, "layout-sensitive") {
			t.Errorf("Large, 30%% against layouts' 5%%, is not layout-sensitive: %q", line)
		}
		if len([]rune(line)) > 80 {
			t.Errorf("line wider than 80 columns: %q", line)
		}
	}
	var none strings.Builder
	WriteLayoutsText(&none, nil)
	if none.Len() != 0 {
		t.Errorf("without --layouts: %q", none.String())
	}
}

// TestCompareTextProfileDiffs: the text of a comparison lists the
// differences under the table, what grew most first.
func TestCompareTextProfileDiffs(t *testing.T) {
	c := compare.Document{ProfileDiffs: []result.ProfileDiff{{Name: "Work", Path: "/p/Work.diff.cpu.pprof", OldSamples: 50, NewSamples: 150,
		OldNsPerOp: 1000, NewNsPerOp: 3000, Rows: []result.ProfileDelta{
			{Func: "work.Extra", NewFlat: 2000, NewCum: 2000},
			{Func: "work.Work", OldFlat: 1000, NewFlat: 980, OldCum: 1000, NewCum: 2980}}}}}
	var b strings.Builder
	if err := writeComparisonText(&b, c); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"profiles, new less old", "Work: CPU per op 1 µs -> 3 µs in the profiles (50 samples old; 150",
		"too few to read", "work.Extra  0", "+2 µs", "-20 ns"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "work.Extra") > strings.Index(out, "work.Work ") {
		t.Errorf("what grew most is not first:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line wider than 80 columns: %q", l)
		}
	}
}

// The files of a side after the first are indented under it.
func TestSidesTextIndentsTheFilesAfterTheFirst(t *testing.T) {
	at := time.Date(2026, 12, 7, 1, 36, 0, 0, time.UTC)
	ss := []compare.FileSide{{File: "a1.json", Tool: "benchy 0.1.0", Start: at, Host: "vm", CPU: 1},
		{File: "a2.json", Tool: "benchy 0.1.0", Start: at, Host: "vm", CPU: 1}}
	want := "old: a1.json (benchy 0.1.0, 2026-12-07 01:36 UTC, host vm, cpu1)\n" +
		"     a2.json (benchy 0.1.0, 2026-12-07 01:36 UTC, host vm, cpu1)\n"
	if got := sidesText("old", ss); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}
