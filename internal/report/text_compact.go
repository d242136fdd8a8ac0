package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// Options say how Write renders a result.
type Options struct {
	// Verbose writes everything in text: the machine facts, the clock and
	// counters, every finding, how busy the CPUs were. The default text
	// fits one screen: three header lines, one table, why numbers are
	// doubtful, the summary.
	Verbose bool
	// Width is the width text must fit; 0 means 80.
	Width int
	// ASCII draws sparklines in ASCII, for terminals that cannot show
	// Unicode block characters.
	ASCII bool
}

func (o Options) width() int {
	if o.Width <= 0 {
		return 80
	}
	return o.Width
}

// counterMaxRSS is the peak RSS of a run of a program, in KiB, and
// counterRSSFloor the least it can read: the RSS of the process that
// started it (command.CounterRSSFloor). A peak within rssFloorSlackKB of
// the floor is the floor, not the program's.
const (
	counterMaxRSS   = "max-rss-kb"
	counterRSSFloor = "rss-floor-kb"
	rssFloorSlackKB = 256
)

// OnCPUMaterial: the on-CPU time per op is shown beside the wall time when
// the two medians of an experiment differ by more than 2%.
const OnCPUMaterial = 0.02

// writeCompact is the default text: what to believe, on one screen.
func writeCompact(w io.Writer, r *Result, o Options) error {
	tw := &errWriter{w: w}
	width := o.width()
	if r.Interrupted {
		tw.printf("INTERRUPTED: the run was stopped before the end; only what was measured is shown\n")
	}
	for _, line := range compactHeader(r) {
		tw.printf("%s\n", fitParts(line, width))
	}
	tw.printf("\n")
	header, rows, footnotes := compactTable(r)
	header, rows = addRunOrder(r, header, rows, width, o.ASCII)
	fitLastColumn(header, rows, width)
	if tw.err == nil {
		tw.err = writeAligned(tw, header, rows, map[int]bool{len(header) - 1: true})
	}
	for _, f := range footnotes {
		tw.printf("%s\n", Wrap(f, width, "  "))
	}
	if len(r.Comparison) > 0 {
		tw.printf("\n")
		for _, p := range r.Comparison {
			tw.printf("%s\n", Wrap(p.Sentence, width, "  "))
		}
	}
	if why := likelyCause(r); why != "" {
		tw.printf("\n%s\n", Wrap(why, width, "  "))
	}
	tw.printf("\n%s\n", Wrap("summary: "+Summary(r), width, "  "))
	return tw.err
}

// compactHeader is at most three lines: the machine's load and the
// environment warnings, the CPU and why it was chosen, the settings.
func compactHeader(r *Result) []string {
	var lines []string
	machineLine := "machine: unknown: the result holds no snapshot"
	if r.Before != nil {
		machineLine = r.Before.LoadSummary()
	}
	var warns []string
	for _, f := range r.Environment {
		if f.Severity >= finding.Warn {
			warns = appendNew(warns, f.Code)
		}
	}
	if len(warns) > 0 {
		machineLine += "; notes: " + strings.Join(warns, ", ")
	}
	lines = append(lines, machineLine)
	cpu := fmt.Sprintf("cpu%d", r.CPU)
	if r.CPU < 0 {
		cpu = "not pinned"
	}
	if hz := max(r.EffectiveClock.BeforeHz, r.EffectiveClock.AfterHz); hz > 0 {
		cpu += " at " + units.Hz(hz)
	}
	if r.CPUChoice != "" && r.CPU >= 0 {
		cpu += ": " + r.CPUChoice
	}
	lines = append(lines, cpu)
	return append(lines, compactSettings(r))
}

// allKind reports whether r has experiments and every one is of kind:
// KindProcess (exec's programs), KindBenchmark (gotest's benchmarks).
func allKind(r *Result, kind string) bool {
	for _, e := range r.Experiments {
		if e.Kind != kind {
			return false
		}
	}
	return len(r.Experiments) > 0
}

// processCount is how many processes took r's samples (0 without any).
func processCount(r *Result) int {
	n := 0
	for _, e := range r.Experiments {
		for _, s := range e.Samples {
			n = max(n, s.Process+1)
		}
	}
	return n
}

