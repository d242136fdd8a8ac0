package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
)

// fixtureJSON is the golden JSON result of internal/report: one experiment
// of every verdict, written by Write and checked by eye.
var fixtureJSON = filepath.Join("..", "..", "testdata", "report", "fixture.json")

// The report of a result file reproduces what the run wrote: text and
// JSON recomputed from the raw data are byte for byte the golden outputs.
func TestReportReproducesGolden(t *testing.T) {
	for _, format := range []string{"text", "json", "csv", "gobench"} {
		t.Run(format, func(t *testing.T) {
			var out, stderr bytes.Buffer
			if err := reportRun(&reportOptions{File: fixtureJSON, OutputOptions: OutputOptions{Format: format}}, &out, &stderr); err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join("..", "..", "testdata", "report", "fixture."+format))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("report --format %s differs from testdata/report/fixture.%s:\n%s", format, format, out.String())
			}
		})
	}
}

// --gobench-counters adds benchy's counters to the gobench lines, which
// hold go test's units alone without it; --out FILE.gobench chooses the
// format it needs.
func TestReportGobenchCounters(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.gobench")
	for _, tt := range []struct {
		args     []string
		counters bool
	}{
		{[]string{"report", "--format", "gobench", fixtureJSON}, false},
		{[]string{"report", "--format", "gobench", "--gobench-counters", fixtureJSON}, true},
		{[]string{"report", "--gobench-counters", "--out", out, fixtureJSON}, true},
	} {
		var stdout, stderr bytes.Buffer
		if code := testMain(tt.args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, stderr.String())
		}
		got := stdout.String()
		if stdout.Len() == 0 {
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			got = string(b)
		}
		if !strings.Contains(got, "BenchmarkSum/sink-2 32000 314 ns/op 0 B/op 0 allocs/op") {
			t.Errorf("%v: no gobench line of sum/sink:\n%s", tt.args, got)
		}
		if c := strings.Contains(got, " cycles/op"); c != tt.counters {
			t.Errorf("%v: counters written %v, want %v", tt.args, c, tt.counters)
		}
	}
}

// writeSubset writes the fixture with only the named experiments.
func writeSubset(t *testing.T, names ...string) string {
	t.Helper()
	r, err := result.Load(fixtureJSON)
	if err != nil {
		t.Fatal(err)
	}
	var keep []result.Experiment
	for _, e := range r.Experiments {
		for _, n := range names {
			if e.Name == n {
				keep = append(keep, e)
			}
		}
	}
	r.Experiments = keep
	path := filepath.Join(t.TempDir(), "subset.json")
	var b bytes.Buffer
	if err := render.Write(&b, r, "json"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReportStrict(t *testing.T) {
	believable := writeSubset(t, "sum/sink")
	doubtful := writeSubset(t, "sum/sink", "sort/ints-8000")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"no strict", []string{"report", fixtureJSON}, ExitOK, ""},
		{"strict, not believable", []string{"report", "--strict", fixtureJSON}, ExitStrict,
			"benchy: --strict=error: 3 experiments not believable: fold/constant, sum/unused, concat/quadratic\n"},
		{"strict, believable", []string{"report", "--strict", believable}, ExitOK, ""},
		{"strict=warn, believable", []string{"report", "--strict=warn", believable}, ExitOK, ""},
		{"strict, doubtful", []string{"report", "--strict", doubtful}, ExitOK, ""},
		{"strict=warn, doubtful", []string{"report", "--strict=warn", doubtful}, ExitStrict,
			"benchy: --strict=warn: 1 experiment doubtful or not believable: sort/ints-8000\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := testMain(tt.args, &stdout, &stderr)
			if code != tt.code || stderr.String() != tt.msg {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr.String(), tt.code, tt.msg)
			}
			if !strings.Contains(stdout.String(), "summary: ") {
				t.Errorf("no report on stdout:\n%s", stdout.String())
			}
		})
	}
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notJSON := write("bench.txt", "BenchmarkX 1 2 ns/op\n")
	other := write("other.json", `{"results": []}`)
	newer := write("newer.json", `{"schema": 7, "tool": "benchy 3.0.0", "experiments": []}`)
	truncated := write("cut.json", `{"schema": 1, "tool": "benchy 0.1.0", "experiments": [`)
	bare := write("bare.json", `{"schema":1,"tool":"benchy x"}`)
	negative := write("negative.json", `{"schema": 1, "tool": "benchy 0.1.0", "cpu": 1, "settings": {}, "experiments": [`+
		`{"name": "sum/sink", "samples": [{"iters": 1000, "ns": 314000}, {"iters": 1000, "ns": -2040}]}]}`)
	negIters := write("negiters.json", `{"schema": 1, "tool": "benchy 0.1.0", "cpu": 1, "settings": {}, "experiments": [`+
		`{"name": "sum/sink", "samples": [{"iters": -1, "ns": 314000}]}]}`)
	missing := filepath.Join(dir, "missing.json")
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"no file", []string{"report"}, "report takes one FILE"},
		{"two files", []string{"report", fixtureJSON, fixtureJSON}, "report takes one FILE"},
		{"missing", []string{"report", missing}, missing + ": no such file or directory"},
		{"directory", []string{"report", dir}, dir + ": "},
		{"not json", []string{"report", notJSON}, notJSON + ": not JSON: invalid character"},
		{"not benchy", []string{"report", other}, other + `: not a benchy result: no "schema" number`},
		{"newer", []string{"report", newer}, "schema 7 is newer than this benchy reads (1)"},
		{"truncated", []string{"report", truncated}, truncated + ": truncated"},
		{"schema and tool only", []string{"report", bare}, bare + `: not a valid benchy result: no "experiments" field`},
		{"negative ns", []string{"report", negative}, negative + `: not a valid benchy result: experiment "sum/sink" (experiments[0]), samples[1]: ns is -2040, below 0`},
		{"negative iters", []string{"report", negIters}, `experiment "sum/sink" (experiments[0]), samples[0]: iters is -1, below 0`},
		{"format", []string{"report", "--format", "xml", fixtureJSON}, `--format "xml": valid formats are text, json, csv, gobench`},
		{"strict level", []string{"report", "--strict=info", fixtureJSON}, "--strict info: valid values are error (the default) and warn"},
		{"counters without gobench", []string{"report", "--gobench-counters", fixtureJSON}, "--gobench-counters needs --format gobench (or --out FILE.gobench); this writes text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := testMain(tt.args, &stdout, &stderr)
			msg := stderr.String()
			if code != ExitUsage || !strings.Contains(msg, tt.msg) || strings.Count(msg, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want %d and one line with %q", code, msg, ExitUsage, tt.msg)
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout not empty: %q", stdout.String())
			}
		})
	}
}

