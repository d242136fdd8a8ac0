package analyze

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
)

// faulting makes 31 samples of 100 ns; the samples at idx take ns each and
// count n faults of counter c, the others count base faults.
// faulting makes 31 samples of 100,000 iterations at 100 ns/op (10 ms,
// like real ones), each with base faults; the samples at idx take ns per
// op and n faults.
func faulting(c string, base int64, idx []int, n, ns int64) result.Experiment {
	const iters = 100_000
	s := timed(iters, repeat(31, 100*iters)...)
	for i := range s {
		s[i].Counters = map[string]int64{c: base}
	}
	for _, i := range idx {
		s[i].Ns = ns * iters
		s[i].Counters = map[string]int64{c: n}
	}
	return result.Experiment{Samples: s}
}

// Every sample faulted a little and 11 faulted thousands of times and ran
// 2.5x slower: the heavy ones are those 11, not every sample above the
// fewest (which once read "the faults cost little").
func TestPageFaultsFewAndMany(t *testing.T) {
	const iters = 300
	s := timed(iters, repeat(31, 30_000*iters)...)
	for i := range s {
		s[i].Counters = map[string]int64{result.CounterPageFaults: int64(20 + 4*i)}
	}
	for _, i := range []int{2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 30} {
		s[i].Ns = 76_000 * iters
		s[i].Counters[result.CounterPageFaults] = int64(5900 + i)
	}
	got := only(result.Experiment{Samples: s}, Facts{}, result.CodePageFaults)
	if len(got) != 1 || got[0].Severity != finding.Warn || !strings.Contains(got[0].Message, "11 had more than") ||
		!strings.Contains(got[0].Message, "are the slow ones (median 76 µs/op against 30 µs/op)") {
		t.Errorf("got %v, want a warning naming the 11 slow samples", got)
	}
}

