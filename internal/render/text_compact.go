package render

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
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
	// GobenchCounters adds benchy's counters per op (run-delay-ns/op,
	// voluntary-cs/op, ...) to every gobench line, after go test's units.
	GobenchCounters bool
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
func writeCompact(w io.Writer, r *result.Result, c *compare.Document, o Options) error {
	tw := &errWriter{w: w}
	width := o.width()
	if r.Interrupted {
		tw.printf("INTERRUPTED: the run was stopped before the end; only what was measured is shown\n")
	}
	for i, line := range compactHeader(r) {
		if i == 1 { // the CPU line
			line = fitCPULine(r, width)
		}
		tw.printf("%s\n", fitParts(line, width))
	}
	tw.printf("\n")
	header, rows, footnotes := compactTable(r)
	header, rows, footnotes = fitAllocs(header, rows, footnotes, width)
	heads := shortenNames(header, rows, width)
	header, rows = addRunOrder(r, header, rows, width, o.ASCII)
	rows = fitLastColumn(header, withHeadings(rows, heads, width), width)
	if tw.err == nil {
		tw.err = writeAligned(tw, header, rows, map[int]bool{len(header) - 1: true})
	}
	for _, f := range footnotes {
		tw.printf("%s\n", Wrap(f, width, "  "))
	}
	for _, line := range []string{reportedLine(r), goTestLine(r), slowedLine(r)} {
		if line != "" {
			tw.printf("%s\n", Wrap(line, width, "  "))
		}
	}
	writeCountText(tw, r, width)
	for _, e := range r.Experiments {
		writeLatencyText(tw, e, width, o.ASCII, true)
	}
	if c != nil {
		tw.printf("\n%s", interleavedCompact(*c, width))
	}
	if why := causeLine(r.Cause); why != "" {
		tw.printf("\n%s\n", Wrap(why, width, "  "))
	}
	tw.printf("\n%s\n", Wrap("summary: "+summaryLine(r), width, "  "))
	return tw.err
}

// compactHeader is at most three lines: the machine's load and the
// environment warnings, the CPU and why it was chosen, the settings.
func compactHeader(r *result.Result) []string {
	var lines []string
	machineLine := "machine: unknown: the result holds no snapshot"
	if r.Before != nil {
		machineLine = loadSummary(r.Before)
	}
	var warns []string
	for _, f := range r.Environment {
		if f.Severity >= finding.Warn && !slices.Contains(warns, f.Code) {
			warns = append(warns, f.Code)
		}
	}
	if len(warns) > 0 {
		machineLine += "; notes: " + strings.Join(warns, ", ")
	}
	lines = append(lines, machineLine, cpuLine(r, true))
	return append(lines, compactSettings(r))
}

// cpuLine is the CPU, its clock, how busy it was before (withBusy) and
// why it was chosen: "cpu1 at 3.51 GHz, 0% busy before: fastest of 2 by
// the reference loop (0.27 vs 0.45 ns), no SMT sibling, itself 0% busy".
func cpuLine(r *result.Result, withBusy bool) string {
	cpu := fmt.Sprintf("cpu%d", r.CPU)
	if r.CPU < 0 {
		cpu = "not pinned"
	}
	if hz := max(r.EffectiveClock.BeforeHz, r.EffectiveClock.AfterHz); hz > 0 {
		cpu += " at " + units.Hz(hz)
	}
	if r.Before != nil && withBusy {
		if b, ok := r.Before.BusyOf(r.CPU); ok && b.Judged() {
			cpu += fmt.Sprintf(", %.0f%% busy before", b.Busy.Value)
		}
	}
	if r.CPUChoice != "" && r.CPU >= 0 {
		cpu += ": " + r.CPUChoice
	}
	return cpu
}

// fitCPULine is the CPU line fitted to width; when the busy before leaves
// no room for the first reason of the choice (the reason that decided),
// the line goes without it (the reasons say the CPU's busy too).
func fitCPULine(r *result.Result, width int) string {
	line := fitParts(cpuLine(r, true), width)
	if r.CPUChoice != "" && r.CPU >= 0 && !strings.Contains(line, ": ") {
		line = fitParts(cpuLine(r, false), width)
	}
	return line
}

// allKind reports whether r has experiments and every one is of kind:
// KindProcess (exec's programs), KindBenchmark (gotest's benchmarks).
func allKind(r *result.Result, kind string) bool {
	for _, e := range r.Experiments {
		if e.Kind != kind {
			return false
		}
	}
	return len(r.Experiments) > 0
}

