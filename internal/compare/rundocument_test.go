package compare

import (
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// An interleaved run's document is read back from the pairs the analysis
// stored in the run: a row per candidate, in the run's order, named by
// the candidate, against the baseline on the run's CPU; a run that
// compared nothing has none.
func TestRunDocument(t *testing.T) {
	if d := RunDocument(&result.Result{}); d != nil {
		t.Fatalf("a run without a comparison has the document %+v", d)
	}
	r := &result.Result{Tool: "benchy test", CPU: 3, Settings: result.Settings{Compare: []string{"a", "b", "c"}, Threshold: 0.0025}}
	r.Comparison = []result.Pair{
		{Base: "a", Candidate: "b", Paired: true, Verdict: result.Faster, Comparisons: 2, Level: 0.975, ThresholdMeasured: true},
		{Base: "a", Candidate: "c", Paired: true, Verdict: result.NoDifference, Comparisons: 2, Level: 0.975, ThresholdMeasured: true},
	}
	d := RunDocument(r)
	if d == nil || !d.Interleaved() {
		t.Fatalf("document %+v, want an interleaved one", d)
	}
	if d.Baseline != "a" || d.CPU != 3 || d.Tool != "benchy test" || len(d.Old)+len(d.New) != 0 {
		t.Errorf("baseline %q on cpu%d by %q, sides %v %v: want a on cpu3 by benchy test, no sides", d.Baseline, d.CPU, d.Tool, d.Old, d.New)
	}
	if len(d.Rows) != 2 || d.Rows[0].Name != "b" || d.Rows[1].Name != "c" || d.Rows[0].Verdict != result.Faster {
		t.Fatalf("rows %+v, want b (faster) then c", d.Rows)
	}
	want := "interleaved rounds on cpu3, baseline a; 2 comparisons held to 5% together: intervals at 97.5%, p-values Bonferroni-adjusted; threshold the larger of 0.25% and the ratio's drift"
	if d.Method != want {
		t.Errorf("method\n%s\nwant\n%s", d.Method, want)
	}
	// The document reads the stored pairs, it does not judge them again.
	r.Comparison[0].Verdict = result.Slower
	if d := RunDocument(r); d.Rows[0].Verdict != result.Slower {
		t.Errorf("row b %q, want the stored verdict", d.Rows[0].Verdict)
	}
	// Files of two sides are not interleaved.
	if (Document{Files: Files{Rows: d.Rows}}).Interleaved() {
		t.Error("a document of files reads as interleaved")
	}
}

// One comparison alone is not a family, and a threshold the run did not
// measure (too few rounds: the fixed one stands) is not said to be.
func TestRunDocumentMethodOfOnePair(t *testing.T) {
	r := &result.Result{CPU: 1, Settings: result.Settings{Threshold: 0.0025}}
	r.Comparison = []result.Pair{{Base: "a", Candidate: "b", Paired: true, Verdict: result.NoDifference, Comparisons: 1, Level: 0.95}}
	d := RunDocument(r)
	if want := "interleaved rounds on cpu1, baseline a"; d.Method != want {
		t.Errorf("method %q, want %q", d.Method, want)
	}
	if strings.Contains(d.Method, "together") {
		t.Errorf("one comparison held together with others: %q", d.Method)
	}
}

// The family is the rows that have a test: a first candidate that was not
// comparable (it failed) leaves the others held together, and the method
// says so; a threshold one row measured is said too.
func TestRunDocumentMethodAfterARowNotComparable(t *testing.T) {
	r := &result.Result{CPU: 1, Settings: result.Settings{Threshold: 0.0025}}
	r.Comparison = []result.Pair{
		{Base: "a", Candidate: "b", Verdict: result.NotComparable, Reason: "not measured: the run ended before it"},
		{Base: "a", Candidate: "c", Paired: true, Verdict: result.NoDifference, Comparisons: 2, Level: 0.975, ThresholdMeasured: true},
		{Base: "a", Candidate: "d", Paired: true, Verdict: result.Faster, Comparisons: 2, Level: 0.975, ThresholdMeasured: true},
	}
	want := "interleaved rounds on cpu1, baseline a; 2 comparisons held to 5% together: intervals at 97.5%, p-values Bonferroni-adjusted; threshold the larger of 0.25% and the ratio's drift"
	if d := RunDocument(r); d.Method != want {
		t.Errorf("method\n%s\nwant\n%s", d.Method, want)
	}
}
