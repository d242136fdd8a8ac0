package render

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// The latency block: a row per percentile with its interval and a bar, a
// percentile too few calls give says how many it needs, the max, the
// tail's finding in the compact text only, every line within 80 columns.
func TestLatencyText(t *testing.T) {
	e := result.Experiment{Name: "tail/rare-slow", Latency: &result.Latency{
		Calls: 5000, MinNs: 1000, MaxNs: 120_000, ClockCostNs: 30,
		Percentiles: []result.Percentile{
			{P: 0.5, Name: "p50", Need: 20, Reported: true, Ns: 1002, LoNs: 1000, HiNs: 1006},
			{P: 0.99, Name: "p99", Need: 1000, Reported: true, Ns: 100_500, LoNs: 1010, HiNs: -1},
			{P: 0.999, Name: "p99.9", Need: 10000},
		}},
		Findings: []finding.Finding{{Code: result.CodeHeavyTail, Severity: finding.Info, Message: "0.2% of the calls took over 10x the median"}},
	}
	for _, compact := range []bool{true, false} {
		var b bytes.Buffer
		w := &errWriter{w: &b}
		writeLatencyText(w, e, 80, false, compact)
		out := b.String()
		for _, want := range []string{"5000 calls", "(30 ns)", "p50    1 µs    [1 µs, 1.01 µs]      █\n", "[1.01 µs, ?]", "p99.9  -       (needs 10000 calls)", "max    120 µs", strings.Repeat("█", latencyBarWidth) + "\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("compact %v: no %q in\n%s", compact, want, out)
			}
		}
		if got := strings.Contains(out, "heavy-tail: 0.2%"); got != compact {
			t.Errorf("compact %v: the tail's finding shown %v\n%s", compact, got, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if utf8.RuneCountInString(line) > 80 {
				t.Errorf("line over 80 columns: %q", line)
			}
		}
	}
	var b bytes.Buffer
	writeLatencyText(&errWriter{w: &b}, result.Experiment{Name: "x"}, 80, false, true)
	if b.Len() != 0 {
		t.Errorf("no calls timed: wrote %q", b.String())
	}
}

// An open loop's block: the rate asked and achieved, each percentile from
// the call's start and from its intended start side by side, and, when
// the calls fell behind, a line that says so.
func TestLatencyTextOpenLoop(t *testing.T) {
	e := result.Experiment{Name: "tail/stall", Latency: &result.Latency{
		Calls: 3000, MinNs: 1000, MaxNs: 5_000_000, ClockCostNs: 30,
		Percentiles: []result.Percentile{
			{P: 0.5, Name: "p50", Need: 20, Reported: true, Ns: 1002, LoNs: 1000, HiNs: 1006},
			{P: 0.999, Name: "p99.9", Need: 10000},
		},
		Rate: &result.LatencyRate{PerSecond: 1000, IntervalNs: 1_000_000, Achieved: 999.83, MaxLagNs: 4_000_000,
			Open: result.Latency{Calls: 3000, MaxNs: 5_000_100, Percentiles: []result.Percentile{
				{P: 0.5, Name: "p50", Need: 20, Reported: true, Ns: 1100, LoNs: 1050, HiNs: 1200},
				{P: 0.999, Name: "p99.9", Need: 10000},
			}}},
	}}
	for _, fell := range []bool{false, true} {
		e.Latency.Rate.FellBehind = fell
		var b bytes.Buffer
		writeLatencyText(&errWriter{w: &b}, e, 80, false, false)
		out := b.String()
		for _, want := range []string{
			"tail/stall at 1000/s (achieved 999.8/s): 3000 calls",
			"         closed loop                       open loop\n",
			"  p50    1 µs         [1 µs, 1.01 µs]      1.1 µs     [1.05 µs, 1.2 µs]\n",
			"  p99.9  -            (needs 10000 calls)  -          (needs 10000 calls)\n",
			"  max    5 ms                              5 ms\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in\n%s", want, out)
			}
		}
		if got := strings.Contains(out, "could not keep up with 1000/s (up to 4 ms behind)"); got != fell {
			t.Errorf("fell behind %v: said so %v\n%s", fell, got, out)
		}
		for _, line := range strings.Split(out, "\n") {
			if utf8.RuneCountInString(line) > 80 {
				t.Errorf("line over 80 columns: %q", line)
			}
		}
	}
}

// An exec program's runs: the block counts runs, says how each was timed
// (no clock cost subtracted), and how many runs a percentile needs; with
// none reported, in one line.
func TestLatencyTextRuns(t *testing.T) {
	e := result.Experiment{Name: "sleep 0.01", Kind: result.KindProcess, Latency: &result.Latency{
		Runs: true, Calls: 300, MinNs: 10_100_000, MaxNs: 12_000_000,
		Percentiles: []result.Percentile{
			{P: 0.5, Name: "p50", Need: 20, Reported: true, Ns: 10_200_000, LoNs: 10_150_000, HiNs: 10_240_000},
			{P: 0.9, Name: "p90", Need: 100, Reported: true, Ns: 11_000_000, LoNs: 10_900_000, HiNs: 11_200_000},
			{P: 0.99, Name: "p99", Need: 1000},
		}}}
	var b bytes.Buffer
	writeLatencyText(&errWriter{w: &b}, e, 80, false, false)
	out := b.String()
	for _, want := range []string{"sleep 0.01: 300 runs, each timed from start to exit; 95% intervals\n", "p50  10.2 ms  [10.2 ms, 10.2 ms]", "p99  -        (needs 1000 runs)"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "clock") || strings.Contains(out, "calls") {
		t.Errorf("a program's runs are not calls less the clock's cost:\n%s", out)
	}

	// The median alone (exec's default runs): one line gives it and says
	// what the others need, not a block of rows that cannot be printed.
	e.Latency.Calls = 31
	e.Latency.Percentiles = []result.Percentile{e.Latency.Percentiles[0], {P: 0.9, Name: "p90", Need: 100}, {P: 0.99, Name: "p99", Need: 1000}}
	b.Reset()
	writeLatencyText(&errWriter{w: &b}, e, 80, false, false)
	want := "\nsleep 0.01: 31 runs, each timed from start to exit: p50 10.2 ms (95% CI 10.2 ms\n  to 10.2 ms), max 12 ms; p90 needs 100 runs, p99 needs 1000: 10 beyond it\n  (--runs)\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}

	// Too few runs for any percentile: one line says what each needs, and
	// few-calls does not say it again.
	e.Latency.Calls = 19
	e.Latency.Percentiles = []result.Percentile{{P: 0.5, Name: "p50", Need: 20}, {P: 0.99, Name: "p99", Need: 1000}}
	e.Findings = []finding.Finding{{Code: result.CodeFewCalls, Severity: finding.Info, Message: "too few runs"}}
	b.Reset()
	writeLatencyText(&errWriter{w: &b}, e, 80, false, true)
	want = "\nsleep 0.01: 19 runs, too few for a percentile (p50 needs 20 runs, p99 needs\n  1000: 10 beyond it); max 12 ms\n"
	if b.String() != want {
		t.Errorf("got\n%q\nwant\n%q", b.String(), want)
	}
}