func TestPageFaults(t *testing.T) {
	pf, minor := result.CounterPageFaults, result.CounterMinorFaults
	four := []int{0, 7, 8, 30} // 31 samples: 3 lie above p90
	perfAndRusage := faulting(pf, 0, nil, 0, 0)
	for i := range perfAndRusage.Samples {
		perfAndRusage.Samples[i].Counters[minor] = 40
	}
	// The collector on, and running in the samples (Experiment.GC, or
	// the samples' own gc-cycles).
	collected := func(e result.Experiment) result.Experiment {
		e.GC.Cycles = 62
		return e
	}
	perSample := faulting(pf, 1000, nil, 0, 0)
	for i := range perSample.Samples {
		perSample.Samples[i].Counters[result.CounterGCCycles] = 2
	}
	gcOn := Facts{GCOn: true}
	// A heap still growing collects once each time it doubles: in a few
	// samples, not in most.
	growing := faulting(pf, 1000, nil, 0, 0)
	for i := range growing.Samples {
		growing.Samples[i].Counters[result.CounterGCCycles] = 0
	}
	for _, i := range []int{0, 3, 9} {
		growing.Samples[i].Counters[result.CounterGCCycles] = 1
	}
	runChecks(t, result.CodePageFaults, []checkCase{
		{name: "a tenth of every sample, collections", e: collected(faulting(pf, 1000, nil, 0, 0)), f: gcOn, want: true, sev: finding.Info,
			msg: "at ~1 µs each they take about 10% of a typical sample, but the collector ran in the samples (62 cycles), so they are the heap's steady state, memory freed and faulted in again, which the program pays as well; every sample faulted equally often"},
		{name: "a tenth of every sample, the samples' own collections", e: perSample, f: gcOn, want: true, sev: finding.Info, msg: "(62 cycles)"},
		{name: "a tenth of every sample, collections in 3 of 31", e: growing, f: gcOn, want: true, sev: finding.Warn, msg: "over 5%"},
		{name: "a tenth of every sample, 3 collections in all", e: func() result.Experiment {
			e := faulting(pf, 1000, nil, 0, 0)
			e.GC.Cycles = 3
			return e
		}(), f: gcOn, want: true, sev: finding.Warn, msg: "over 5%"},
		{name: "a tenth of every sample, the collector on but idle", e: faulting(pf, 1000, nil, 0, 0), f: gcOn, want: true, sev: finding.Warn, msg: "over 5%"},
		{name: "a tenth of every sample, collections with the collector off", e: collected(faulting(pf, 1000, nil, 0, 0)), want: true, sev: finding.Warn, msg: "over 5%"},
		{name: "collections, and the most-faulting are the slow ones", e: collected(faulting(pf, 3, four, 39481, 500)), f: gcOn, want: true, sev: finding.Info,
			msg: "31 of 31 samples had page faults (158005 in all, at most 39481 in one sample): the collector ran in the samples (62 cycles), so they are the heap's steady state, memory freed and faulted in again, which the program pays as well; " +
				"4 had more than 19742 (halfway between the fewest, 3, and the most, 39481), and those are the slower ones (median 500 ns/op against 100 ns/op), more than lie above p90 (3), which is how the program's own time varies as collections come and go"},
		{name: "the most-faulting are the slow ones, the collector on but idle", e: faulting(pf, 3, four, 39481, 500), f: gcOn, want: true, sev: finding.Warn,
			msg: "those are the slow ones (median 500 ns/op against 100 ns/op)"},
		{name: "three slow of 31", e: faulting(pf, 0, []int{0, 5, 9}, 50, 300), want: true, sev: finding.Info,
			msg: "3 of 31 samples had page faults (150 in all, at most 50 in one sample): they are no more than lie above p90 (3), so min, median and p90 are not moved by the faults"},
		{name: "four slow of 31", e: faulting(pf, 0, four, 39481, 200), want: true, sev: finding.Warn,
			msg: "4 of 31 samples had page faults (157924 in all, at most 39481 in one sample): they are the slow ones (median 200 ns/op against 100 ns/op) and more than lie above p90 (3), so they move the median or p90: memory was mapped while measuring"},
		{name: "four of 31, not slower", e: faulting(pf, 0, four, 12, 100), want: true, sev: finding.Info,
			msg: "they are not slower than the others (median 100 ns/op against 100 ns/op), so the faults cost little"},
		{name: "5% slower is not slower", e: faulting(pf, 0, four, 12, 105), want: true, sev: finding.Info, msg: "not slower"},
		{name: "6% slower, with faults enough to explain it", e: faulting(pf, 0, four, 70, 106), want: true, sev: finding.Warn, msg: "are the slow ones"},
		{name: "6% slower, with too few faults to explain it", e: faulting(pf, 0, four, 12, 106), want: true, sev: finding.Info,
			msg: "they are slower (median 106 ns/op against 100 ns/op), but even at 10 µs a fault their faults explain at most 1.2 ns/op of it: something else slowed those samples"},
		{name: "every sample alike", e: faulting(pf, 2, nil, 0, 0), want: true, sev: finding.Info,
			msg: "31 of 31 samples had page faults (62 in all, at most 2 in one sample): every sample faulted equally often, so the faults are part of every time"},
		{name: "every sample alike, faults a tenth of the time", e: faulting(pf, 1000, nil, 0, 0), want: true, sev: finding.Warn,
			msg: "at ~1 µs each they take about 10% of a typical sample (over 5%): the time includes the kernel mapping memory"},
		{name: "every sample alike, faults 4% of the time", e: faulting(pf, 400, nil, 0, 0), want: true, sev: finding.Info, msg: "every sample faulted equally often"},
		{name: "most faulted alike, and slow, but too few faults", e: faulting(pf, 0, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 4, 200), want: true, sev: finding.Info,
			msg: "16 of 31 samples had page faults (64 in all, at most 4 in one sample): they are slower"},
		{name: "all faulted, few heavy", e: faulting(pf, 1, []int{4, 5, 6}, 900, 300), want: true, sev: finding.Info,
			msg: "31 of 31 samples had page faults (2728 in all, at most 900 in one sample): 3 had more than 450 (halfway between the fewest, 1, and the most, 900), and those are no more than lie above p90 (3)"},
		{name: "all faulted, the most-faulting slow", e: faulting(pf, 3, four, 39481, 500), want: true, sev: finding.Warn,
			msg: "4 had more than 19742 (halfway between the fewest, 3, and the most, 39481), and those are the slow ones (median 500 ns/op against 100 ns/op)"},
		{name: "getrusage stands in", e: faulting(minor, 0, four, 9000, 200), want: true, sev: finding.Warn, msg: "4 of 31 samples had page faults"},
		{name: "perf wins over getrusage", e: perfAndRusage},
		{name: "no faults", e: faulting(pf, 0, nil, 0, 0)},
		{name: "not counted", e: result.Experiment{Samples: timed(1, repeat(31, 100)...)}},
	})
}

