package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/procgroup"
	"github.com/benchy-dev/benchy/internal/result"
)

// execJSON runs benchy exec with args and --format json, and decodes the
// result.
func execJSON(t *testing.T, args ...string) (*result.Result, string, int) {
	t.Helper()
	out, stderr, code := runBinary(t, append([]string{"exec", "--window", "10ms", "--format", "json"}, args...)...)
	if code != ExitOK && code != ExitFailed {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := result.Decode(strings.NewReader(out))
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
	if e.Kind != result.KindProcess || len(e.Samples) != 5 {
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
	t.Parallel()
	loop := func(n int) string {
		return "sh -c 'i=0; while [ $i -lt " + strconv.Itoa(n) + " ]; do i=$((i+1)); done'"
	}
	r, _, _ := execJSON(t, "--runs", "10", loop(5000), loop(15000))
	if len(r.Comparison) != 1 {
		t.Fatalf("comparison %+v", r.Comparison)
	}
	// On a quiet machine this is "slower"; on a saturated one the runs can
	// spread too far for any claim. What holds on any machine: 3x the work
	// is never claimed faster.
	if p := r.Comparison[0]; p.Verdict == "faster" {
		t.Errorf("3x the work: %s", p.Sentence)
	}
	if r.Settings.RoundSeed == 0 {
		t.Errorf("settings %+v: no round_seed, want the seed the rounds drew their order from", r.Settings)
	}
	r, _, _ = execJSON(t, "--runs", "10", loop(5000), loop(5000))
	if p := r.Comparison[0]; p.Verdict == "faster" || p.Verdict == "slower" {
		t.Errorf("the same command twice: %s", p.Sentence)
	}
}

// The peak memory of a run is the program's own, none of benchy's: true
// reads about 1 MiB (as /usr/bin/time -v says), under the 17 MiB of
// benchy's process that starts it, and without a floor; a program that
// touches 64 MiB (dd reading that much into one buffer) reads at least
// that.
func TestExecPeakMemory(t *testing.T) {
	t.Parallel()
	r, stderr, code := execJSON(t, "--runs", "3", "true", "dd if=/dev/zero of=/dev/null bs=64M count=1")
	if code != ExitOK || len(r.Experiments) != 2 {
		t.Fatalf("exit %d, %d experiments: %s", code, len(r.Experiments), stderr)
	}
	for _, tc := range []struct {
		e        result.Experiment
		min, max int64 // KiB
	}{
		{r.Experiments[0], 1, 4 << 10},
		{r.Experiments[1], 64 << 10, 96 << 10},
	} {
		if runtime.GOARCH != "amd64" && tc.min == 1 {
			t.Logf("%s: benchy has a starter for amd64 only: here the runs inherit its RSS, which rss-floor-kb records", tc.e.Name)
			continue
		}
		for i, s := range tc.e.Samples {
			kb, floor := s.Counters["max-rss-kb"], s.Counters["rss-floor-kb"]
			if kb < tc.min || kb > tc.max || (floor != 0 && runtime.GOARCH == "amd64") {
				t.Errorf("%s run %d: max-rss-kb %d, rss-floor-kb %d; want %d to %d KiB and no floor", tc.e.Name, i, kb, floor, tc.min, tc.max)
			}
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

// -P and -L together run the product of their values, in the order the
// flags are given (the first slowest), whichever comes first, and so do
// several -L; every name carries the values its command line does not
// show. What the flags expand to is read through exec's runF seam; that a
// run's experiments are those, named so and in that order, is the first
// case's, run through the binary.
func TestExecParameterProduct(t *testing.T) {
	for i, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"list then range", []string{"-L", "m", "a,b", "-P", "n", "1", "2"},
			[]string{"echo 1 (m=a, n=1)", "echo 2 (m=a, n=2)", "echo 1 (m=b, n=1)", "echo 2 (m=b, n=2)"}},
		{"range then list", []string{"-P", "n", "1", "2", "-L", "m", "a,b"},
			[]string{"echo 1 (n=1, m=a)", "echo 1 (n=1, m=b)", "echo 2 (n=2, m=a)", "echo 2 (n=2, m=b)"}},
		{"two lists", []string{"-L", "m", "a,b", "--parameter-list", "n", "1,2"},
			[]string{"echo 1 (m=a, n=1)", "echo 2 (m=a, n=2)", "echo 1 (m=b, n=1)", "echo 2 (m=b, n=2)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append(slices.Clone(tt.args), "echo {n}")
			var got *execOptions
			// As Main does: exec's words, -P's and -L's made one each.
			parse(t, newExecCmd(testGlobals(), func(o *execOptions) error { got = o; return nil }), expandExecArgs(args)...)
			expanded, err := got.expand()
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range expanded {
				names = append(names, e.Name)
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("expanded %q, want %q", names, tt.want)
			}
			if i > 0 {
				return
			}
			r, stderr, code := execJSON(t, append([]string{"--runs", "1"}, args...)...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			names = nil
			for _, e := range r.Experiments {
				names = append(names, e.Name)
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("experiments %q, want %q", names, tt.want)
			}
		})
	}
}

// Bad input: one line, exit 2, nothing run. In process: nothing is
// measured.
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
		{"two ranges", []string{"-P", "n", "1", "2", "-P", "m", "1", "2", "echo {n}{m}"}, "-P is given 2 times"},
		{"a step without a range", []string{"-D", "2", "true"}, "-D 2 is the step of -P"},
		{"one name twice", []string{"-L", "n", "1,2", "-P", "n", "1", "2", "echo {n}"}, "parameter n is defined twice"},
		{"zero runs", []string{"--runs", "0", "true"}, "--runs 0"},
		{"a newline separates two commands in a shell", []string{"touch " + marker + "\ntrue"}, "unquoted newline"},
		{"a hook that is not found runs nothing", []string{"--prepare", "touch " + marker, "no-such-program-here"}, "not found"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runMain(append([]string{"exec", "--window", "10ms"}, tt.args...)...)
			if code != ExitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) || stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want 2 and one line with %q", code, stderr, stdout, tt.want)
			}
		})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a hook ran although the command was refused")
	}
}

