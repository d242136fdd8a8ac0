package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	os.WriteFile(notDir, nil, 0o644)
	tests := []struct {
		name string
		args []string
		want string // part of the one-line message
	}{
		{"regexp does not compile", []string{"--bench", "("}, "not a Go regular expression"},
		{"regexp matches nothing", []string{"--bench", "^nothing$"}, "matches no experiment"},
		{"zero samples", []string{"--samples", "0"}, "between 1 and 100000"},
		{"zero gomaxprocs", []string{"--gomaxprocs", "0"}, "--gomaxprocs 0: must be between 1 and 1024"},
		{"too many samples", []string{"--samples", "100001"}, "between 1 and 100000"},
		{"negative warmup", []string{"--warmup", "-1s"}, "positive duration"},
		{"zero sample time", []string{"--sample-time", "0"}, "positive duration"},
		{"window too long", []string{"--window", "61s"}, "at most"},
		{"not a duration", []string{"--warmup", "fast"}, "invalid argument"},
		{"negative iters", []string{"--iters", "-5"}, "--iters"},
		{"bad format", []string{"--format", "xml"}, "text, json, csv, gobench"},
		{"bad strict", []string{"--strict=sometimes"}, "error (the default) and warn"},
		{"unwritable out", []string{"--out", filepath.Join(dir, "no", "such", "dir", "r.json")}, "cannot write there"},
		{"out is a directory", []string{"--out", dir}, "is a directory"},
		{"cpu out of range", []string{"--cpu", "4096"}, "is not available"},
		{"stray argument", []string{"sum"}, "takes no arguments"},
		{"threshold without compare", []string{"--threshold", "5%"}, "--threshold applies to --compare"},
		{"compare and bench", []string{"--compare", "sum/sink,sum/keep", "--bench", "sum"}, "use one"},
		{"compare one experiment", []string{"--compare", "sum/sink"}, "at least two"},
		{"compare unknown experiment", []string{"--compare", "sum/sink,sum/nothing"}, "benchy list"},
		{"bad threshold", []string{"--compare", "sum/sink,sum/keep", "--threshold", "lots"}, "not a percentage"},
		{"unknown flag", []string{"--fast"}, "unknown flag"},
		{"profile into a file", []string{"--profile", notDir}, "not a directory"},
		{"profile of processes", []string{"--profile", dir, "--processes", "2"}, "profiles are of one process"},
		{"latency without a call", []string{"--latency", "--bench", "^sum/"}, "these do: tail/steady, tail/rare-slow"},
		{"percentile without a comparison", []string{"--latency", "--percentile", "p90"}, "add --latency and --compare"},
		{"percentile out of range", []string{"--latency", "--compare", "tail/steady,tail/rare-slow", "--percentile", "p99.99"}, "give p50 to p99.9"},
		{"rate without latency", []string{"--rate", "1000/s"}, "add --latency"},
		{"rate without a unit", []string{"--latency", "--rate", "1000"}, "as in --rate 1000/s"},
		{"rate of none", []string{"--latency", "--rate", "0/s"}, "above 0/s and at most 10000000/s"},
		{"rate too high", []string{"--latency", "--rate", "2e7/s"}, "above 0/s and at most 10000000/s"},
		{"zero processes", []string{"--processes", "0"}, "--processes 0"},
		// The "--" that run --processes passes on to each process is no
		// way to give run an argument.
		{"an argument after --", []string{"--processes", "2", "--", "x"}, `got "x"`},
	}
	// Refused before anything is measured, so in process: a run that
	// measured would pin the test binary's threads (and fail the test).
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "result.json")
			args := []string{"run", "--window", "10ms"}
			if !strings.Contains(strings.Join(tt.args, " "), "--out") {
				args = append(args, "--out", out)
			}
			stdout, stderr, code := runMain(append(args, tt.args...)...)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d; stderr %q", code, ExitUsage, stderr)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "benchy: ") || !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q: want one line starting with benchy: and holding %q", stderr, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing measured", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a result file was written")
			}
		})
	}
}

// TestRunPinnedJSON is the end-to-end run of the issue: pinned to cpu 0,
// one experiment, 5 short samples, JSON.
func TestRunPinnedJSON(t *testing.T) {
	stdout, stderr, code := runBinary(t, "run", "--cpu", "0", "--bench", "sum/sink", "--samples", "5",
		"--sample-time", "1ms", "--window", "50ms", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := result.Decode(strings.NewReader(stdout))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if r.CPU != 0 || r.Schema != result.SchemaVersion || r.Before == nil || r.After == nil {
		t.Errorf("cpu %d, schema %d, machine before/after %v/%v", r.CPU, r.Schema, r.Before != nil, r.After != nil)
	}
	if len(r.Experiments) != 1 || r.Experiments[0].Name != "sum/sink" {
		t.Fatalf("experiments: %+v", r.Experiments)
	}
	e := r.Experiments[0]
	if len(e.Samples) != 5 || e.Stats.N != 5 {
		t.Errorf("%d samples, stats n %d; want 5", len(e.Samples), e.Stats.N)
	}
	for i, s := range e.Samples {
		if s.CPU != 0 {
			t.Errorf("sample %d ran on cpu %d, pinned to 0", i, s.CPU)
		}
		if s.Iters != e.Iters || s.Ns <= 0 {
			t.Errorf("sample %d = %+v", i, s)
		}
	}
	if e.Stats.Min > e.Stats.Median || e.Stats.Median > e.Stats.P90 || e.Stats.P90 > e.Stats.Max || e.Stats.Min <= 0 {
		t.Errorf("stats out of order: %+v", e.Stats)
	}
	if r.Clock.GranularityNs <= 0 || r.GOMAXPROCS <= 0 || e.Verdict == "" {
		t.Errorf("clock %+v, gomaxprocs %d", r.Clock, r.GOMAXPROCS)
	}
	// The raw JSON carries the documented field names.
	var raw map[string]any
	if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema", "tool", "command", "start", "end", "cpu", "settings", "clock", "machine_before", "machine_after", "experiments"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("json lacks %q", k)
		}
	}
}

func TestRunOutAndSamplesFile(t *testing.T) {
	dir := t.TempDir()
	out, samples := filepath.Join(dir, "r.json"), filepath.Join(dir, "s.csv")
	_, stderr, code := runBinary(t, "run", "--bench", "^empty$", "--samples", "3", "--sample-time", "1ms", "--warmup", "1ms",
		"--window", "10ms", "--no-asm", "--format", "json", "--out", out, "--samples-file", samples)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Experiments) != 1 || len(r.Experiments[0].Samples) != 3 {
		t.Errorf("result: %+v", r.Experiments)
	}
	csv, err := os.ReadFile(samples)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(string(csv)), "\n"); len(lines) != 4 || !strings.HasPrefix(lines[0], "experiment,") {
		t.Errorf("samples csv: %q", csv)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestUnknownCommandIsUsage(t *testing.T) {
	for _, args := range [][]string{{"frob"}, {"list", "extra"}} {
		var stdout, stderr strings.Builder
		if code := testMain(args, &stdout, &stderr); code != ExitUsage || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args, code, stderr.String())
		}
	}
}
