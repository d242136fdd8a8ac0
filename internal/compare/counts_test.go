package compare

import (
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// counted is a result of one experiment whose count is perOp an op and
// 50,000 a run, with noise added to each of its four runs.
func countedResult(name string, perOp float64, noise ...int64) *result.Result {
	c := &result.Count{Counter: result.CounterCallgrind}
	for i, n := range []int64{1000, 2000, 3000, 4000} {
		v := int64(perOp*float64(n)) + 50_000
		if i < len(noise) {
			v += noise[i]
		}
		c.Samples = append(c.Samples, result.CountSample{Iters: n, Events: map[string]int64{result.EventInstructions: v}})
	}
	return &result.Result{Experiments: []result.Experiment{{Name: name, Count: c}}}
}

func TestOnePercentClaimed(t *testing.T) {
	rows := Counts([]*result.Result{countedResult("Sum", 16396)}, []*result.Result{countedResult("Sum", 16396*1.01)})
	if len(rows) != 1 || rows[0].Verdict != MoreInstructions {
		t.Fatalf("rows %+v: a 1%% change of an exact count is not claimed", rows)
	}
	if r := rows[0]; r.Change < 0.0099 || r.Change > 0.0101 || r.Noise != countZ*1.4142135623730951*CountFloor {
		t.Errorf("change %v, noise %v: want 1%% and the floor's", r.Change, r.Noise)
	}
	rows = Counts([]*result.Result{countedResult("Sum", 16396)}, []*result.Result{countedResult("Sum", 16396*0.99)})
	if rows[0].Verdict != FewerInstructions {
		t.Errorf("rows %+v", rows)
	}
}

func TestUnchangedNotClaimed(t *testing.T) {
	// Two runs of one binary: the counts differ by the runtime's own work,
	// a few hundred instructions a run.
	rows := Counts([]*result.Result{countedResult("Build", 10000, 300, -200, 100, -300)},
		[]*result.Result{countedResult("Build", 10000, -300, 500, -100, 200)})
	if rows[0].Verdict != SameInstructions {
		t.Errorf("rows %+v: an unchanged count claimed as a change", rows)
	}
}

func TestNoisyRunWidensTheInterval(t *testing.T) {
	// Runs scattered by 2% about their line: a 1% change is within it.
	rows := Counts([]*result.Result{countedResult("Noisy", 10000, 400_000, -400_000, -400_000, 400_000)},
		[]*result.Result{countedResult("Noisy", 10100)})
	if rows[0].Verdict != SameInstructions || rows[0].Noise <= 0.01 {
		t.Errorf("rows %+v: the noise of the old run does not widen the interval past 1%%", rows)
	}
}

func TestNotComparable(t *testing.T) {
	failed := countedResult("A", 100)
	failed.Experiments[0].Count = &result.Count{Counter: result.CounterCallgrind, Error: "valgrind cannot run it"}
	rows := Counts([]*result.Result{failed}, []*result.Result{countedResult("A", 100)})
	if rows[0].Verdict != CountNotCompared || !strings.Contains(rows[0].Reason, "valgrind cannot run it") {
		t.Errorf("rows %+v", rows)
	}
	perf := countedResult("A", 100)
	perf.Experiments[0].Count.Counter = result.CounterPerf
	rows = Counts([]*result.Result{countedResult("A", 100)}, []*result.Result{perf})
	if rows[0].Verdict != CountNotCompared || !strings.Contains(rows[0].Reason, "do not count alike") {
		t.Errorf("rows %+v", rows)
	}
	if rows := Counts([]*result.Result{countedResult("A", 100)}, []*result.Result{countedResult("B", 100)}); rows != nil {
		t.Errorf("rows %+v of an experiment only in old", rows)
	}
}

func TestJudgeBothBases(t *testing.T) {
	same := CountRow{Name: "X", Verdict: SameInstructions, Change: 0.0002, Noise: 0.004}
	same.Judge(result.Slower, 0.12)
	if !strings.Contains(same.Both, "the machine, the memory or the code's layout moved, not the code") {
		t.Errorf("time moved, instructions not: %q", same.Both)
	}
	more := CountRow{Name: "X", Verdict: MoreInstructions, Change: 0.01, Noise: 0.004}
	more.Judge(result.NoDifference, 0.005)
	if !strings.Contains(more.Both, "instructions +1.0%") || !strings.Contains(more.Both, "time +0.50% within its noise") {
		t.Errorf("instructions moved, time not: %q", more.Both)
	}
	both := CountRow{Name: "X", Verdict: MoreInstructions, Change: 0.24, Noise: 0.004}
	both.Judge(result.Slower, 0.25)
	if both.Both != "X is slower on both bases: time +25.0%, instructions +24.0%" {
		t.Errorf("both: %q", both.Both)
	}
	against := CountRow{Name: "X", Verdict: FewerInstructions, Change: -0.05, Noise: 0.004}
	against.Judge(result.Slower, 0.1)
	if !strings.Contains(against.Both, "slower in time (+10.0%) with fewer instructions") {
		t.Errorf("against: %q", against.Both)
	}
	busy := CountRow{Name: "X", Verdict: MoreInstructions, Change: 0.01, Noise: 0.004}
	busy.Judge(result.Inconclusive, 0.3)
	if !strings.Contains(busy.Both, "the time could not be judged (inconclusive): the count alone says the code changed") {
		t.Errorf("time inconclusive: %q", busy.Both)
	}
	quiet := CountRow{Name: "X", Verdict: SameInstructions}
	quiet.Judge(result.NoDifference, 0)
	if quiet.Both != "" {
		t.Errorf("nothing moved, yet %q", quiet.Both)
	}
}
