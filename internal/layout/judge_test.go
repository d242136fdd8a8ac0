package layout

import (
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
)

// TestJudge: a claimed change no larger than what layouts alone move the
// benchmark by is layout-sensitive (the row's verdict, which a gate cannot
// judge, and a finding for the new side); a larger one keeps its verdict.
func TestJudge(t *testing.T) {
	files := compare.Files{Rows: []compare.Row{
		{Name: "Small", Pair: result.Pair{Verdict: result.Slower, Ratio: 1.03, CILow: 1.01, CIHigh: 1.05}},
		{Name: "Large", Pair: result.Pair{Verdict: result.Slower, Ratio: 1.30, CILow: 1.2, CIHigh: 1.4}},
	}}
	l := &result.Layouts{Seeds: []int64{1, 2, 3, 4}, Processes: 2, Benchmarks: []result.LayoutSpread{
		{Name: "Small", Move: 0.05, LayoutSD: 0.025, Change: 0.03, Sensitive: true},
		{Name: "Large", Move: 0.05, LayoutSD: 0.025, Change: 0.30},
	}}
	fs := Judge(&files, l)
	if v := files.Rows[0].Verdict; v != result.LayoutSensitive {
		t.Errorf("Small: %s, want %s", v, result.LayoutSensitive)
	}
	// What Judge says reaches the output through the row's reason, in
	// the sentence every writer renders from the row.
	msg := Message(l.Benchmarks[0], len(l.Seeds))
	if files.Rows[0].Reason != msg || !strings.Contains(render.Sentence(files.Rows[0].Pair), msg) || files.Rows[0].Judged() {
		t.Errorf("Small: reason %q, sentence %q, judged %v; want the layouts' message, not judged",
			files.Rows[0].Reason, render.Sentence(files.Rows[0].Pair), files.Rows[0].Judged())
	}
	if v := files.Rows[1].Verdict; v != result.Slower {
		t.Errorf("Large: %s, want slower", v)
	}
	if f, ok := fs["Small"]; len(fs) != 1 || !ok || f.Code != result.CodeLayoutSensitive {
		t.Errorf("findings %+v, want one of %s for Small", fs, result.CodeLayoutSensitive)
	}
	if g := files.Gate(0.01); len(g.CannotJudge) != 1 || !strings.HasPrefix(g.CannotJudge[0], "Small") {
		t.Errorf("gate cannot judge %v, want Small", g.CannotJudge)
	}
}

// TestSpreads: a spread per benchmark on both sides, each layout's
// processes told apart by number, the change held against them only when
// the comparison claimed one.
func TestSpreads(t *testing.T) {
	exp := func(name string, perLayout ...float64) result.Experiment {
		e := result.Experiment{Name: name}
		for l, ns := range perLayout {
			for p := range 2 {
				for i := range 3 {
					e.Samples = append(e.Samples, result.Sample{Iters: 1, Ns: int64(ns) + int64(p+i), Process: 2*l + p})
				}
			}
		}
		return e
	}
	l := &result.Layouts{Seeds: []int64{1, 2}, Processes: 2}
	old := &result.Result{Experiments: []result.Experiment{exp("A", 100, 120), exp("B", 100, 100)}}
	cur := &result.Result{Experiments: []result.Experiment{exp("A", 105, 125), exp("B", 200, 200), exp("C", 1, 1)}}
	files := compare.Files{Rows: []compare.Row{
		{Name: "A", Pair: result.Pair{Verdict: result.Slower, Ratio: 1.04}},
		{Name: "B", Pair: result.Pair{Verdict: result.NoDifference, Ratio: 2}},
	}}
	sps := Spreads(old, cur, &files, l)
	if len(sps) != 2 || sps[0].Name != "A" || sps[1].Name != "B" {
		t.Fatalf("spreads %+v, want A and B (C is on one side only)", sps)
	}
	if a := sps[0]; len(a.Old) != 2 || len(a.New) != 2 || a.New[1] <= a.New[0] || !a.Sensitive || a.Change == 0 {
		t.Errorf("A: %+v, want two layouts a side, the second slower, a claimed 4%% change layout-sensitive", a)
	}
	if b := sps[1]; b.Sensitive || b.Change != 0 {
		t.Errorf("B: %+v, nothing claimed", b)
	}
	if one := Spreads(nil, cur, nil, l); len(one) != 3 || len(one[0].Old) != 0 {
		t.Errorf("without --against: %+v", one)
	}
}
