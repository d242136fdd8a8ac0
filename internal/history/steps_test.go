package history_test

import (
	"math"
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/historytest"
)

// series makes a series of per-commit values on one machine.
func seriesOf(xs []float64) history.Series {
	s := history.Series{Key: history.Key{Benchmark: "b", Machine: "m"}, Basis: history.BasisTime}
	for i, x := range xs {
		s.Commits = append(s.Commits, history.Commit{Source: history.Source{Commit: historytest.Hash(i)}, Value: x, Lo: x, Hi: x, Runs: 1})
	}
	return s
}

func noisy(seed uint64, n int, level, cv float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = level * math.Exp(cv*rng.NormFloat64())
	}
	return xs
}

func TestJudge(t *testing.T) {
	flat := noisy(1, 60, 100, 0.01)
	step := append(noisy(2, 40, 100, 0.01), noisy(3, 30, 110, 0.01)...)
	undone := append(append(noisy(4, 30, 100, 0.01), noisy(5, 20, 110, 0.01)...), noisy(6, 20, 100, 0.01)...)
	faster := append(noisy(7, 40, 100, 0.01), noisy(8, 30, 90, 0.01)...)
	spike := noisy(9, 60, 100, 0.01)
	spike[30] *= 1.4

	if j := history.Judge(seriesOf(flat), 0.02); !j.Judged || len(j.Regressions) != 0 {
		t.Errorf("flat: judged %v, regressions %v", j.Judged, j.Regressions)
	}
	if j := history.Judge(seriesOf(spike), 0.02); len(j.Regressions) != 0 {
		t.Errorf("one slow commit made a regression: %v", j.Regressions)
	}
	j := history.Judge(seriesOf(step), 0.02)
	if len(j.Regressions) != 1 || j.Regressions[0].At != 40 || math.Abs(j.Regressions[0].Change()-0.10) > 0.02 {
		t.Fatalf("step at 40 of +10%%: %+v", j.Regressions)
	}
	if got, want := j.Series.Range(j.Regressions[0]), history.Short(historytest.Hash(39))+".."+history.Short(historytest.Hash(40)); got != want {
		t.Errorf("range %s, want %s", got, want)
	}
	if j := history.Judge(seriesOf(step), 0.15); len(j.Regressions) != 0 {
		t.Errorf("a 10%% step beyond a 15%% threshold: %v", j.Regressions)
	}
	if j := history.Judge(seriesOf(undone), 0.02); len(j.Steps) != 2 || len(j.Regressions) != 0 {
		t.Errorf("a step undone later: steps %v, regressions %v; want two steps, no regression", j.Steps, j.Regressions)
	}
	if j := history.Judge(seriesOf(faster), 0.02); len(j.Steps) != 1 || len(j.Regressions) != 0 {
		t.Errorf("faster: steps %v, regressions %v", j.Steps, j.Regressions)
	}
	if j := history.Judge(seriesOf(step[:history.MinPoints-1]), 0.02); j.Judged {
		t.Errorf("%d commits judged", history.MinPoints-1)
	}
}

// Build orders by the store's rows, merges the runs of one commit, leaves
// dirty trees out, and judges every run on the basis all of them have.
func TestBuild(t *testing.T) {
	row := func(hash string, k int, bench, basis string, v float64, dirty bool, codes string, hz float64) history.Row {
		src := historytest.Source(k)
		src.Dirty = dirty
		return history.Row{Point: history.Point{Benchmark: bench, Basis: basis, Median: v, Lo: v * 0.99, Hi: v * 1.01, N: 10, Codes: codes, ClockHz: hz}, Hash: hash, Machine: "m", Source: src}
	}
	rows := []history.Row{
		row("r1", 1, "a", history.BasisTime, 100, false, "", 3e9), row("r1", 1, "a", history.BasisCycles, 300, false, "", 3e9),
		row("r2", 1, "a", history.BasisTime, 110, false, "", 3e9), row("r2", 1, "a", history.BasisCycles, 330, false, "", 3e9),
		row("r3", 2, "a", history.BasisTime, 200, false, "freq-change", 2e9), row("r3", 2, "a", history.BasisCycles, 400, false, "freq-change", 2e9),
		row("r4", 3, "a", history.BasisTime, 999, true, "", 3e9),
		row("r1", 1, "other", history.BasisTime, 5, false, "", 0),
	}
	ss := history.Build(rows, regexp.MustCompile("^a$"))
	if len(ss) != 1 {
		t.Fatalf("%d series, want 1", len(ss))
	}
	s := ss[0]
	if s.Basis != history.BasisCycles || s.Unit != "cycles" || s.Dirty != 1 || len(s.Commits) != 2 {
		t.Fatalf("series %+v: want cycles (the clock moved), 1 dirty left out, 2 commits", s)
	}
	if c := s.Commits[0]; c.Runs != 2 || c.Value != 315 || c.Lo != 297 {
		t.Errorf("commit 1: %+v, want 2 runs, median 315", c)
	}
	if got := history.ChooseBasis([]map[string]history.Point{{history.BasisTime: {}, history.BasisOnCPU: {Codes: ""}}, {history.BasisTime: {Codes: "disturbed"}, history.BasisOnCPU: {}}}); got != history.BasisOnCPU {
		t.Errorf("a disturbed run: basis %q, want on-CPU", got)
	}
	if got := history.ChooseBasis([]map[string]history.Point{{history.BasisTime: {}, history.BasisInstructions: {}}, {history.BasisTime: {}, history.BasisInstructions: {}}}); got != history.BasisInstructions {
		t.Errorf("instructions counted: basis %q", got)
	}
	if got := history.ChooseBasis([]map[string]history.Point{{history.BasisTime: {}, history.BasisInstructions: {}}, {history.BasisTime: {}}}); got != history.BasisTime {
		t.Errorf("instructions in one run only: basis %q, want time", got)
	}
}

// Weights: commits alike weigh alike; one whose interval is ten times the
// others' weighs a fraction; an unknown interval (0) weighs as a typical
// one.
func TestWeights(t *testing.T) {
	xs := []float64{100, 101, 99, 100, 102, 100, 98, 101}
	ses := []float64{0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005, 0.005}
	ws := history.Weights(ses, xs)
	for _, w := range ws {
		if w != ws[0] {
			t.Fatalf("equal intervals, unequal weights %v", ws)
		}
	}
	ses[3], ses[5] = 0.05, 0
	ws = history.Weights(ses, xs)
	if !(ws[3] < ws[0]/5) || ws[5] != ws[0] {
		t.Errorf("weights %v: commit 3 (10x interval) should weigh a fraction, commit 5 (unknown) as the others", ws)
	}
	if history.Weights(ses[:3], xs) != nil {
		t.Error("weights of mismatched lengths")
	}
}
