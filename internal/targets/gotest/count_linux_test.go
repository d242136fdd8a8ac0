package gotest

import (
	"context"
	"testing"

	"github.com/benchy-dev/benchy/internal/callgrind"
)

// A counted run ends its count as often as testing calls the benchmark at
// -test.benchtime=Nx: twice for a b.N loop (N=1, then N), once for b.Loop,
// which runs the N iterations inside its one call. The command expected
// two of a b.Loop benchmark, and its count failed ("the count's end was
// reached 1 times, not 2").
func TestCountCommandCalls(t *testing.T) {
	notUnderRace(t)
	if _, err := callgrind.Path(); err != nil {
		t.Skip("valgrind is not installed (apt-get install valgrind)")
	}
	bin := build(t, "./lies")
	o := quick(t)
	o.BenchText = "^BenchmarkSum(Loop)?$"
	ts, err := Calibrate(context.Background(), bin, o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"BenchmarkSum": 2, "BenchmarkSumLoop": 1}
	if len(ts) != len(want) {
		t.Fatalf("targets %q, want BenchmarkSum and BenchmarkSumLoop", displays(ts))
	}
	for _, tg := range ts {
		cmd, err := tg.CountCommand(100)
		if err != nil {
			t.Fatal(err)
		}
		r, err := callgrind.Count(context.Background(), cmd.Argv, callgrind.Options{MarkStart: cmd.MarkStart, MarkEnd: cmd.MarkEnd, Dir: cmd.Dir, Env: cmd.Env})
		if err != nil {
			t.Fatalf("%s: %v", tg.Bench, err)
		}
		if cmd.Dumps != want[tg.Bench] || r.Dumps != cmd.Dumps {
			t.Errorf("%s: %d counted calls expected, %d reached; want %d", tg.Bench, cmd.Dumps, r.Dumps, want[tg.Bench])
		}
	}
}