func TestFewSamples(t *testing.T) {
	runChecks(t, result.CodeFewSamples, []checkCase{
		{name: "four", e: result.Experiment{Samples: perOp(100, 101, 99, 100)}, want: true, sev: finding.Warn,
			msg: "only 4 samples (fewer than 5): spread, outliers and drift cannot be judged, and two slow samples are enough to move the median"},
		{name: "one", e: result.Experiment{Samples: perOp(100)}, want: true, sev: finding.Warn, msg: "only 1 sample (fewer than 5): spread, outliers and drift cannot be judged, and one slow sample is"},
		{name: "five", e: result.Experiment{Samples: perOp(100, 101, 99, 100, 100)}},
		// Samples without iterations carry no time: 4 count.
		{name: "five, one empty", e: result.Experiment{Samples: append(perOp(100, 101, 99, 100), result.Sample{Ns: 5})}, want: true, sev: finding.Warn, msg: "only 4 samples"},
		{name: "none: no-samples says it", e: result.Experiment{}},
	})
}

func TestShortSamples(t *testing.T) {
	calibrated := Facts{SampleTime: 10 * time.Millisecond}
	// Medians 9.99 ms and 10 ms.
	short := timed(1000, 9_990_000, 9_980_000, 10_500_000)
	enough := timed(1000, 10_000_000, 9_980_000, 10_500_000)
	runChecks(t, result.CodeShortSamples, []checkCase{
		{name: "short", e: result.Experiment{Samples: short}, f: calibrated, want: true, sev: finding.Info,
			msg: "the median sample lasted 9.99 ms, less than the 10 ms asked (--sample-time): the calibration runs were slower than the samples"},
		{name: "exactly the sample time", e: result.Experiment{Samples: enough}, f: calibrated},
		{name: "fixed iterations", e: result.Experiment{Samples: short}, f: Facts{SampleTime: 10 * time.Millisecond, FixedIters: 1000}},
		{name: "sample time unknown", e: result.Experiment{Samples: short}},
		{name: "calibration at its cap", e: result.Experiment{Samples: timed(harness.MaxIters, 1000, 1000, 1000)}, f: calibrated},
	})
}

func TestSlowClock(t *testing.T) {
	clocked := func(before, after float64) result.Experiment {
		return result.Experiment{Samples: timed(1000, repeat(10, 1_000_000)...),
			Clock: &result.EffectiveClock{BeforeHz: before, AfterHz: after, Source: "dependent-add chain"}}
	}
	run := Facts{RunClockHz: 3.69e9}
	runChecks(t, result.CodeSlowClock, []checkCase{
		{name: "half speed", e: clocked(1.85e9, 3.6e9), f: run, want: true, sev: finding.Warn,
			msg: "the CPU ran at 1.85 GHz around this experiment (1.85 GHz before, 3.6 GHz after), 50% below the 3.69 GHz the run sustained"},
		{name: "6% slow", e: clocked(3.46e9, 3.46e9), f: run, want: true, sev: finding.Warn, msg: "6.2% below"},
		{name: "4% slow", e: clocked(3.55e9, 3.6e9), f: run},
		{name: "the fastest", e: clocked(3.69e9, 3.69e9), f: run},
		{name: "not probed", e: result.Experiment{Samples: timed(1000, repeat(10, 1_000_000)...)}, f: run},
		{name: "no run clock", e: clocked(1e9, 1e9)},
	})
}

func TestSlowCore(t *testing.T) {
	// A probe pair: reference ns per iteration before and after, each at
	// the clock measured with it.
	probed := func(beforeNs, beforeHz, afterNs, afterHz float64) result.Experiment {
		return result.Experiment{Samples: timed(1000, repeat(10, 1_000_000)...),
			Reference: &result.Reference{BeforeNs: beforeNs, AfterNs: afterNs},
			Clock:     &result.EffectiveClock{BeforeHz: beforeHz, AfterHz: afterHz}}
	}
	run := Facts{RunRefCycles: 1, RunRefFrom: "one per iteration"}
	runChecks(t, result.CodeSlowCore, []checkCase{
		{name: "shared core", e: probed(0.47, 3.69e9, 0.271, 3.69e9), f: run, want: true, sev: finding.Warn,
			msg: "a reference loop took 1.73 cycles per iteration around this experiment (1.73 before, 1 after), 73% more than its best, 1 (one per iteration)"},
		{name: "11% more cycles", e: probed(0.271, 3.69e9, 0.301, 3.69e9), f: run, want: true, sev: finding.Warn, msg: "11% more"},
		{name: "9% more cycles", e: probed(0.295, 3.69e9, 0.271, 3.69e9), f: run},
		{name: "a lower clock alone is not a shared core", e: probed(0.3125, 3.2e9, 0.3125, 3.2e9), f: run},
		{name: "no clock with the probe", e: result.Experiment{Samples: timed(1000, repeat(10, 1_000_000)...), Reference: &result.Reference{BeforeNs: 1, AfterNs: 1}}, f: run},
		{name: "no run best", e: probed(1, 1e9, 1, 1e9)},
	})
}