// sampleSettings says how many samples of what length were taken, and
// after what warm-up: a Go benchmark's is the first call of each process.
func sampleSettings(r *Result, sep string) string {
	st := r.Settings
	n := strconv.Itoa(st.Samples)
	if st.TargetCI > 0 {
		n += fmt.Sprintf("+ (until ±%s, at most %v)", units.Pct(st.TargetCI), st.MaxTime)
	}
	if allKind(r, KindBenchmark) {
		return fmt.Sprintf("%s samples %s %v in %s (the first call of each dropped)", n, sep, st.SampleTime, units.Count(processCount(r), "process"))
	}
	if procs := processCount(r); procs > 1 {
		return fmt.Sprintf("%s samples %s %v in each of %d processes, %v warm-up", n, sep, st.SampleTime, procs, st.Warmup)
	}
	return fmt.Sprintf("%s samples %s %v, %v warm-up", n, sep, st.SampleTime, st.Warmup)
}

// compactSettings is the settings in one line.
// Its parts come most important first: a narrow terminal drops the last.
func compactSettings(r *Result) string {
	st := r.Settings
	var parts []string
	if st.Smoke {
		parts = append(parts, "SMOKE: numbers not to be trusted")
	}
	switch {
	case allKind(r, KindProcess):
		n := 0
		for _, e := range r.Experiments {
			n = max(n, len(e.Samples))
		}
		runs := units.Count(n, "run") + " of each command"
		if st.WarmupRuns > 0 {
			runs += fmt.Sprintf(" after %s", units.Count(st.WarmupRuns, "untimed run"))
		}
		parts = append(parts, runs)
	default:
		parts = append(parts, sampleSettings(r, ">="))
		if st.Iters > 0 {
			parts = append(parts, fmt.Sprintf("%d iterations each", st.Iters))
		}
		parts = append(parts, map[bool]string{true: "GC on", false: "GC off"}[st.GC])
	}
	switch {
	case st.Isolate && r.NotIsolated != "":
		parts = append(parts, fmt.Sprintf("Go's threads NOT kept off cpu%d", r.CPU))
	case st.Isolate && r.CPU >= 0:
		parts = append(parts, fmt.Sprintf("Go's threads kept off cpu%d", r.CPU))
	}
	if st.Bench != "" && st.Bench != "." {
		parts = append(parts, "bench "+strconv.Quote(st.Bench))
	}
	return strings.Join(parts, ", ")
}

// compactTable is one row per experiment: min, median and p90 in one unit
// (the median's), the allocations, the verdict with its first reason. A
// median marked † differs materially from the on-CPU time (the thread was
// off the CPU for part of the samples); a footnote gives the on-CPU time,
// as another explains the allocations marked *.
func compactTable(r *Result) (header []string, rows [][]string, footnotes []string) {
	header = []string{"experiment", "min", "median", "p90", "", "allocs", "verdict"}
	processes := allKind(r, KindProcess)
	if processes {
		header[5] = "max RSS" // a program's memory is its peak, not its allocations
	}
	var onCPUNotes []string
	gcOffMark, atFloor := false, false
	for _, e := range r.Experiments {
		st := e.Stats
		row := []string{e.Name}
		if st.N == 0 {
			what := "-"
			if e.Error != "" {
				what = "failed"
			}
			rows = append(rows, append(row, what, "-", "-", "", "-", verdictCell(e)))
			continue
		}
		unit, scale := units.DurationUnit(st.Median)
		v := func(ns float64) string { return units.Sig(ns/scale, 3) }
		median := v(st.Median)
		if on, ok := OnCPUPerOp(e); ok && e.Kind != KindProcess { // a program waits as part of its work
			if m := stats.Median(on); math.Abs(m/st.Median-1) > OnCPUMaterial {
				median += "†"
				onCPUNotes = append(onCPUNotes, fmt.Sprintf("%s %s", e.Name, units.Duration(m)))
			}
		}
		allocs := allocsCell(e.GC.AllocsPerOp, allocsKnown(r, e))
		if processes {
			allocs = "-"
			if kb, ok := perOpMedian(e, counterMaxRSS); ok {
				allocs = units.Bytes(kb * 1024)
				if floor, ok := perOpMedian(e, counterRSSFloor); ok && kb <= floor+rssFloorSlackKB {
					allocs, atFloor = "≤"+allocs, true
				}
			}
		} else if !r.Settings.GC && e.GC.AllocsPerOp >= AllocsMinPerOp {
			allocs += "*"
			gcOffMark = true
		}
		rows = append(rows, append(row, v(st.Min), median, v(st.P90), unit, allocs, verdictCell(e)))
	}
	if atFloor {
		footnotes = append(footnotes, "≤ the program's peak memory is at most this: the kernel counts for a started program the memory of the process that started it, and this one needed no more")
	}
	if len(onCPUNotes) > 0 {
		footnotes = append(footnotes, "† on-CPU median: "+strings.Join(onCPUNotes, ", ")+
			fmt.Sprintf(" (more than %s below the wall time: the thread was off the CPU the rest)", units.Pct(OnCPUMaterial)))
	}
	if gcOffMark {
		footnotes = append(footnotes, "* allocates with the collector off: the time leaves out collecting the garbage, which a real program pays (--gc measures it)")
	}
	return header, rows, footnotes
}

