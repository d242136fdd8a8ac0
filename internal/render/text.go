package render

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// writeText writes the report for a person: machine header, clock and
// settings, one table row per experiment, each experiment's verdict and
// findings, how busy the CPUs were during the run, the environment
// findings and the summary line.
func writeText(w io.Writer, r *result.Result, c *compare.Document, o Options) error {
	// The header and the prose after the table wrap to the width (long
	// facts of the machine, the counters' list); the table does not.
	var head, tail strings.Builder
	if err := writeTextHeader(&head, r); err != nil {
		return err
	}
	if _, err := io.WriteString(w, WrapLines(head.String(), o.width())); err != nil {
		return err
	}
	if err := writeTable(w, tableHeader(r), tableRows(r)); err != nil {
		return err
	}
	for _, line := range []string{reportedLine(r), goTestLine(r), slowedLine(r)} {
		if line != "" {
			tail.WriteString(line + "\n")
		}
	}
	if err := writeTextBody(&tail, r, c, o); err != nil {
		return err
	}
	_, err := io.WriteString(w, WrapLines(tail.String(), o.width()))
	return err
}

// writeTextHeader writes what comes before the table: the machine, the
// clock, the counters and the settings.
func writeTextHeader(w io.Writer, r *result.Result) error {
	tw := &errWriter{w: w}
	if r.Interrupted {
		tw.printf("INTERRUPTED: the run was stopped before the end; only what was measured is shown\n\n")
	}
	if r.Before != nil {
		if err := machineHeader(tw, r.Before, r.CPU); err != nil {
			return err
		}
	} else {
		tw.printf("machine: unknown: the result holds no snapshot\n")
	}
	tw.printf("%s\n", clockLine(r))
	if c := countersLine(r); c != "" {
		tw.printf("%s\n", c)
	}
	tw.printf("%s\n\n", settingsLine(r))
	return tw.err
}

// writeTextBody writes what comes after the table: the counts, each
// experiment's verdict and findings, the comparison c (nil for none), how
// busy the CPUs were, the environment and the summary.
func writeTextBody(w io.Writer, r *result.Result, c *compare.Document, o Options) error {
	tw := &errWriter{w: w}
	writeCountText(tw, r, o.width())
	for _, e := range r.Experiments {
		tw.printf("\n%s: %s", e.Label(), cmp.Or(e.Verdict, "no verdict"))
		if len(e.Reasons) > 0 {
			tw.printf(" (%s)", strings.Join(e.Reasons, ", "))
		}
		tw.printf("\n")
		if line := runOrder(e, o); line != "" {
			tw.printf("%s\n", line)
		}
		shown, quiet := splitQuiet(e.Findings)
		if tw.err == nil {
			tw.err = writeFindings(tw, shown)
		}
		if len(quiet) > 0 {
			tw.printf("  info  also noted: %s (details in --format json)\n", strings.Join(quiet, ", "))
		}
		writeProfileText(tw, e.Profile)
		writeLatencyText(tw, e, o.width(), o.ASCII, false)
	}
	if c != nil {
		tw.printf("\n")
		if tw.err == nil {
			tw.err = writeComparisonText(tw, *c)
		}
	}
	tw.printf("\nbusy during the run:\n")
	if len(r.BusyDuring) == 0 {
		tw.printf("  unknown: not recorded\n")
	} else if tw.err == nil {
		tw.err = busyGrid(tw, r.BusyDuring)
	}
	if len(r.Environment) > 0 {
		tw.printf("\nenvironment:\n")
		if tw.err == nil {
			tw.err = writeFindings(tw, r.Environment)
		}
	}
	tw.printf("\nsummary: %s\n", summaryLine(r))
	return tw.err
}

// errWriter keeps the first write error so the text writer reads straight.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) printf(format string, args ...any) {
	fmt.Fprintf(e, format, args...)
}

