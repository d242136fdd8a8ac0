package report

import (
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
)

// faulting makes 31 samples of 100 ns; the samples at idx take ns each and
// count n faults of counter c, the others count base faults.
func faulting(c string, base int64, idx []int, n, ns int64) Experiment {
	s := timed(1, repeat(31, 100)...)
	for i := range s {
		s[i].Counters = map[string]int64{c: base}
	}
	for _, i := range idx {
		s[i].Ns = ns
		s[i].Counters = map[string]int64{c: n}
	}
	return Experiment{Samples: s}
}

func TestPageFaults(t *testing.T) {
	pf, minor := harness.CounterPageFaults, harness.CounterMinorFaults
	four := []int{0, 7, 8, 30} // 31 samples: 3 lie above p90
	perfAndRusage := faulting(pf, 0, nil, 0, 0)
	for i := range perfAndRusage.Samples {
		perfAndRusage.Samples[i].Counters[minor] = 40
	}
	runChecks(t, CodePageFaults, []checkCase{
		{name: "three slow of 31", e: faulting(pf, 0, []int{0, 5, 9}, 50, 300), want: true, sev: finding.Info,
			msg: "3 of 31 samples had page faults (150 in all, at most 50 in one sample): they are no more than lie above p90 (3), so min, median and p90 are not moved by the faults"},
		{name: "four slow of 31", e: faulting(pf, 0, four, 39481, 200), want: true, sev: finding.Warn,
			msg: "4 of 31 samples had page faults (157924 in all, at most 39481 in one sample): they are the slow ones (median 200 ns/op against 100 ns/op) and more than lie above p90 (3), so they move the median or p90: memory was mapped while measuring"},
		{name: "four of 31, not slower", e: faulting(pf, 0, four, 12, 100), want: true, sev: finding.Info,
			msg: "they are not slower than the others (median 100 ns/op against 100 ns/op), so the faults cost little"},
		{name: "5% slower is not slower", e: faulting(pf, 0, four, 12, 105), want: true, sev: finding.Info, msg: "not slower"},
		{name: "6% slower", e: faulting(pf, 0, four, 12, 106), want: true, sev: finding.Warn, msg: "are the slow ones"},
		{name: "every sample alike", e: faulting(pf, 2, nil, 0, 0), want: true, sev: finding.Info,
			msg: "31 of 31 samples had page faults (62 in all, at most 2 in one sample): every sample faulted equally often, so the faults are part of every time"},
		{name: "most faulted alike, and slow", e: faulting(pf, 0, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 4, 200), want: true, sev: finding.Warn,
			msg: "16 of 31 samples had page faults (64 in all, at most 4 in one sample): they are the slow ones"},
		{name: "all faulted, few heavy", e: faulting(pf, 1, []int{4, 5, 6}, 900, 300), want: true, sev: finding.Info,
			msg: "31 of 31 samples had page faults (2728 in all, at most 900 in one sample): 3 had more than the fewest (1), and those are no more than lie above p90 (3)"},
		{name: "all faulted, the most-faulting slow", e: faulting(pf, 3, four, 39481, 500), want: true, sev: finding.Warn,
			msg: "4 had more than the fewest (3), and those are the slow ones (median 500 ns/op against 100 ns/op)"},
		{name: "getrusage stands in", e: faulting(minor, 0, four, 9, 200), want: true, sev: finding.Warn, msg: "4 of 31 samples had page faults"},
		{name: "perf wins over getrusage", e: perfAndRusage},
		{name: "no faults", e: faulting(pf, 0, nil, 0, 0)},
		{name: "not counted", e: Experiment{Samples: timed(1, repeat(31, 100)...)}},
	})
}

func TestFewSamples(t *testing.T) {
	runChecks(t, CodeFewSamples, []checkCase{
		{name: "four", e: Experiment{Samples: perOp(100, 101, 99, 100)}, want: true, sev: finding.Warn,
			msg: "only 4 samples (fewer than 5): spread, outliers and drift cannot be judged, and two slow samples are enough to move the median"},
		{name: "one", e: Experiment{Samples: perOp(100)}, want: true, sev: finding.Warn, msg: "only 1 sample (fewer than 5): spread, outliers and drift cannot be judged, and one slow sample is"},
		{name: "five", e: Experiment{Samples: perOp(100, 101, 99, 100, 100)}},
		// Samples without iterations carry no time: 4 count.
		{name: "five, one empty", e: Experiment{Samples: append(perOp(100, 101, 99, 100), harness.Sample{Ns: 5})}, want: true, sev: finding.Warn, msg: "only 4 samples"},
		{name: "none: no-samples says it", e: Experiment{}},
	})
}

func TestShortSamples(t *testing.T) {
	calibrated := Facts{SampleTime: 10 * time.Millisecond}
	// Medians 9.99 ms and 10 ms.
	short := timed(1000, 9_990_000, 9_980_000, 10_500_000)
	enough := timed(1000, 10_000_000, 9_980_000, 10_500_000)
	runChecks(t, CodeShortSamples, []checkCase{
		{name: "short", e: Experiment{Samples: short}, f: calibrated, want: true, sev: finding.Info,
			msg: "the median sample lasted 9.99 ms, less than the 10 ms asked (--sample-time): the calibration runs were slower than the samples"},
		{name: "exactly the sample time", e: Experiment{Samples: enough}, f: calibrated},
		{name: "fixed iterations", e: Experiment{Samples: short}, f: Facts{SampleTime: 10 * time.Millisecond, FixedIters: 1000}},
		{name: "sample time unknown", e: Experiment{Samples: short}},
		{name: "calibration at its cap", e: Experiment{Samples: timed(harness.MaxIters, 1000, 1000, 1000)}, f: calibrated},
	})
}