// Width of the run-order column of the one-screen table: a sample a cell
// up to sparkMaxCells, and never fewer than sparkMinCells.
const (
	sparkMinCells = 8
	sparkMaxCells = 24
)

// addRunOrder adds a sparkline column before the verdict when the table
// still fits width with every verdict whole; else it returns the table
// as it was (-v always shows the series).
func addRunOrder(r *Result, header []string, rows [][]string, width int, ascii bool) ([]string, [][]string) {
	cells := 0
	for _, e := range r.Experiments {
		cells = max(cells, min(e.Stats.N, sparkMaxCells))
	}
	if cells < sparkMinCells {
		return header, rows
	}
	used := 0
	for i := range header {
		col := utf8.RuneCountInString(header[i])
		for _, row := range rows {
			col = max(col, utf8.RuneCountInString(row[i]))
		}
		used += col + 2
	}
	if used+cells+2 > width {
		return header, rows
	}
	last := len(header) - 1
	withCol := func(row []string, cell string) []string {
		out := append(slices.Clone(row[:last]), cell)
		return append(out, row[last])
	}
	out := make([][]string, len(rows))
	for i, e := range r.Experiments {
		line, _ := Sparkline(e, cells, ascii)
		out[i] = withCol(rows[i], line)
	}
	return withCol(header, "run order"), out
}

// verdictCell is the verdict and its first reason: "doubtful: unstable",
// with "+2" when two more reasons decided it.
func verdictCell(e Experiment) string {
	v := orDefault(e.Verdict, "no verdict")
	if len(e.Reasons) == 0 {
		return v
	}
	v += ": " + e.Reasons[0]
	if n := len(e.Reasons) - 1; n > 0 {
		v += " +" + strconv.Itoa(n)
	}
	return v
}

// fitLastColumn shortens the cells of the last column (the verdict) so
// the table fits width, ending a shortened cell with "…".
func fitLastColumn(header []string, rows [][]string, width int) {
	all := append([][]string{header}, rows...)
	used := 0
	for i := range len(header) - 1 {
		col := 0
		for _, row := range all {
			col = max(col, utf8.RuneCountInString(row[i]))
		}
		used += col + 2
	}
	room := max(width-used, 12)
	for _, row := range all {
		last := len(row) - 1
		row[last] = clip(row[last], room)
	}
}

// fitParts shortens a line of comma-separated parts to width by dropping
// whole parts from its end (and "…" in their place), so what is shown
// reads whole; a single part too long is clipped.
func fitParts(line string, width int) string {
	if utf8.RuneCountInString(line) <= width {
		return line
	}
	parts := strings.Split(line, ", ")
	for n := len(parts) - 1; n > 0; n-- {
		if s := strings.Join(parts[:n], ", ") + ", …"; utf8.RuneCountInString(s) <= width {
			return s
		}
	}
	return clip(line, width)
}

