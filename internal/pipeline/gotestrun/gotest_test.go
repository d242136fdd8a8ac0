package gotestrun

import (
	"errors"
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

// The sides of --against are paired by name, old first, both at new's N,
// each target told its side (its name in messages says it); the split of
// the interleaved result gives each side its benchmarks again, as runs of
// one build.
func TestPairAndSplitSides(t *testing.T) {
	olds := []*gotest.Target{{Display: "pkg.Sum", N: 10}, {Display: "pkg.Gone", N: 5}}
	news := []*gotest.Target{{Display: "pkg.Sum", N: 20}, {Display: "pkg.Added", N: 7}}
	ts, only := pairSides(olds, news)
	if len(ts) != 2 || ts[0] != pipeline.Target(olds[0]) || ts[1] != pipeline.Target(news[0]) || olds[0].N != 20 {
		t.Fatalf("pairs %v, old N %d: want old then new pkg.Sum, both at N 20", ts, olds[0].N)
	}
	if olds[0].Side != result.SideOld || news[0].Side != result.SideNew || olds[0].Display != "pkg.Sum" || news[0].Display != "pkg.Sum" {
		t.Errorf("sides %q %q, names %q %q: want old and new, the names kept", olds[0].Side, news[0].Side, olds[0].Display, news[0].Display)
	}
	if got := olds[0].Name(); got != "old pkg.Sum" {
		t.Errorf("the old target's name in messages: %q", got)
	}
	if want := []string{"pkg.Gone is only in the old revision", "pkg.Added is new (not in the old revision)"}; !slices.Equal(only, want) {
		t.Errorf("only %q, want %q", only, want)
	}
	// An experiment with no side belongs to neither.
	r := &result.Result{Experiments: []result.Experiment{
		{Name: "pkg.Sum", Side: result.SideOld}, {Name: "pkg.Sum", Side: result.SideNew}, {Name: "pkg.Sum"}}}
	old, cur := splitSides(r)
	if len(old.Experiments) != 1 || old.Experiments[0].Name != "pkg.Sum" || len(cur.Experiments) != 1 || cur.Experiments[0].Name != "pkg.Sum" {
		t.Fatalf("split: old %v, new %v; want pkg.Sum on each side", old.Experiments, cur.Experiments)
	}
	if old.Find("pkg.Sum") == nil || cur.Find("pkg.Sum") == nil {
		t.Errorf("a side's result is not a run of one build: %+v %+v", old.Experiments, cur.Experiments)
	}
	if r.Experiments[0].Side != result.SideOld || r.Experiments[0].Label() != "old pkg.Sum" {
		t.Errorf("the split changed the interleaved result: %+v", r.Experiments[0])
	}
}

// A commit bisect skips, and a step --confirm cannot build, says why in
// one line: the compiler's first message, not a pointer to messages
// nothing printed.
func TestStepError(t *testing.T) {
	err := &StageError{"building", &gotest.BuildError{Package: "example.com/work",
		Output: "# example.com/work\n./work.go:14:28: undefined: undefined\n./work.go:15:1: another\n"}}
	if got, want := stepError(err), "example.com/work does not build: ./work.go:14:28: undefined: undefined"; got != want {
		t.Errorf("stepError = %q, want %q", got, want)
	}
	if got := stepError(errors.New("checking out x: no such commit")); got != "checking out x: no such commit" {
		t.Errorf("another error: %q", got)
	}
}

// bisect's three builds in one run split into three results by their
// side, in the order asked, each a run of one build with its own
// experiments; an experiment of another side, or of none, is in none of
// them, and the run itself is left as it was.
func TestSplitBySide(t *testing.T) {
	r := &result.Result{Experiments: []result.Experiment{
		{Name: "Work", Side: result.SideMid}, {Name: "Work", Side: result.SideGood}, {Name: "Work", Side: result.SideBad},
		{Name: "Work", Side: result.SideOld}, {Name: "other"}}}
	rs := splitBySide(r, buildSides...)
	for k, side := range buildSides {
		if len(rs[k].Experiments) != 1 || rs[k].Experiments[0].Name != "Work" || rs[k].Find("Work") == nil {
			t.Errorf("%s: %+v, want Work alone, of no side", side, rs[k].Experiments)
		}
	}
	if len(r.Experiments) != 5 || r.Experiments[1].Label() != "good Work" {
		t.Errorf("the run itself changed: %+v", r.Experiments)
	}
}

// The comparison of gotest --against names each side by what it measured:
// the old revision, and the new one with --new, which was once called
// "working tree" too; "working tree" only for the tree as it is.
func TestGotestDocumentNamesTheSides(t *testing.T) {
	old := &gotest.Worktree{Rev: "v1.0", Commit: "0123456789abcdef0123456789abcdef01234567"}
	rev2 := &gotest.Worktree{Rev: "feature", Commit: "fedcba9876543210fedcba9876543210fedcba98"}
	for _, tt := range []struct {
		name     string
		nwt      *gotest.Worktree
		old, new string
	}{
		{"the tree as it is", nil, "v1.0 (" + old.Short() + ")", "working tree"},
		{"--new", rev2, "v1.0 (" + old.Short() + ")", "feature (" + rev2.Short() + ")"},
	} {
		w := &gotestWork{wt: old, nwt: tt.nwt}
		d := w.document(&result.Result{}, &result.Result{}, &result.Result{}, compare.Files{})
		if len(d.Old) != 1 || len(d.New) != 1 || d.Old[0].File != tt.old || d.New[0].File != tt.new {
			t.Errorf("%s: sides %+v and %+v, want %q and %q", tt.name, d.Old, d.New, tt.old, tt.new)
		}
	}
}