// The near miss of the bad inputs: zero iterations and time, and no
// experiments at all, are what a run can write.
func TestReportZeros(t *testing.T) {
	path := filepath.Join(t.TempDir(), "zeros.json")
	content := `{"schema": 1, "tool": "benchy 0.1.0", "cpu": 1, "settings": {}, "experiments": [` +
		`{"name": "sum/sink", "units": 1, "unit": "call", "floor_cycles": 1, "samples": [{"iters": 0, "ns": 0, "cpu": 1}, {"iters": 1000, "ns": 0, "cpu": 1}]}]}`
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := testMain([]string{"report", path, "-v"}, &stdout, &stderr); code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "sum/sink: not believable (impossible)") || !strings.Contains(out, "warn  few-samples: only 1 sample") {
		t.Errorf("report:\n%s", stdout.String())
	}
}

func TestStrictError(t *testing.T) {
	r := &result.Result{Experiments: []result.Experiment{{Name: "a", Verdict: result.VerdictDoubtful}}}
	if err := strictError(r, ""); err != nil {
		t.Errorf("no --strict: %v", err)
	}
	if err := strictError(r, "error"); err != nil {
		t.Errorf("--strict with a doubtful result: %v", err)
	}
	err := strictError(r, "warn")
	if code := ExitCode(err); code != ExitStrict {
		t.Errorf("--strict=warn: exit %d (%v)", code, err)
	}
}

// -v before the command writes what -v after it does: the full report,
// longer than the one screen.
func TestReportVerboseBeforeTheCommand(t *testing.T) {
	text := func(args ...string) string {
		var stdout, stderr bytes.Buffer
		if code := testMain(args, &stdout, &stderr); code != ExitOK {
			t.Fatalf("benchy %q: exit %d, %s", args, code, stderr.String())
		}
		return stdout.String()
	}
	before, after, screen := text("-v", "report", fixtureJSON), text("report", fixtureJSON, "-v"), text("report", fixtureJSON)
	if before != after || len(before) <= len(screen) {
		t.Errorf("-v before the command: %d bytes, after: %d, without: %d", len(before), len(after), len(screen))
	}
}