// A command line, a file name and a program's stderr reach the terminal
// with their control characters written out (as a loaded result shows
// them), never raw: an escape sequence in a name cannot rewrite the
// screen.
func TestExecNamesArePrintable(t *testing.T) {
	esc := "\x1b[31m"
	// Refused before anything runs: in process.
	for _, args := range [][]string{
		{"--input", filepath.Join(t.TempDir(), "no-such"+esc), "true"},
		{"no-such-program" + esc + "x"},
		{"--prepare", "true", "./no-such" + esc},
	} {
		stdout, stderr, code := runMain(append([]string{"exec", "--window", "10ms"}, args...)...)
		if code != ExitUsage || strings.Contains(stdout+stderr, "\x1b") || !strings.Contains(stderr, `\x1b[31m`) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and the name escaped", args, code, stderr)
		}
	}
	failing := `sh -c 'printf "\033[31mboom\n" >&2; exit 3' '` + esc + `RED'`
	stdout, stderr, code := runBinary(t, "exec", "--window", "10ms", "--runs", "1", failing)
	if code != ExitFailed || !strings.Contains(stderr, `\x1b[31mRED`) || !strings.Contains(stderr, `\x1b[31mboom`) {
		t.Errorf("exit %d, stderr %q; want 1, naming the command and its stderr escaped", code, stderr)
	}
	if strings.Contains(stdout+stderr, "\x1b") {
		t.Errorf("a raw escape reached the output:\n%q\n%q", stdout, stderr)
	}
}

// A FIFO as --input is refused at once (every run reads its input from
// the start, which a pipe cannot give), not waited on for a writer.
func TestExecInputFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	cmd := exec.Command(benchyBinary(t), "exec", "--window", "10ms", "--runs", "1", "--input", fifo, "true")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hung := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	defer hung.Stop()
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitUsage || !strings.Contains(stderr.String(), "is a FIFO") ||
		strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("exit %v, stderr %q; want 2 and one line saying it is a FIFO", err, stderr.String())
	}
}

// procAlive reports whether pid is a process that has not exited (a
// zombie has: it only waits for its parent to reap it).
func procAlive(pid int) bool {
	state, _, ok := procgroup.Of(pid)
	return ok && state != 'Z' && state != 'X'
}

// pidsWritten reads the pids a command wrote to path, one a line.
func pidsWritten(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("%s holds %q", path, b)
		}
		pids = append(pids, pid)
	}
	return pids
}