// processCount is how many processes took r's samples (0 without any).
func processCount(r *result.Result) int {
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
func sampleSettings(r *result.Result, sep string) string {
	if allKind(r, result.KindBenchmark) {
		return benchmarkSamples(r, sep) + " (the first call of each dropped)"
	}
	return loopSamples(r, sep)
}

// benchmarkSamples is how many samples of Go benchmarks of what length
// were taken, in how many processes. The one-screen header says no more:
// with GOMAXPROCS and where Go's threads run it fills 80 columns.
func benchmarkSamples(r *result.Result, sep string) string {
	return fmt.Sprintf("%s samples %s %v in %s", sampleCount(r), sep, r.Settings.SampleTime, units.Count(processCount(r), "process"))
}

// sampleCount is the samples asked for, and the target of --target-ci.
func sampleCount(r *result.Result) string {
	st := r.Settings
	n := strconv.Itoa(st.Samples)
	if st.TargetCI > 0 {
		n += fmt.Sprintf("+ (until ±%s, at most %v)", units.Pct(st.TargetCI), st.MaxTime)
	}
	return n
}

// loopSamples is sampleSettings of loops and commands.
func loopSamples(r *result.Result, sep string) string {
	st := r.Settings
	n := sampleCount(r)
	if procs := processCount(r); procs > 1 {
		// The samples are all the processes' (processShare splits them);
		// the warm-up is each process's own.
		return fmt.Sprintf("%s samples %s %v in %d processes, %v warm-up in each", n, sep, st.SampleTime, procs, st.Warmup)
	}
	if len(st.Looks) > 0 {
		// Rounds that may stop early (compare.Looks, the budget).
		return fmt.Sprintf("up to %d rounds or %v, samples %s %v, %v warm-up", st.Samples, st.RoundsBudget, sep, st.SampleTime, st.Warmup)
	}
	return fmt.Sprintf("%s samples %s %v, %v warm-up", n, sep, st.SampleTime, st.Warmup)
}

// compactSettings is the settings in one line.
// Its parts come most important first: a narrow terminal drops the last.
func compactSettings(r *result.Result) string {
	st := r.Settings
	var parts []string
	if st.Smoke {
		parts = append(parts, "SMOKE: numbers not to be trusted")
	}
	switch {
	case allKind(r, result.KindProcess):
		n := 0
		for _, e := range r.Experiments {
			n = max(n, len(e.Samples))
		}
		runs := units.Count(n, "run") + " of each command"
		if st.WarmupRuns > 0 {
			runs += fmt.Sprintf(" after %s", units.Count(st.WarmupRuns, "untimed run"))
		}
		parts = append(parts, runs)
	case allKind(r, result.KindBenchmark):
		parts = append(parts, benchmarkSamples(r, ">="), gcText(r))
	default:
		parts = append(parts, sampleSettings(r, ">="))
		if st.Iters > 0 {
			parts = append(parts, fmt.Sprintf("%d iterations each", st.Iters))
		}
		parts = append(parts, gcText(r))
	}
	switch {
	case st.Isolate && r.NotIsolated != "":
		parts = append(parts, fmt.Sprintf("Go's threads NOT off cpu%d", r.CPU))
	case st.Isolate && r.CPU >= 0:
		parts = append(parts, fmt.Sprintf("Go's threads off cpu%d", r.CPU))
	}
	if st.Bench != "" && st.Bench != "." {
		parts = append(parts, "bench "+strconv.Quote(st.Bench))
	}
	return strings.Join(parts, ", ")
}

// gcText is whether the collector ran, and GOMAXPROCS.
func gcText(r *result.Result) string {
	gc := "GC off"
	if r.Settings.GC {
		gc = "GC on"
	}
	if r.GOMAXPROCS > 0 {
		gc += ", " + gomaxprocsText(r)
	}
	return gc
}

// compactTable is one row per experiment: min, median and p90 in one unit
// (the median's), the allocations, the verdict with its first reason. A
// median marked † differs materially from the on-CPU time (the thread was
// off the CPU for part of the samples); a footnote gives the on-CPU time,
// as another explains the allocations marked *.
func compactTable(r *result.Result) (header []string, rows [][]string, footnotes []string) {
	header = []string{"experiment", "min", "median", "p90", "max", "", "allocs", "verdict"}
	processes := allKind(r, result.KindProcess)
	if processes {
		header[allocsColumn] = "max RSS" // a program's memory is its peak, not its allocations
	}
	var marks compactMarks
	for _, e := range r.Experiments {
		rows = append(rows, marks.row(r, e, processes))
	}
	return header, rows, marks.footnotes()
}

// compactMarks are what the rows of the one-screen table marked, for the
// footnotes under it.
type compactMarks struct {
	onCPU                  []string // "label on-CPU median" of each median marked †
	onCPUAbove, onCPUBelow bool     // an on-CPU median above, below the wall time
	// Of those below: one ran collections, one was disturbed.
	onCPUCollector, onCPUTaken bool
	gcOff                      bool // an allocation count marked *
	atFloor                    bool // a peak memory marked ≤
}

// row is e's row: its times in the median's unit, its allocations or its
// peak memory when processes, its verdict.
func (m *compactMarks) row(r *result.Result, e result.Experiment, processes bool) []string {
	st := e.Stats
	if st.N == 0 {
		what := "-"
		if e.Error != "" {
			what = "failed"
		}
		return []string{e.Label(), what, "-", "-", "-", "", "-", verdictCell(e)}
	}
	unit, scale := units.DurationUnit(st.Median)
	v := func(ns float64) string { return units.Sig(ns/scale, 3) }
	median := m.median(e, v(st.Median))
	var memory string
	if processes {
		memory = m.peakMemory(e)
	} else {
		memory = m.allocs(r, e)
	}
	return []string{e.Label(), v(st.Min), median, v(st.P90), v(st.Max), unit, memory, verdictCell(e)}
}

// median is the median's cell: marked † when the on-CPU median differs
// from it materially, except for a program, which waits as part of its
// work.
func (m *compactMarks) median(e result.Experiment, cell string) string {
	st := e.Stats
	onCPU := st.OnCPUMedian
	if onCPU <= 0 || e.Kind == result.KindProcess || math.Abs(onCPU/st.Median-1) <= OnCPUMaterial {
		return cell
	}
	m.onCPU = append(m.onCPU, fmt.Sprintf("%s %s", e.Label(), units.Duration(onCPU)))
	if onCPU > st.Median {
		m.onCPUAbove = true
	} else {
		m.onCPUBelow = true
		m.onCPUCollector = m.onCPUCollector || collected(e)
		m.onCPUTaken = m.onCPUTaken || slices.Contains(e.Reasons, result.CodeDisturbed)
	}
	return cell + "†"
}

// allocs is the allocations per op, marked * when the loop allocated with
// the collector off.
func (m *compactMarks) allocs(r *result.Result, e result.Experiment) string {
	cell := allocsCell(e.GC.AllocsPerOp, allocsKnown(r, e))
	if !r.Settings.GC && hasFinding(e, result.CodeAllocs) {
		m.gcOff = true
		return cell + "*"
	}
	return cell
}

// peakMemory is a program's peak memory, marked ≤ when it is no higher
// than its floor: then the kernel counted the starting process's memory.
func (m *compactMarks) peakMemory(e result.Experiment) string {
	kb, ok := perOpMedian(e, counterMaxRSS)
	if !ok {
		return "-"
	}
	cell := units.Bytes(kb * 1024)
	if floor, ok := perOpMedian(e, counterRSSFloor); ok && kb <= floor+rssFloorSlackKB {
		m.atFloor = true
		return "≤" + cell
	}
	return cell
}

// footnotes explain the marks the rows carry.
func (m *compactMarks) footnotes() []string {
	var notes []string
	if m.atFloor {
		notes = append(notes, "≤ the program's peak memory is at most this: the kernel counts for a started program the memory of the process that started it, and this one needed no more")
	}
	if len(m.onCPU) > 0 {
		// Where other tasks took the CPU from some of them, that is why
		// (the why: line says so), not the collector.
		notes = append(notes, "† on-CPU median: "+strings.Join(m.onCPU, ", ")+" ("+onCPUWhy(m.onCPUAbove, m.onCPUBelow, m.onCPUCollector && !m.onCPUTaken)+")")
	}
	if m.gcOff {
		notes = append(notes, "* allocates with the collector off: the time leaves out collecting the garbage, which a real program pays (--gc on measures it)")
	}
	return notes
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
func addRunOrder(r *result.Result, header []string, rows [][]string, width int, ascii bool) ([]string, [][]string) {
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

// allocsColumn is where compactTable puts allocations per op (max RSS
// for programs), the column fitAllocs may move under the table.
const allocsColumn = 6

// fitAllocs keeps verdicts on their rows. When a verdict and its first
// reason do not fit width beside the allocations column, the column moves
// under the table as a footnote naming the experiments that allocate, if
// that footnote takes at most two lines and fewer verdicts then need a
// line of their own. Such lines double the table's height, and the table
// then no longer fits one screen; the allocations read as well in a line.
func fitAllocs(header []string, rows [][]string, footnotes []string, width int) ([]string, [][]string, []string) {
	wrapped := verdictsTooWide(header, rows, width)
	if wrapped == 0 {
		return header, rows, footnotes
	}
	drop := func(row []string) []string {
		return append(slices.Clone(row[:allocsColumn]), row[allocsColumn+1:]...)
	}
	narrow := make([][]string, len(rows))
	var parts []string
	for i, row := range rows {
		narrow[i] = drop(row)
		if cell := row[allocsColumn]; cell != "0" && cell != "-" {
			parts = append(parts, row[0]+" "+cell)
		}
	}
	label := header[allocsColumn]
	if label == "allocs" {
		label = "allocs/op"
	}
	note := label + ": " + strings.Join(parts, ", ") + "; 0 in the others"
	switch {
	case len(parts) == 0:
		note = label + ": 0 in every experiment"
	case len(parts) == len(rows):
		note = label + ": " + strings.Join(parts, ", ")
	}
	if strings.Count(Wrap(note, width, "  "), "\n") > 1 || verdictsTooWide(drop(header), narrow, width) >= wrapped {
		return header, rows, footnotes
	}
	return drop(header), narrow, append([]string{note}, footnotes...)
}

// verdictsTooWide counts the verdict cells that fitLastColumn would split
// onto a line of their own.
func verdictsTooWide(header []string, rows [][]string, width int) int {
	room := verdictRoom(header, rows, width)
	n := 0
	for _, row := range rows {
		if _, more := splitVerdict(row[len(row)-1], room); more != "" {
			n++
		}
	}
	return n
}

// verdictRoom is the width the last column, the verdict, has: what the
// other columns leave of width, and never below 12 runes.
func verdictRoom(header []string, rows [][]string, width int) int {
	return max(width-columnsWidth(header, rows), 12)
}

// columnsWidth is the width of every column but the last, with the two
// spaces before each; headings (withHeadings) span the table, and count
// in no column.
func columnsWidth(header []string, rows [][]string) int {
	used := 0
	for i := range len(header) - 1 {
		col := utf8.RuneCountInString(header[i])
		for _, row := range rows {
			if !isHeading(header, row) {
				col = max(col, utf8.RuneCountInString(row[i]))
			}
		}
		used += col + 2
	}
	return used
}

// verdictCell is the verdict and its first reason: "doubtful: unstable",
// with "+2" when two more reasons decided it.
func verdictCell(e result.Experiment) string {
	v := cmp.Or(e.Verdict, "no verdict")
	if len(e.Reasons) == 0 {
		return v
	}
	v += ": " + e.Reasons[0]
	if n := len(e.Reasons) - 1; n > 0 {
		v += " +" + strconv.Itoa(n)
	}
	return v
}

// fitLastColumn fits the cells of the last column (the verdict) into
// what width leaves them. The verdict itself is never cut: a cell too
// wide drops its count of more reasons, and if still too wide it moves
// its reason to a line of its own under the verdict (the reason is the
// first thing to check). It returns the rows with those lines added.
func fitLastColumn(header []string, rows [][]string, width int) [][]string {
	room := verdictRoom(header, rows, width)
	var out [][]string
	for _, row := range rows {
		if isHeading(header, row) {
			out = append(out, row)
			continue
		}
		last := len(row) - 1
		cell, more := splitVerdict(row[last], room)
		row[last] = cell
		out = append(out, row)
		if more != "" {
			cont := make([]string, len(row))
			cont[last] = more
			out = append(out, cont)
		}
	}
	return out
}

// splitVerdict fits a verdict cell ("doubtful: unstable +2") into n
// runes: the whole cell, or without the count of more reasons, or else
// the verdict and a colon, with its reason (and the count, when it fits)
// returned as more, for a line of its own. The verdict is never cut.
func splitVerdict(cell string, n int) (first, more string) {
	if utf8.RuneCountInString(cell) <= n {
		return cell, ""
	}
	i := strings.LastIndex(cell, " +")
	if i > 0 && utf8.RuneCountInString(cell[:i]) <= n {
		return cell[:i], "" // the first reason, without the count of the others
	}
	verdict, reason, ok := strings.Cut(cell, ": ")
	if !ok {
		return cell, ""
	}
	if utf8.RuneCountInString(reason) > n {
		if j := strings.LastIndex(reason, " +"); j > 0 {
			reason = reason[:j]
		}
	}
	return verdict + ":", reason
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

// WrapLines wraps every line of text longer than width at spaces, so
// that a report of long lines (the machine's facts, a finding's sentence)
// reads on an 80-column terminal. The lines it adds start under the
// line's value, where a column of two spaces or more begins it ("  warn
// cpu-busy: ...", "  cpufreq         unknown: ..."), or, in an indented
// line, after its first word ("  error impossible: ..."); else four
// columns in.
// The spacing within a line is kept.
func WrapLines(text string, width int) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		body, nl := strings.CutSuffix(l, "\n")
		b.WriteString(wrapLine(body, width))
		if nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func wrapLine(line string, width int) string {
	if utf8.RuneCountInString(line) <= width {
		return line
	}
	lead := len(line) - len(strings.TrimLeft(line, " "))
	indent := lead + 4
	if i := strings.Index(line[lead:], "  "); i >= 0 && lead+i < width/2 {
		indent = lead + i + len(line[lead+i:]) - len(strings.TrimLeft(line[lead+i:], " "))
	} else if i := strings.IndexByte(line[lead:], ' '); lead > 0 && i >= 0 && lead+i < width/2 {
		indent = lead + i + 1 // "  error impossible: ...": under the sentence
	}
	pad := strings.Repeat(" ", indent)
	var out []string
	for rest, first := line, true; ; first = false {
		min := lead
		if !first {
			rest, min = pad+strings.TrimLeft(rest, " "), indent
		}
		if utf8.RuneCountInString(rest) <= width {
			return strings.Join(append(out, rest), "\n")
		}
		cut := strings.LastIndex(string([]rune(rest)[:width+1]), " ")
		if cut <= min { // one word longer than the line: break after it
			next := strings.Index(rest[min:], " ")
			if next < 0 {
				return strings.Join(append(out, rest), "\n")
			}
			cut = min + next
		}
		out = append(out, strings.TrimRight(rest[:cut], " "))
		rest = rest[cut:]
	}
}

// causeLine is the line under the table naming the most likely cause of
// the doubts, as the analysis found it; "" when every number is
// believable.
func causeLine(c *result.Cause) string {
	if c == nil {
		return ""
	}
	who := strings.Join(c.Experiments, ", ")
	if len(c.Experiments) > 3 {
		who = strings.Join(c.Experiments[:3], ", ") + fmt.Sprintf(" and %d more", len(c.Experiments)-3)
	}
	line := fmt.Sprintf("why: %s (%s: %s)", cmp.Or(c.Text, c.Code), c.Code, who)
	if c.OtherReasons > 0 {
		line += fmt.Sprintf("; %s", units.Count(c.OtherReasons, "more reason"))
	}
	return line + "; -v shows the evidence"
}

// hasFinding reports whether the analysis found code on e.
func hasFinding(e result.Experiment, code string) bool {
	return slices.ContainsFunc(e.Findings, func(f finding.Finding) bool { return f.Code == code })
}

// onCPUWhy says which way the on-CPU medians of the † footnote lie from
// the wall time, and what that means: below, the thread was off the CPU
// the rest; above, the CPU time also counts work outside the timed part
// (a benchmark's untimed setup, the collector's assists). collector says
// a median below ran collections: its thread waited for the collector,
// which the program pays as any Go program does, so the wall time is the
// number to read, not the lower one.
func onCPUWhy(above, below, collector bool) string {
	lim := units.Pct(OnCPUMaterial)
	why := ""
	if collector {
		why = ", most likely waiting for the collector, which the program pays too"
	}
	switch {
	case above && below:
		return "more than " + lim + " from the wall time: below it the thread was off the CPU" + why + "; above it the CPU time counts untimed work too"
	case above:
		return "more than " + lim + " above the wall time: the CPU time counts work outside the timed part too"
	}
	return "more than " + lim + " below the wall time: the thread was off the CPU the rest" + why
}

// collected reports whether the collector ran in any sample of e.
func collected(e result.Experiment) bool {
	return slices.ContainsFunc(e.Samples, func(s result.Sample) bool { return s.Counters[result.CounterGCCycles] > 0 })
}