// clip shortens s to at most n runes, ending with "…" when it cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n || n < 2 {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// Wrap breaks s into lines of at most width runes at spaces, indenting
// the lines after the first.
func Wrap(s string, width int, indent string) string {
	words := strings.Fields(s)
	var b strings.Builder
	line := 0
	for i, word := range words {
		n := utf8.RuneCountInString(word)
		if i > 0 && line+1+n > width {
			b.WriteString("\n" + indent)
			line = utf8.RuneCountInString(indent)
		} else if i > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += n
	}
	return b.String()
}

// causes says, per finding code, what most likely went wrong and what to
// do, in the words of the line under the table.
var causes = map[string]string{
	CodeImpossible:   "a time no core can reach: the compiler computed the result or removed the work",
	CodeNoLoadInLoop: "the compiler removed the work: the loop no longer reads its input (keep the result: benchy.Keep)",
	CodeEmptyLoop:    "the compiler deleted the benchmark's work: keep every result (a package-level variable, or b.Loop)",
	CodeFolded:       "the compiler computed the result before the loop: read the inputs from variables",
	CodeSetupInTimer: "work outside the b.N loop is timed: call b.ResetTimer after the setup",
	CodeDebugBuild:   "the test binary was built to debug or instrument: build it without -N -l, -race or -cover",
	CodeBelowClock:   "samples too short for the clock to time: raise --sample-time",
	CodeDisturbed:    "other tasks took the CPU while measuring: stop them, try another --cpu, or use --compare",
	CodeSlowCore:     "the core was shared with a busy sibling hardware thread or the host",
	CodeSlowClock:    "the CPU's clock dropped while measuring (governor, turbo or the host)",
	CodeFreqChange:   "the CPU's clock changed during the run (governor, turbo or the host)",
	CodeUnstable:     "the samples do not agree: a noisy machine, or work that varies",
	CodeDrift:        "something changed during the run: the machine or the program's state",
	CodeFirstSlow:    "the warm-up was too short: raise --warmup",
	CodePageFaults:   "memory was mapped while measuring: a longer --warmup, or --gc",
	CodeFewSamples:   "too few samples to judge: raise --samples (a smoke run checks, it does not measure)",
	CodeSpawn:        "a run is mostly the start of a process: give each run more work",
	CodeGC:           "the collector ran inside samples",
	CodeMigrated:     "the pin did not hold: samples ran on other CPUs",
	CodeFailed:       "an experiment failed",
	CodeNoSamples:    "nothing was measured",
	CodeNotPinned:    "the measured thread was not pinned (the system cannot pin, or the benchmark runs b.RunParallel)",
	"cpu-busy":       "the machine was busy: close other programs",
	"sibling-busy":   "the SMT sibling of the measured CPU was busy",
	"steal":          "the host ran other guests on this CPU",
	"load":           "the machine was loaded: close other programs",
	"throttled":      "the CPU was slowed for heat",
	"cgroup-quota":   "a CPU quota limits this process",

	// benchy exec's own
	CodeLeftProcesses: "runs left processes running after they exited (benchy killed them): wait for what the command starts",
}

// likelyCause is one line naming the most likely cause of the numbers
// that are not believable or doubtful: the first reason shared by most of
// them (an error's first), and the experiments it applies to; "" when all
// are believable.
func likelyCause(r *Result) string {
	count := map[string][]string{}
	var order []string
	for _, sev := range []string{VerdictNotBelievable, VerdictDoubtful} {
		for _, e := range r.Experiments {
			if e.Verdict != sev || len(e.Reasons) == 0 {
				continue
			}
			c := e.Reasons[0]
			if _, ok := count[c]; !ok {
				order = append(order, c)
			}
			count[c] = append(count[c], e.Name)
		}
	}
	if len(order) == 0 {
		return ""
	}
	best := order[0]
	for _, c := range order {
		if len(count[c]) > len(count[best]) {
			best = c
		}
	}
	cause := orDefault(causes[best], best)
	names := count[best]
	who := strings.Join(names, ", ")
	if len(names) > 3 {
		who = strings.Join(names[:3], ", ") + fmt.Sprintf(" and %d more", len(names)-3)
	}
	line := fmt.Sprintf("why: %s (%s: %s)", cause, best, who)
	if others := len(order) - 1; others > 0 {
		line += fmt.Sprintf("; %d more %s", others, map[bool]string{true: "reason", false: "reasons"}[others == 1])
	}
	return line + "; -v shows the evidence"
}
