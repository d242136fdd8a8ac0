package render

import (
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

func TestWriteGolden(t *testing.T) {
	for _, format := range []string{"text", "json", "csv", "gobench", "markdown"} {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := Write(&b, fixtureResult(), format); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "fixture."+format, b.Bytes())
		})
	}
	t.Run("verbose", func(t *testing.T) {
		var b bytes.Buffer
		if err := WriteWith(&b, fixtureResult(), "text", Options{Verbose: true}); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "fixture.verbose.text", b.Bytes())
	})
}

// The default text fits one 80-column screen: a three-line header, the
// table, and a few lines under it, whatever the names and reasons. Every
// verdict keeps its first reason: on its row, or on the line under it
// when the row has no room (80 columns); 100 have room for all.
func TestCompactFitsAScreen(t *testing.T) {
	r := fixtureResult()
	for _, tt := range []struct{ width, continued int }{{80, 3}, {100, 0}} {
		var b bytes.Buffer
		if err := WriteWith(&b, r, "text", Options{Width: tt.width}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > tt.width {
				t.Errorf("width %d: line of %d runes: %q", tt.width, n, l)
			}
		}
		if len(lines) > 15+len(r.Experiments)+tt.continued {
			t.Errorf("width %d: %d lines for %d experiments:\n%s", tt.width, len(lines), len(r.Experiments), b.String())
		}
		for _, e := range r.Experiments {
			i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, e.Name+" ") })
			if i < 0 {
				t.Fatalf("width %d: no row for %s:\n%s", tt.width, e.Name, b.String())
			}
			row := lines[i]
			if !strings.Contains(row, e.Verdict) {
				t.Errorf("width %d: the row of %s has not its whole verdict %q: %q", tt.width, e.Name, e.Verdict, row)
			}
			if len(e.Reasons) == 0 {
				continue
			}
			if strings.HasSuffix(row, e.Verdict+":") {
				row = lines[i+1]
				if strings.TrimSpace(row) != e.Reasons[0] && !strings.HasPrefix(strings.TrimSpace(row), e.Reasons[0]+" +") {
					t.Errorf("width %d: the line under %s is %q, want its reason %s alone", tt.width, e.Name, row, e.Reasons[0])
				}
			}
			if !strings.HasSuffix(strings.TrimSpace(row), e.Reasons[0]) && !strings.Contains(row, e.Reasons[0]+" +") {
				t.Errorf("width %d: %s's reason %s is not shown at the end of %q", tt.width, e.Name, e.Reasons[0], row)
			}
		}
	}
}

