package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/report"
)

// execJSON runs benchy exec with args and --format json, and decodes the
// result.
func execJSON(t *testing.T, args ...string) (*report.Result, string, int) {
	t.Helper()
	out, stderr, code := runBinary(t, append([]string{"exec", "--window", "10ms", "--format", "json"}, args...)...)
	if code != ExitOK && code != ExitFailed {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := report.Decode(strings.NewReader(out))
	if err != nil {
		t.Fatalf("result: %v\n%s", err, stderr)
	}
	return r, stderr, code
}

// Every run of a command is pinned: it was allowed only the measured CPU
// and ended on it; each run of sleep 0.02 is timed at 20 ms or more, and
// the runs together at no more than the whole of benchy's run (how much
// more than 20 ms is the machine's: a busy one starts processes late).
func TestExecPinsEveryRun(t *testing.T) {
	r, stderr, code := execJSON(t, "--runs", "5", "sleep 0.02")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	e := r.Experiments[0]
	if e.Kind != report.KindProcess || len(e.Samples) != 5 {
		t.Fatalf("experiment %q kind %q with %d samples, want a process with 5", e.Name, e.Kind, len(e.Samples))
	}
	var total time.Duration
	for i, s := range e.Samples {
		if s.CPU != r.CPU || s.AllowedCPUs != strconv.Itoa(r.CPU) {
			t.Errorf("run %d on cpu %d allowed %q, pinned to %d", i, s.CPU, s.AllowedCPUs, r.CPU)
		}
		if d := time.Duration(s.Ns); d < 20*time.Millisecond {
			t.Errorf("run %d of sleep 0.02 timed at %v", i, d)
		}
		total += time.Duration(s.Ns)
	}
	t.Logf("median %v", time.Duration(e.Stats.Median))
	if whole := r.End.Sub(r.Start); total > whole {
		t.Errorf("the runs took %v in all, more than the %v benchy ran", total, whole)
	}
	if r.SpawnNs <= 0 {
		t.Errorf("the cost of starting a process was not measured")
	}
}

// An A/B of one program doing 1x and 3x the work finds the slower one,
// interleaved; an A/A finds no difference (or, on a busy machine, says it
// cannot tell): never a claim from identical commands.
func TestExecComparesCommands(t *testing.T) {
	loop := func(n int) string {
		return "sh -c 'i=0; while [ $i -lt " + strconv.Itoa(n) + " ]; do i=$((i+1)); done'"
	}
	r, _, _ := execJSON(t, "--runs", "10", loop(5000), loop(15000))
	if len(r.Comparison) != 1 {
		t.Fatalf("comparison %+v", r.Comparison)
	}
	if p := r.Comparison[0]; p.Verdict != "slower" && p.Verdict != "inconclusive" {
		t.Errorf("3x the work: %s", p.Sentence)
	}
	r, _, _ = execJSON(t, "--runs", "10", loop(5000), loop(5000))
	if p := r.Comparison[0]; p.Verdict == "faster" || p.Verdict == "slower" {
		t.Errorf("the same command twice: %s", p.Sentence)
	}
}

// The peak memory of a run is the child's own: a program that touches 200
// MiB reads about 200 MiB.
func TestExecPeakMemory(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "alloc.go")
	os.WriteFile(src, []byte(`package main

import "os"

func main() {
	b := make([]byte, 200<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	os.Stdout.Write(b[:0])
}
`), 0o644)
	bin := filepath.Join(dir, "alloc")
	if out, err := exec.Command("go", "build", "-o", bin, src).CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	r, _, _ := execJSON(t, "--runs", "3", bin)
	for _, s := range r.Experiments[0].Samples {
		if kb := s.Counters["max-rss-kb"]; kb < 190<<10 || kb > 240<<10 {
			t.Errorf("max-rss-kb %d, want about 200 MiB", kb)
		}
	}
}

// A command that fails stops benchy (exit 1, saying which run and how),
// unless --ignore-failure keeps its runs with their status.
func TestExecFailure(t *testing.T) {
	_, stderr, code := runBinary(t, "exec", "--window", "10ms", "--runs", "3", `sh -c "echo boom >&2; exit 3"`)
	if code != ExitFailed || !strings.Contains(stderr, "run 1 of") || !strings.Contains(stderr, "exited with status 3") || !strings.Contains(stderr, "boom") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	r, _, code := execJSON(t, "--runs", "3", "-i", `sh -c "exit 3"`)
	if code != ExitOK || len(r.Experiments[0].Samples) != 3 || r.Experiments[0].Samples[0].Status != "exit 3" {
		t.Errorf("--ignore-failure: exit %d, samples %+v", code, r.Experiments[0].Samples)
	}
}

// Bad input: one line, exit 2, nothing run.
func TestExecBadInput(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no command", nil, "exec takes the commands to time"},
		{"empty command", []string{""}, "empty"},
		{"unbalanced quotes", []string{`echo 'a`}, "unterminated single quote"},
		{"not found", []string{"no-such-program-here x"}, "not found"},
		{"not executable", []string{"/etc/passwd"}, "not executable"},
		{"unknown parameter", []string{"echo {n}"}, "unknown parameter {n}: no parameter is defined"},
		{"bad range", []string{"-P", "n", "5", "1", "echo {n}"}, "low 5 is above high 1"},
		{"bad step", []string{"-P", "n", "1", "5", "-D", "0", "echo {n}"}, "step 0 is not positive"},
		{"zero runs", []string{"--runs", "0", "true"}, "--runs 0"},
		{"a hook that is not found runs nothing", []string{"--prepare", "touch " + marker, "no-such-program-here"}, "not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runBinary(t, append([]string{"exec", "--window", "10ms"}, tt.args...)...)
			if code != ExitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) || stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want 2 and one line with %q", code, stderr, stdout, tt.want)
			}
		})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a hook ran although the command was refused")
	}
}