// What runs leave running (here a CPU burner each) is killed as each run
// ends and reported: a left-processes error naming how many, so the
// verdict says it, not only that the samples disagree.
func TestExecKillsLeftovers(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	pids := filepath.Join(t.TempDir(), "pids")
	r, stderr, code := execJSON(t, "--runs", "3", "sh -c 'while :; do :; done & echo $! >> "+pids+"'")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, pid := range pidsWritten(t, pids) {
		if procAlive(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("burner %d left running", pid)
		}
	}
	e := r.Experiments[0]
	var left *finding.Finding
	for i, f := range e.Findings {
		if f.Code == result.CodeLeftProcesses {
			left = &e.Findings[i]
		}
	}
	if left == nil || left.Severity != finding.Error || !strings.Contains(left.Message, "3 runs (1, 2, 3) left 3 processes") {
		t.Fatalf("findings %v: want a left-processes error for 3 processes", e.Findings)
	}
	if e.Verdict != result.VerdictNotBelievable || !slices.Contains(e.Reasons, result.CodeLeftProcesses) {
		t.Errorf("verdict %s %v", e.Verdict, e.Reasons)
	}
}

// A --cleanup that fails is recorded as the experiment's error and exits
// 1 naming the command and the cleanup; the runs are kept.
func TestExecFailingCleanup(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.json")
	_, stderr, code := runBinary(t, "exec", "--window", "10ms", "--runs", "2", "--cleanup", "echo oops >&2; exit 4", "--out", out, "true")
	if code != ExitFailed || !strings.Contains(stderr, "1 experiment failed: true: cleanup (echo oops >&2; exit 4) of true exited with status 4: oops") {
		t.Errorf("exit %d, stderr %q; want 1 naming the cleanup", code, stderr)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if e := r.Experiments[0]; len(e.Samples) != 2 || !strings.Contains(e.Error, "cleanup") {
		t.Errorf("%d samples, error %q; want both runs and the cleanup's failure", len(e.Samples), e.Error)
	}
}

// A --cleanup that hangs (and ignores SIGTERM) is stopped by the first
// SIGTERM: it is killed, nothing of its process group is left, and the
// runs that had all finished are written, marked interrupted, the
// cleanup recorded as not finished.
func TestExecStopDuringCleanup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, cleaning := filepath.Join(dir, "r.json"), filepath.Join(dir, "cleaning")
	cleanup := "echo $$ > " + cleaning + ".tmp; mv " + cleaning + ".tmp " + cleaning + "; trap '' TERM; sleep 60 & sleep 60"
	cmd := exec.Command(benchyBinary(t), "exec", "--window", "10ms", "--runs", "2", "--cleanup", cleanup, "--out", out, "true")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	exited := startUntil(t, cmd, cleaning, "the cleanup began")
	cmd.Process.Signal(syscall.SIGTERM)
	err := <-exited
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 143 {
		t.Fatalf("exit %v, want 143; stderr %s", err, stderr.String())
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatalf("no result: %v", err)
	}
	if e := r.Experiments[0]; !r.Interrupted || len(e.Samples) != 2 || !strings.Contains(e.Error, "did not finish") {
		t.Errorf("interrupted %v, %d samples, error %q; want both runs, marked interrupted, the cleanup not finished", r.Interrupted, len(e.Samples), e.Error)
	}
	group := pidsWritten(t, cleaning)[0]
	entries, _ := os.ReadDir("/proc")
	for _, d := range entries {
		pid, err := strconv.Atoi(d.Name())
		if err != nil || !procAlive(pid) {
			continue
		}
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == group {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("process %d of the cleanup's group is still running", pid)
		}
	}
}

// startUntil starts cmd (benchy, its stderr in a strings.Builder) and waits
// until the file marker exists, which what it runs writes at the moment to
// act on (what is named); it fails the test when benchy ends first, and
// kills it after two minutes. It returns what cmd.Wait will return.
func startUntil(t *testing.T, cmd *exec.Cmd, marker, what string) <-chan error {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hung := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	t.Cleanup(func() { hung.Stop() })
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		if _, err := os.Stat(marker); err == nil {
			return exited
		}
		select {
		case err := <-exited:
			t.Fatalf("benchy ended before %s: %v\n%s", what, err, cmd.Stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