// The one-screen CPU line keeps the reason that decided the choice within
// 80 columns: the busy before goes first when both do not fit, since the
// reasons say the CPU's busy too.
func TestCompactCPULineKeepsTheReason(t *testing.T) {
	r := fixtureResult()
	r.CPU = 1
	r.Before = &machine.Snapshot{Busy: machine.Known([]machine.CPUBusy{{CPU: 1, Busy: machine.Known(0.0), Ticks: 100}})}
	for _, c := range []struct{ choice, want string }{
		{"fastest of 16 by the reference loop (0.27 vs 0.45 ns), no SMT sibling, itself 0% busy",
			"cpu1 at 2.95 GHz: fastest of 16 by the reference loop (0.27 vs 0.45 ns), …"},
		{"not cpu0 (it takes more interrupts), no SMT sibling, itself 0% busy",
			"cpu1 at 2.95 GHz, 0% busy before: not cpu0 (it takes more interrupts), …"},
	} {
		r.CPUChoice = c.choice
		var b bytes.Buffer
		if err := WriteWith(&b, r, "text", Options{Width: 80}); err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(b.String(), "\n"); lines[1] != c.want {
			t.Errorf("CPU line %q\nwant     %q", lines[1], c.want)
		}
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	err := Write(&bytes.Buffer{}, fixtureResult(), "xml")
	if err == nil || !strings.Contains(err.Error(), `"xml"`) || !strings.Contains(err.Error(), "text, json, csv, gobench") {
		t.Errorf("err = %v", err)
	}
}

func TestTextInterruptedAndSnapshot(t *testing.T) {
	r := fixtureResult()
	r.Interrupted = true
	r.Before = &machine.Snapshot{}
	var b bytes.Buffer
	if err := WriteWith(&b, r, "text", Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "INTERRUPTED:") {
		t.Errorf("interrupted run does not say so first:\n%s", out)
	}
	if strings.Contains(out, "the result holds no snapshot") {
		t.Errorf("snapshot present but reported missing")
	}
	// An interrupted run still measured allocations (on one op): a 0 is a 0.
	if !regexp.MustCompile(`\nsum/sink .* 11 +32000 +0 `).MatchString(out) {
		t.Errorf("sum/sink measured 0 allocs/op lost in an interrupted run:\n%s", out)
	}
	if !regexp.MustCompile(`\nsort/ints-8000 .* 11 +25 +1 `).MatchString(out) {
		t.Errorf("sort/ints-8000 measured allocs/op lost:\n%s", out)
	}
}

// benchstat's reader must take every line: no syntax errors, one result
// per sample with iterations, the config and units carried; benchy's
// counters only when asked for.
func TestGobenchParses(t *testing.T) {
	for _, counters := range []bool{false, true} {
		r := fixtureResult()
		var b bytes.Buffer
		if err := WriteWith(&b, r, "gobench", Options{GobenchCounters: counters}); err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, e := range r.Experiments {
			want += e.Stats.N
		}
		rd := benchfmt.NewReader(&b, "fixture.gobench")
		n := 0
		for rd.Scan() {
			switch rec := rd.Result().(type) {
			case *benchfmt.SyntaxError:
				t.Errorf("syntax error: %v", rec)
			case *benchfmt.Result:
				n++
				if rec.GetConfig("goos") != "linux" || rec.GetConfig("pkg") == "" || rec.GetConfig("cpu") == "" {
					t.Errorf("config not carried: %v", rec.Config)
				}
				if _, ok := rec.Value("sec/op"); !ok {
					t.Errorf("%s: no time value: %v", rec.Name, rec.Values)
				}
				if _, ok := rec.Value("allocs/op"); !ok {
					t.Errorf("%s: no allocs/op", rec.Name)
				}
				if strings.HasPrefix(rec.Name.String(), "Sum/sink") {
					if _, ok := rec.Value("cycles/op"); ok != counters {
						t.Errorf("counters %v, cycles/op written %v: %v", counters, ok, rec.Values)
					}
				}
			}
		}
		if err := rd.Err(); err != nil {
			t.Fatal(err)
		}
		if n != want {
			t.Errorf("%d results, want %d", n, want)
		}
	}
}

func TestGobenchName(t *testing.T) {
	for _, tt := range []struct {
		in    string
		procs int
		want  string
	}{
		{"sum/sink", 1, "Sum/sink"}, // testing adds no -1
		{"sum/sink", 4, "Sum/sink-4"},
		{"empty", 2, "Empty-2"},
		{"a b", 0, "A_b"},
		{"", 2, "Unnamed-2"},
	} {
		if got := gobenchName(tt.in, tt.procs); got != tt.want {
			t.Errorf("gobenchName(%q, %d) = %q, want %q", tt.in, tt.procs, got, tt.want)
		}
	}
}

func TestFmtNs(t *testing.T) {
	for _, tt := range []struct {
		ns   float64
		want string
	}{
		{0, "0 ns"}, {0.452, "0.452 ns"}, {0.00005, "50 fs"}, {3.14159, "3.14 ns"}, {314.3, "314 ns"},
		{999.7, "1 µs"}, {1234, "1.23 µs"}, {410000, "410 µs"}, {12345678, "12.3 ms"}, {2.5e9, "2.5 s"},
	} {
		if got := units.Duration(tt.ns); got != tt.want {
			t.Errorf("units.Duration(%v) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}

// Failed experiments write no line, and B/op and allocs/op only appear
// where the allocations were measured.
func TestGobenchUnknown(t *testing.T) {
	samples := func() []result.Sample { return spread(5, 1000, 10, 0, 1, -1) }
	r := &result.Result{Experiments: []result.Experiment{
		{Name: "failed", Error: "pin did not hold", Samples: samples(), GC: result.GCStats{AllocsPerOp: 2, BytesPerOp: 16}},
		{Name: "zero", Samples: samples()},
		{Name: "allocates", Samples: samples(), GC: result.GCStats{AllocsPerOp: 2, BytesPerOp: 16}},
		{Name: "nothing"},
	}}
	lines := func() map[string]string {
		var b bytes.Buffer
		if err := Write(&b, r, "gobench"); err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, l := range strings.Split(b.String(), "\n") {
			if name, rest, ok := strings.Cut(l, " "); ok && strings.HasPrefix(name, "Benchmark") {
				got[name] = rest // the last line of each
			}
		}
		return got
	}
	got := lines()
	if _, ok := got["BenchmarkFailed"]; ok {
		t.Errorf("a failed experiment was written: %q", got["BenchmarkFailed"])
	}
	if _, ok := got["BenchmarkNothing"]; ok {
		t.Errorf("an experiment without samples was written")
	}
	if l := got["BenchmarkZero"]; !strings.Contains(l, " 0 B/op 0 allocs/op") {
		t.Errorf("measured zero allocations left out: %q", l)
	}
	// An interrupted run measured allocations too (on one op): zeros stay.
	r.Interrupted = true
	got = lines()
	if l := got["BenchmarkZero"]; !strings.Contains(l, " 0 B/op 0 allocs/op") {
		t.Errorf("interrupted run: measured zero allocations left out: %q", l)
	}
	if l := got["BenchmarkAllocates"]; !strings.Contains(l, " 16 B/op 2 allocs/op") {
		t.Errorf("interrupted run: measured allocations left out: %q", l)
	}
}

// Two runs of one program meet in one benchstat table: benchstat's
// default table projection is ".config", so no configuration key may
// differ between runs (a start time, the chosen CPU, a measured clock).
func TestGobenchRunsShareOneTable(t *testing.T) {
	a, b := fixtureResult(), fixtureResult()
	b.Start = b.Start.Add(time.Hour)
	b.CPU, b.CPUChoice = 0, "--cpu 0"
	b.EffectiveClock.BeforeHz *= 0.9
	b.MaxFreqHz = 4.2e9
	b.Interrupted = true
	var pp benchproc.ProjectionParser
	table, err := pp.Parse(".config", nil)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for i, r := range []*result.Result{a, b} {
		var buf bytes.Buffer
		if err := Write(&buf, r, "gobench"); err != nil {
			t.Fatal(err)
		}
		rd := benchfmt.NewReader(&buf, fmt.Sprintf("run%d.txt", i))
		for rd.Scan() {
			if res, ok := rd.Result().(*benchfmt.Result); ok {
				keys[table.Project(res).String()] = true
			}
		}
	}
	if len(keys) != 1 {
		t.Errorf("the two runs project to %d benchstat tables, want 1: %v", len(keys), keys)
	}
}

// The † footnote says which way the on-CPU median lies from the wall
// time, as measured.
func TestOnCPUFootnoteDirection(t *testing.T) {
	for _, tt := range []struct {
		onCPU float64 // on-CPU time as a share of the wall time
		want  string
	}{{1.3, "above the wall time"}, {0.7, "below the wall time"}} {
		samples := spread(11, 1000, 100, 0, 1, -1, 2, 0, -2, 1, 0, 1, -1, 0)
		for i := range samples {
			samples[i].Counters = map[string]int64{result.CounterTaskClock: int64(float64(samples[i].Ns) * tt.onCPU)}
		}
		r := &result.Result{Schema: result.SchemaVersion, Tool: "benchy test", CPU: 1,
			Experiments: []result.Experiment{{Name: "x", Units: 1, Unit: "op", Iters: 1000, Samples: samples}}}
		analyze.Analyze(r)
		var b strings.Builder
		if err := Write(&b, r, "text"); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "†") || !strings.Contains(b.String(), tt.want) {
			t.Errorf("on-CPU at %.0f%% of the wall time: want † and %q in\n%s", tt.onCPU*100, tt.want, b.String())
		}
	}
}

// Below the wall time, the † footnote names the collector only when the
// samples ran collections: then the lower on-CPU number leaves out what
// the program pays.
func TestOnCPUFootnoteCollector(t *testing.T) {
	for _, gc := range []int64{0, 3} {
		samples := spread(11, 1000, 100, 0, 1, -1, 2, 0, -2, 1, 0, 1, -1, 0)
		for i := range samples {
			samples[i].Counters = map[string]int64{result.CounterTaskClock: samples[i].Ns * 7 / 10}
			if gc > 0 {
				samples[i].Counters[result.CounterGCCycles] = gc
			}
		}
		out := analyzedText(t, samples)
		if got := strings.Contains(out, "waiting for the collector"); got != (gc > 0) {
			t.Errorf("%d collections a sample: footnote names the collector %v, want %v in\n%s", gc, got, gc > 0, out)
		}
	}
}

// analyzedText is the one-screen text of a run of one experiment, x, with
// the collector on, after analysis.
func analyzedText(t *testing.T, samples []result.Sample) string {
	t.Helper()
	r := &result.Result{Schema: result.SchemaVersion, Tool: "benchy test", CPU: 1, Settings: result.Settings{GC: true},
		Experiments: []result.Experiment{{Name: "x", Units: 1, Unit: "op", Iters: 1000, Samples: samples}}}
	analyze.Analyze(r)
	var b strings.Builder
	if err := Write(&b, r, "text"); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Samples that collected but that other tasks took the CPU from (a run
// delay of 30%: two CPU hogs) do not have their off-CPU time put on the
// collector: the disturbed verdict says why.
func TestOnCPUFootnoteNotTheCollectorWhenDisturbed(t *testing.T) {
	samples := spread(11, 1000, 10_000, 0, 1, -1, 2, 0, -2, 1, 0, 1, -1, 0)
	for i := range samples {
		samples[i].Counters = map[string]int64{result.CounterTaskClock: samples[i].Ns * 7 / 10,
			result.CounterRunDelay: samples[i].Ns * 3 / 10, result.CounterGCCycles: 3}
	}
	out := analyzedText(t, samples)
	if !strings.Contains(out, "disturbed") || !strings.Contains(out, "† on-CPU median") {
		t.Fatalf("want a disturbed experiment with an on-CPU footnote:\n%s", out)
	}
	if strings.Contains(out, "waiting for the collector") {
		t.Errorf("the footnote puts the time other tasks took on the collector:\n%s", out)
	}
}

// A name with backticks reads as written in a markdown code span.
func TestMarkdownCode(t *testing.T) {
	for in, want := range map[string]string{
		"sum/sink": "`sum/sink`", "a`b": "``a`b``", "`x`": "`` `x` ``", "a|b": "`a\\|b`", "a``b": "```a``b```",
	} {
		if got := MarkdownCode(in); got != want {
			t.Errorf("MarkdownCode(%q) = %q, want %q", in, got, want)
		}
	}
}

// A verdict cell too wide loses the count of more reasons first, then
// moves its reason to a line of its own; the verdict is never cut.
func TestSplitVerdict(t *testing.T) {
	for _, tt := range []struct {
		cell        string
		n           int
		first, more string
	}{
		{"doubtful: unstable +2", 30, "doubtful: unstable +2", ""},
		{"doubtful: unstable +2", 19, "doubtful: unstable", ""},
		{"doubtful: no-load-in-loop", 19, "doubtful:", "no-load-in-loop"},
		{"not believable: disturbed +3", 20, "not believable:", "disturbed +3"},
		{"not believable: no-steady-state +3", 16, "not believable:", "no-steady-state"},
		{"not believable", 12, "not believable", ""},
	} {
		if first, more := splitVerdict(tt.cell, tt.n); first != tt.first || more != tt.more {
			t.Errorf("splitVerdict(%q, %d) = %q, %q, want %q, %q", tt.cell, tt.n, first, more, tt.first, tt.more)
		}
	}
}

// The interleaved run of gotest --against holds each benchmark once a
// side, under one name: every format shows which side a row is, so the
// two rows of a benchmark are never read as one.
func TestWriteShowsTheSide(t *testing.T) {
	r := fixtureResult()
	e := r.Experiments[0]
	old, cur := e, e
	old.Side, cur.Side = result.SideOld, result.SideNew
	r.Experiments = []result.Experiment{old, cur}
	for _, format := range []string{"text", "csv", "markdown", "html"} {
		var b bytes.Buffer
		if err := Write(&b, r, format); err != nil {
			t.Fatal(err)
		}
		for _, label := range []string{"old " + e.Name, "new " + e.Name} {
			if !strings.Contains(b.String(), label) {
				t.Errorf("%s: no %q in\n%s", format, label, b.String())
			}
		}
	}
}

// A table of programs shows each one's peak memory where an allocation
// count would be: a peak no higher than what the starting process held
// is marked ≤ and explained, a peak not read is "-".
func TestCompactTableProcesses(t *testing.T) {
	program := func(name string, counters map[string]int64) result.Experiment {
		samples := spread(11, 1, 1e6, 0, 1, -1, 2, 0, -2, 1, 0, 1, -1, 0)
		for i := range samples {
			// On the CPU 70% of the time: a program waits as part of its work.
			samples[i].Counters = map[string]int64{result.CounterTaskClock: samples[i].Ns * 7 / 10}
			maps.Copy(samples[i].Counters, counters)
		}
		return result.Experiment{Name: name, Kind: result.KindProcess, Units: 1, Unit: "run", Iters: 1, Samples: samples}
	}
	r := &result.Result{Schema: result.SchemaVersion, Tool: "benchy test", CPU: 1, Experiments: []result.Experiment{
		program("big", map[string]int64{counterMaxRSS: 10240, counterRSSFloor: 2048}),
		program("floor", map[string]int64{counterMaxRSS: 2048 + rssFloorSlackKB, counterRSSFloor: 2048}),
		program("unread", nil),
	}}
	analyze.Analyze(r)
	header, rows, notes := compactTable(r)
	if header[allocsColumn] != "max RSS" {
		t.Errorf("header %q, want max RSS in the allocations' column", header)
	}
	want := []string{units.Bytes(10240 * 1024), "≤" + units.Bytes((2048+rssFloorSlackKB)*1024), "-"}
	for i, row := range rows {
		if row[allocsColumn] != want[i] {
			t.Errorf("%s: %q, want %q", row[0], row[allocsColumn], want[i])
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "≤ the program's peak memory is at most this") {
		t.Errorf("footnotes %q, want the one of ≤", notes)
	}
	// A program's time is its work, waiting included: no on-CPU mark.
	for _, row := range rows {
		if strings.Contains(row[2], "†") {
			t.Errorf("%s: median %q of a program marked †", row[0], row[2])
		}
	}
}