// A program whose run lasts less than SpawnDominatedRatio times the start
// of a process is mostly the start; a longer one, or a loop, is not.
func TestSpawnDominated(t *testing.T) {
	f := Facts{SpawnNs: 1e6}
	prog := result.Experiment{Kind: result.KindProcess, Name: "p"}
	for _, tt := range []struct {
		median float64
		kind   string
		want   bool
	}{
		{5e6, result.KindProcess, true},
		{SpawnDominatedRatio * 1e6, result.KindProcess, false},
		{5e6, result.KindLoop, false},
	} {
		prog.Kind = tt.kind
		fd, got := checkSpawn(prog, result.Stats{N: 5, Median: tt.median}, f)
		if got != tt.want || (got && (fd.Code != result.CodeSpawn || fd.Severity != finding.Warn)) {
			t.Errorf("median %g ns, kind %q, spawn 1 ms: spawn-dominated %v, want %v", tt.median, tt.kind, got, tt.want)
		}
	}
	if fd, ok := checkSpawn(prog, result.Stats{N: 5, Median: 2e6}, Facts{}); ok {
		t.Errorf("no spawn cost measured: %v", fd)
	}
}

// TestPageFaultsEvidence checks the numbers a page-faults finding carries:
// the medians only where there are heavy samples and others, the
// collections only where they made the faults the heap's steady state.
func TestPageFaultsEvidence(t *testing.T) {
	pf := result.CounterPageFaults
	collected := faulting(pf, 3, []int{0, 7, 8, 30}, 39481, 500)
	collected.GC.Cycles = 62
	for _, tt := range []struct {
		name string
		e    result.Experiment
		f    Facts
		want map[string]any
	}{
		{"four heavy, collections", collected, Facts{GCOn: true}, map[string]any{
			"faulted_samples": 31, "samples": 31, "faults": int64(158005), "max_faults": int64(39481),
			"fewest_faults": 3.0, "heavy_cut": 19742.0, "heavy_samples": 4, "above_p90": 3,
			"fault_share": 3e-4, "heavy_median_ns": 500.0, "rest_median_ns": 100.0, "gc_cycles": int64(62),
		}},
		{"four heavy, the collector off", collected, Facts{}, map[string]any{
			"faulted_samples": 31, "samples": 31, "faults": int64(158005), "max_faults": int64(39481),
			"fewest_faults": 3.0, "heavy_cut": 19742.0, "heavy_samples": 4, "above_p90": 3,
			"fault_share": 3e-4, "heavy_median_ns": 500.0, "rest_median_ns": 100.0,
		}},
		{"every sample alike", faulting(pf, 2, nil, 0, 0), Facts{}, map[string]any{
			"faulted_samples": 31, "samples": 31, "faults": int64(62), "max_faults": int64(2),
			"fewest_faults": 2.0, "heavy_cut": 2.0, "heavy_samples": 0, "above_p90": 3,
			"fault_share": 2e-4,
		}},
	} {
		got := only(tt.e, tt.f, result.CodePageFaults)
		if len(got) != 1 {
			t.Fatalf("%s: %v, want one finding", tt.name, got)
		}
		ev := got[0].Evidence
		if len(ev) != len(tt.want) {
			t.Errorf("%s: evidence %v, want %v", tt.name, ev, tt.want)
		}
		for k, w := range tt.want {
			g, ok := ev[k]
			if f, isFloat := w.(float64); isFloat {
				if gf, _ := g.(float64); !ok || math.Abs(gf-f) > 1e-12*math.Max(1, math.Abs(f)) {
					t.Errorf("%s: %s = %v, want %v", tt.name, k, g, w)
				}
			} else if g != w {
				t.Errorf("%s: %s = %v (%T), want %v (%T)", tt.name, k, g, g, w, w)
			}
		}
	}
}