// clockLine says what time.Now costs, its step, and the CPU's clock.
func clockLine(r *result.Result) string {
	ns := func(v float64) string {
		if v <= 0 {
			return "unknown"
		}
		return units.Duration(v)
	}
	s := fmt.Sprintf("clock: time.Now costs %s, step %s", ns(r.Clock.NowCostNs), ns(r.Clock.GranularityNs))
	ec := r.EffectiveClock
	hz := func(v float64) string {
		if v <= 0 {
			return "unknown"
		}
		return units.Hz(v)
	}
	if ec.BeforeHz > 0 || ec.AfterHz > 0 {
		s += fmt.Sprintf("; effective clock %s before, %s after (%s)", hz(ec.BeforeHz), hz(ec.AfterHz), cmp.Or(ec.Source, "source unknown"))
	} else {
		s += "; effective clock " + cmp.Or(ec.Source, "unknown")
	}
	if r.MaxFreqHz > 0 {
		s += fmt.Sprintf("; max %s (%s)", units.Hz(r.MaxFreqHz), cmp.Or(r.MaxFreqSource, "source unknown"))
	} else {
		s += "; max frequency " + cmp.Or(r.MaxFreqSource, "unknown")
	}
	return s
}

// countersLine says which counters were read and why others were not;
// "" when the result does not say.
func countersLine(r *result.Result) string {
	c := r.Counters
	if len(c.Opened) == 0 && len(c.Unavailable) == 0 {
		return ""
	}
	s := "counters: " + cmp.Or(strings.Join(c.Opened, ", "), "none")
	if len(c.Unavailable) > 0 {
		var un []string
		for _, name := range slices.Sorted(maps.Keys(c.Unavailable)) {
			un = append(un, fmt.Sprintf("%s (%s)", name, c.Unavailable[name]))
		}
		s += "; unavailable: " + strings.Join(un, ", ")
	}
	return s
}

// settingsLine says how the run was made.
func settingsLine(r *result.Result) string {
	st := r.Settings
	parts := []string{fmt.Sprintf("settings: cpu%d", r.CPU)}
	if r.CPUChoice != "" {
		parts[0] += " (" + r.CPUChoice + ")"
	}
	if r.GOMAXPROCS > 0 {
		parts = append(parts, gomaxprocsText(r))
	}
	if allKind(r, result.KindBenchmark) || st.TargetCI > 0 || processCount(r) > 1 || len(st.Looks) > 0 {
		parts = append(parts, sampleSettings(r, "of at least"))
	} else {
		parts = append(parts, fmt.Sprintf("%d samples of at least %v after %v warm-up", st.Samples, st.SampleTime, st.Warmup))
	}
	if st.Iters > 0 {
		parts = append(parts, fmt.Sprintf("%d iterations per sample (fixed)", st.Iters))
	} else {
		parts = append(parts, "iterations calibrated")
	}
	parts = append(parts, map[bool]string{true: "GC on", false: "GC off"}[st.GC])
	switch {
	case st.Isolate && r.NotIsolated != "":
		parts = append(parts, "not isolated: "+r.NotIsolated)
	case st.Isolate:
		parts = append(parts, fmt.Sprintf("Go's other threads kept off cpu%d", r.CPU))
	default:
		parts = append(parts, "not isolated")
	}
	if st.Bench != "" {
		parts = append(parts, "bench "+strconv.Quote(st.Bench))
	}
	if st.Smoke {
		parts = append(parts, "smoke")
	}
	if r.PeakRSS > 0 {
		parts = append(parts, fmt.Sprintf("peak memory %d MiB", r.PeakRSS>>20))
	}
	if r.MemoryLimit > 0 {
		parts = append(parts, fmt.Sprintf("memory limit %d MiB", r.MemoryLimit>>20))
	}
	return strings.Join(parts, ", ")
}

// hasCounter reports whether any sample of r counted c.
func hasCounter(r *result.Result, c string) bool {
	for _, e := range r.Experiments {
		for _, s := range e.Samples {
			if _, ok := s.Counters[c]; ok {
				return true
			}
		}
	}
	return false
}

func tableHeader(r *result.Result) []string {
	h := []string{"experiment", "min", "median", "p90", "max", "n", "iters/sample", "allocs/op"}
	cyc, ins := hasCounter(r, result.CounterCycles), hasCounter(r, result.CounterInstructions)
	if cyc {
		h = append(h, "cyc/op")
	}
	if ins {
		h = append(h, "ins/op")
	}
	if cyc && ins {
		h = append(h, "IPC")
	}
	return append(h, "disturbed")
}

