package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// reportingResult is a gotest run of benchmarks that report of
// themselves, as go test prints them: MB/s (b.SetBytes), b.ReportMetric
// units, a time per op of their own; and one that reports nothing.
func reportingResult() *result.Result {
	r := resulttest.Fixture()
	with := func(samples []result.Sample, metrics map[string]float64) []result.Sample {
		for i := range samples {
			samples[i].Metrics = map[string]float64{}
			for unit, v := range metrics {
				samples[i].Metrics[unit] = v + float64(i%3-1)*v/1000 // median v
			}
		}
		return samples
	}
	bench := func(name string, nsPerOp float64, metrics map[string]float64) result.Experiment {
		return result.Experiment{Kind: result.KindBenchmark, Name: name, GOMAXPROCS: 1, Iters: 1000,
			Samples: with(spread(9, 1000, nsPerOp, 0, 2, -1, 1, 0, 3, -2, 0, 1), metrics)}
	}
	r.Command = []string{"benchy", "gotest", "."}
	r.Experiments = []result.Experiment{
		bench("Encode/4KB", 1292, map[string]float64{"MB/s": 3170}),
		bench("PoolExpensiveNew", 2100, map[string]float64{"GCs/op": 0.02, "New/op": 1.5}),
		bench("PoolSTW", 9800, map[string]float64{result.UnitOwnNs: 1250, "p95-ns/STW": 2600}),
		bench("Plain", 420, nil),
		bench("Concat", 18e6, nil),
	}
	// Measured again as go test runs it: 2.4x, as a quadratic string
	// concatenation read.
	r.Experiments[4].AtGoTestSettings = &result.AtSettings{GOMAXPROCS: 2, NsPerOp: []float64{44e6, 43e6, 45e6, 44e6}}
	analyze.Analyze(r)
	return r
}

// What a benchmark reports of itself is shown in every format, as go test
// shows it; a time of its own is named as its own, beside the loop's time
// that the table and the verdicts are of.
func TestReportedMetrics(t *testing.T) {
	r := reportingResult()
	for _, format := range []string{"text", "markdown", "html"} {
		var b bytes.Buffer
		if err := Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		out := strings.Join(strings.Fields(b.String()), " ")
		// The line itself: from its label to its closing sentence.
		_, line, _ := strings.Cut(out, "reported by the benchmark (median per op): ")
		line, _, _ = strings.Cut(line, " (a time of its own")
		if !strings.Contains(out, "(a time of its own is what go test prints; the table and the verdicts are of the time the loop took)") {
			t.Errorf("%s: the line does not say which figure the table is of:\n%s", format, out)
		}
		for _, want := range []string{"Encode/4KB 3170 MB/s", "PoolExpensiveNew 0.02 GCs/op, 1.5 New/op",
			"PoolSTW 1.25 µs/op of its own, 2600 p95-ns/STW"} {
			if !strings.Contains(line, want) {
				t.Errorf("%s: no %q in %q", format, want, line)
			}
		}
		if strings.Contains(line, "Plain") {
			t.Errorf("%s: Plain reported nothing, and is said to: %q", format, line)
		}
		if format == "text" {
			checkGolden(t, "reported.text", b.Bytes())
		}
	}
	var b bytes.Buffer
	if err := WriteWith(&b, r, "text", Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "reported by the benchmark") {
		t.Errorf("-v does not say what the benchmarks reported:\n%s", b.String())
	}
	if got := r.Experiments[0].Reported["MB/s"]; got != 3170 {
		t.Errorf("Encode/4KB's reported MB/s %v, want the median of its samples, 3170", got)
	}
	for _, format := range []string{"text", "markdown", "html"} {
		var b bytes.Buffer
		if err := Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		if out := strings.Join(strings.Fields(b.String()), " "); !strings.Contains(out, "as go test runs them (GOMAXPROCS 2, not pinned): Concat 44 ms/op") {
			t.Errorf("%s: Concat's figure as go test runs it is not shown:\n%s", format, out)
		}
	}
	// b.ReportMetric(0, "ns/op") is go test's way of printing no time:
	// nothing of its own is said.
	zero := reportingResult()
	zero.Experiments[2].Reported[result.UnitOwnNs] = 0
	if line := reportedLine(zero); strings.Contains(line, "of its own") || !strings.Contains(line, "PoolSTW 2600 p95-ns/STW") {
		t.Errorf("an own ns/op of 0: %q", line)
	}
	if r.Experiments[3].Reported != nil {
		t.Errorf("Plain reported %v, want nothing", r.Experiments[3].Reported)
	}
}

// What benchy did about a slowed core is one line under the table: which
// experiment it measured again and where, and how many samples it left out.
func TestSlowedLine(t *testing.T) {
	zero := 0
	r := &result.Result{CPU: 1, Experiments: []result.Experiment{
		{Name: "a/b", Samples: make([]result.Sample, 31)},
		{Name: "c/d", Samples: make([]result.Sample, 31), Slowed: []int{3, 4},
			Findings: []finding.Finding{{Code: result.CodeSlowedSamples, Severity: finding.Info}}},
		{Name: "e/f", Samples: make([]result.Sample, 31), CPU: &zero,
			Attempts: []result.Attempt{{CPU: 1, Samples: make([]result.Sample, 31), Slowed: make([]int, 20)}}},
	}}
	want := "slowed by the host (a speed check beside every sample): e/f measured again on cpu0 (cpu1 slowed 20 of 31 samples); samples left out: c/d 2 of 31"
	if got := slowedLine(r); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// A host that slowed the run's CPU slowed every experiment there:
	// one clause, not one a name.
	many := &result.Result{CPU: 1}
	for _, name := range []string{"a/1", "a/2", "a/3", "a/4"} {
		many.Experiments = append(many.Experiments, result.Experiment{Name: name, Samples: make([]result.Sample, 31), CPU: &zero,
			Attempts: []result.Attempt{{CPU: 1, Samples: make([]result.Sample, 31), Slowed: make([]int, 26+len(many.Experiments))}}})
	}
	if got, want := slowedLine(many), "slowed by the host (a speed check beside every sample): 4 experiments (-v names them) measured again on cpu0 (cpu1 slowed 26-29 of 31 samples)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// The run moved to cpu0: what came after was measured there only.
	moved := &result.Result{CPU: 1, Experiments: []result.Experiment{r.Experiments[2],
		{Name: "g/h", Samples: make([]result.Sample, 31), CPU: &zero},
		{Name: "i/j", Samples: make([]result.Sample, 31), CPU: &zero}}}
	if got, want := slowedLine(moved), "slowed by the host (a speed check beside every sample): e/f measured again on cpu0 (cpu1 slowed 20 of 31 samples); the run moved to cpu0: g/h, i/j measured there only"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := slowedLine(&result.Result{Experiments: r.Experiments[:1]}); got != "" {
		t.Errorf("nothing slowed: %q", got)
	}
}
