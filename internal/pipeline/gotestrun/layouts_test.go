package gotestrun

import (
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
)

// TestLayoutProcesses: the processes spread over the layouts, two at
// least in each.
func TestLayoutProcesses(t *testing.T) {
	for _, c := range []struct{ processes, layouts, want int }{{3, 2, 2}, {8, 4, 2}, {9, 4, 3}, {1, 5, 2}, {20, 2, 10}} {
		if got := layoutProcesses(c.processes, c.layouts); got != c.want {
			t.Errorf("layoutProcesses(%d, %d) = %d, want %d", c.processes, c.layouts, got, c.want)
		}
	}
}

// TestMergeLayouts: every layout's experiment of a benchmark merged into
// the first's, its processes numbered after the layouts before it, an
// error kept with the layout it came from, and the samples counted over
// all layouts.
func TestMergeLayouts(t *testing.T) {
	sample := func(ns int64, process int) result.Sample { return result.Sample{Iters: 1, Ns: ns, Process: process} }
	r := &result.Result{Settings: result.Settings{Samples: 4}, Experiments: []result.Experiment{
		{Name: "A", Side: result.SideOld, Samples: []result.Sample{sample(10, 0), sample(11, 1)}},
		{Name: "A", Side: result.SideNew, Samples: []result.Sample{sample(20, 0), sample(21, 1)}},
		{Name: "A", Side: result.SideOld, Layout: 1, Samples: []result.Sample{sample(12, 0), sample(13, 1)}},
		{Name: "A", Side: result.SideNew, Layout: 1, Samples: []result.Sample{sample(22, 0)}, Error: "exit 1"},
	}}
	mergeLayouts(r, 2, 2)
	if len(r.Experiments) != 2 || r.Experiments[0].Label() != "old A" || r.Experiments[1].Label() != "new A" {
		t.Fatalf("experiments %+v", r.Experiments)
	}
	var procs []int
	for _, s := range r.Experiments[0].Samples {
		procs = append(procs, s.Process)
	}
	if !slices.Equal(procs, []int{0, 1, 2, 3}) {
		t.Errorf("old A's processes %v, want 0 1 of layout 1 then 2 3 of layout 2", procs)
	}
	if e := r.Experiments[1]; len(e.Samples) != 3 || e.Error != "layout 2: exit 1" {
		t.Errorf("new A: %d samples, error %q", len(e.Samples), e.Error)
	}
	if r.Settings.Samples != 8 {
		t.Errorf("samples %d, want 8 (4 in each of 2 layouts)", r.Settings.Samples)
	}
}

// TestJudgeLayouts: the finding of a layout-sensitive change goes on the
// new side's experiment of the interleaved result, and nowhere else;
// without layouts nothing is judged.
func TestJudgeLayouts(t *testing.T) {
	exp := func(side, name string, ns ...int64) result.Experiment {
		e := result.Experiment{Name: name, Side: side}
		for p, x := range ns {
			for i := range 3 {
				e.Samples = append(e.Samples, result.Sample{Iters: 1, Ns: x + int64(i), Process: p})
			}
		}
		return e
	}
	// Two layouts of two processes: the layouts 20% apart, the processes
	// of one alike.
	r := &result.Result{Experiments: []result.Experiment{
		exp(result.SideOld, "Small", 1000, 1000, 1200, 1200), exp(result.SideNew, "Small", 1030, 1030, 1230, 1230),
		exp(result.SideOld, "Large", 1000, 1000, 1010, 1010), exp(result.SideNew, "Large", 2000, 2000, 2020, 2020),
	}}
	old, cur := splitSides(r)
	files := compare.Files{Rows: []compare.Row{
		{Name: "Small", Pair: result.Pair{Verdict: result.Slower, Ratio: 1.03}},
		{Name: "Large", Pair: result.Pair{Verdict: result.Slower, Ratio: 2}},
	}}
	judgeLayouts(r, old, cur, &files)
	if len(files.Rows) != 2 || files.Rows[0].Verdict != result.Slower {
		t.Fatalf("without layouts the rows changed: %+v", files.Rows)
	}
	r.Layouts = &result.Layouts{Seeds: []int64{1, 2}, Processes: 2}
	judgeLayouts(r, old, cur, &files)
	if len(r.Layouts.Benchmarks) != 2 {
		t.Fatalf("spreads %+v", r.Layouts.Benchmarks)
	}
	if v := files.Rows[0].Verdict; v != result.LayoutSensitive {
		t.Errorf("Small: %s, want %s", v, result.LayoutSensitive)
	}
	if v := files.Rows[1].Verdict; v != result.Slower {
		t.Errorf("Large: %s, want slower", v)
	}
	has := func(side, name string) bool {
		for _, f := range r.FindSide(side, name).Findings {
			if f.Code == result.CodeLayoutSensitive {
				return true
			}
		}
		return false
	}
	if !has(result.SideNew, "Small") || has(result.SideOld, "Small") || has(result.SideNew, "Large") || has(result.SideOld, "Large") {
		t.Errorf("the finding is not on new Small alone: %+v", r.Experiments)
	}
}
