package compare

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// run is one result file: each experiment with n samples around its
// ns/op, spread 1% (a fixed seed per file).
func run(seed uint64, n int, exps map[string]float64) *result.Result {
	rng := rand.New(rand.NewPCG(seed, 1))
	r := &result.Result{Settings: result.Settings{Samples: n}}
	names := make([]string, 0, len(exps))
	for name := range exps {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		e := result.Experiment{Name: name}
		for range n {
			ns := exps[name] * (1 + 0.01*rng.NormFloat64())
			e.Samples = append(e.Samples, result.Sample{Iters: 1000, Ns: int64(ns * 1000)})
		}
		r.Experiments = append(r.Experiments, e)
	}
	return r
}

func runs(seed uint64, k int, exps map[string]float64) []*result.Result {
	var rs []*result.Result
	for i := range k {
		rs = append(rs, run(seed+uint64(i), 31, exps))
	}
	return rs
}

func names(rows []Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Name+" "+r.Verdict)
	}
	return out
}

// Three runs a side: a 30% slowdown is claimed and holds the gate at 5%
// but not at 50%; an unchanged experiment is not claimed; the p-values are
// adjusted over both.
func TestResultsAndGate(t *testing.T) {
	olds := runs(10, 3, map[string]float64{"a": 100, "b": 50})
	news := runs(20, 3, map[string]float64{"a": 130, "b": 50})
	f, err := Results(olds, news, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := names(f.Rows), []string{"a " + result.Slower, "b " + result.NoDifference}; !slices.Equal(got, want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	if f.Adjusted() != 2 || f.Rows[0].BaseRuns != 3 || f.Rows[0].Base != "old a" || f.Geomean.N != 2 {
		t.Errorf("adjusted over %d, %d runs, base %q, geomean over %d; want 2, 3, old a, 2", f.Adjusted(), f.Rows[0].BaseRuns, f.Rows[0].Base, f.Geomean.N)
	}
	g := f.Gate(0.05)
	if g.Passed() || len(g.Regressions) != 1 || g.Regressions[0].Name != "a" || len(g.Failed)+len(g.CannotJudge) != 0 {
		t.Errorf("gate at 5%%: %+v, want a regression of a only", g)
	}
	if g := f.Gate(0.5); !g.Passed() {
		t.Errorf("gate at 50%%: %+v, want passed (the change is 30%%)", g)
	}
}

// What the gate cannot pass: a failure in new, an experiment missing from
// new, and one measured only in part there.
func TestGateCannotJudge(t *testing.T) {
	olds := runs(30, 3, map[string]float64{"a": 100, "b": 100, "c": 100, "d": 100})
	news := runs(40, 3, map[string]float64{"a": 100, "b": 100, "c": 100})
	news[1].Experiments[1].Error = "panicked"
	news[2].Interrupted = true
	news[2].Experiments[2].Samples = news[2].Experiments[2].Samples[:10]
	f, err := Results(olds, news, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	g := f.Gate(0.05)
	if g.Passed() || !slices.Equal(g.Failed, []string{"b"}) || len(g.Regressions) != 0 {
		t.Errorf("gate %+v: want b failed, no regression", g)
	}
	want := []string{"c (measured only in part in new: the run was interrupted)", "d (missing from new)"}
	if !slices.Equal(g.CannotJudge, want) {
		t.Errorf("cannot judge %q, want %q", g.CannotJudge, want)
	}
	if !slices.Equal(f.OnlyOld, []string{"d"}) || len(f.OnlyNew) != 0 {
		t.Errorf("only in old %q, only in new %q", f.OnlyOld, f.OnlyNew)
	}
	if r := f.Rows[1]; r.Verdict != result.NotComparable || !strings.Contains(r.Reason, "new failed: panicked") {
		t.Errorf("b: %q (%s), want not comparable, new failed", r.Verdict, r.Reason)
	}
}

func TestResultsWithNothingInCommon(t *testing.T) {
	_, err := Results(runs(50, 1, map[string]float64{"a": 1}), runs(60, 1, map[string]float64{"b": 1}), 0.02)
	if !errors.Is(err, ErrNothingInCommon) {
		t.Errorf("err %v, want ErrNothingInCommon", err)
	}
}