func tableRows(r *result.Result) [][]string {
	cyc, ins := hasCounter(r, result.CounterCycles), hasCounter(r, result.CounterInstructions)
	var rows [][]string
	for _, e := range r.Experiments {
		st := e.Stats
		row := []string{e.Label()}
		if st.N == 0 {
			what := "-"
			if e.Error != "" {
				what = "failed"
			}
			row = append(row, what, "-", "-", "-", "0", "-", "-")
		} else {
			row = append(row, units.Duration(st.Min), units.Duration(st.Median), units.Duration(st.P90), units.Duration(st.Max),
				strconv.Itoa(st.N), itersCell(e), allocsCell(e.GC.AllocsPerOp, allocsKnown(r, e)))
		}
		c, cok := perOpMedian(e, result.CounterCycles)
		in, iok := perOpMedian(e, result.CounterInstructions)
		if cyc {
			row = append(row, cell(c, cok))
		}
		if ins {
			row = append(row, cell(in, iok))
		}
		if cyc && ins {
			row = append(row, cell(in/c, cok && iok && c > 0))
		}
		if e.Disturbed != nil {
			row = append(row, strconv.Itoa(len(e.Disturbed)))
		} else {
			row = append(row, "?")
		}
		rows = append(rows, row)
	}
	return rows
}

// itersCell is the iterations per sample, from the experiment or, when it
// is not recorded, from the first sample.
func itersCell(e result.Experiment) string {
	if e.Iters > 0 {
		return strconv.FormatInt(e.Iters, 10)
	}
	for _, s := range e.Samples {
		if s.Iters > 0 {
			return strconv.FormatInt(s.Iters, 10)
		}
	}
	return "-"
}

// allocsCell shows allocations per op with two decimals, so background
// allocations spread over many ops read "0.00", not "0.000000304"; "?"
// when they were not measured.
func allocsCell(v float64, known bool) string {
	if !known {
		return "?"
	}
	if v == float64(int64(v)) || v >= 100 {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64) // 7999.0003 reads 7999
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func cell(v float64, ok bool) string {
	if !ok {
		return "-"
	}
	return units.Sig(v, 3)
}

// perOpMedian is the median over e's samples of counter c per op; false
// when no sample with iterations counted c.
func perOpMedian(e result.Experiment, c string) (float64, bool) {
	var xs []float64
	for _, s := range e.Samples {
		if v, ok := s.Counters[c]; ok && s.Iters > 0 {
			xs = append(xs, float64(v)/float64(s.Iters))
		}
	}
	if len(xs) == 0 {
		return 0, false
	}
	return stats.Median(xs), true
}

// quietCodes are findings that, at severity info, leave the verdict alone
// (a few outliers; few disturbed or faulting samples, all above p90). The
// text report names them on one line rather than a paragraph each, so the
// lines that matter stand out; JSON keeps them in full.
var quietCodes = []string{result.CodeOutliers, result.CodeDisturbed, result.CodePageFaults}

// splitQuiet separates the quiet info findings (returned by code) from
// the ones to show in full.
func splitQuiet(fs []finding.Finding) (shown []finding.Finding, quiet []string) {
	for _, f := range fs {
		if f.Severity == finding.Info && slices.Contains(quietCodes, f.Code) {
			quiet = append(quiet, f.Code)
			continue
		}
		shown = append(shown, f)
	}
	return shown, quiet
}

// runOrder is the sparkline of e's samples with the range it spans, and
// under it the marks (x disturbed, ^ a changepoint); "" without samples.
func runOrder(e result.Experiment, o Options) string {
	const prefix = "  run order  "
	if e.Stats.N == 0 {
		return ""
	}
	lo, hi := sampleRange(e)
	suffix := fmt.Sprintf("  %s to %s", units.Duration(lo), units.Duration(hi))
	line, marks := Sparkline(e, o.width()-len(prefix)-len(suffix), o.ASCII)
	if line == "" {
		return ""
	}
	out := prefix + line + suffix
	if marks != "" {
		out += "\n" + strings.Repeat(" ", len(prefix)) + marks
	}
	return out
}

// gomaxprocsText is "GOMAXPROCS 1", and the GOMAXPROCS of experiments
// that ran with another (gotest's b.RunParallel benchmarks, which cannot
// be pinned and run at the machine's): "GOMAXPROCS 1 (2 for
// b.RunParallel)".
func gomaxprocsText(r *result.Result) string {
	s := fmt.Sprintf("GOMAXPROCS %d", r.GOMAXPROCS)
	var other []string
	for _, e := range r.Experiments {
		if v := strconv.Itoa(e.GOMAXPROCS); e.GOMAXPROCS > 0 && e.GOMAXPROCS != r.GOMAXPROCS && !slices.Contains(other, v) {
			other = append(other, v)
		}
	}
	if len(other) > 0 {
		s += " (" + strings.Join(other, ", ") + " for b.RunParallel)"
	}
	return s
}
