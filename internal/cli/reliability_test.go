package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// Flags and files refused before anything is measured, each with one
// line and exit 2 (cases from a probe of benchy's reliability; the output
// file cases themselves are tested in internal/outfile). In process: a
// run that measured would pin the test binary's threads (and fail).
func TestRunRefusesBeforeMeasuring(t *testing.T) {
	dir := t.TempDir()
	ro := filepath.Join(dir, "readonly.json")
	os.WriteFile(ro, []byte("{}"), 0o444)
	loop := filepath.Join(dir, "loop")
	os.Symlink(loop, loop)
	link := filepath.Join(dir, "link.csv")
	os.Symlink(filepath.Join(dir, "same.csv"), link)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"cpu read as decimal, not hex", []string{"--cpu", "0x1"}, "not a whole number in decimal"},
		{"empty strict", []string{"--strict="}, "give a level"},
		{"empty compare", []string{"--compare", ""}, "name the experiments to compare"},
		{"warm-up of 290 years", []string{"--warmup", "2540400h"}, "must be at most 10m0s"},
		{"sample time of an hour", []string{"--sample-time", "1h"}, "must be at most 10s"},
		{"read-only out", []string{"--out", ro}, "is read-only; use --force to replace it"},
		{"symlink loop", []string{"--out", loop}, "--out " + loop},
		{"out and samples-file the same file", []string{"--out", filepath.Join(dir, "same.csv"), "--samples-file", link}, "are the same file"},
		{"format against extension", []string{"--out", filepath.Join(dir, "r.json"), "--format", "csv"}, "the extension says json"},
		{"cpu refused before a minute of window", []string{"--cpu", "4096", "--window", "60s"}, "is not available"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			stdout, stderr, code := runMain(append([]string{"run", "--window", "10ms"}, tt.args...)...)
			if code != ExitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, tt.want) || stdout != "" {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit 2 and one line with %q", code, stderr, stdout, tt.want)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %v: the flags were not checked before measuring", d)
			}
		})
	}
	if b, _ := os.ReadFile(ro); string(b) != "{}" {
		t.Errorf("the read-only file was changed: %q", b)
	}
}

// --samples 010 is ten samples, not eight (octal). That a run takes the
// samples --samples says is TestRunPinnedJSON's.
func TestIntegersAreDecimal(t *testing.T) {
	var got *runOptions
	parse(t, newRunCmd(testGlobals(), func(o *runOptions) error { got = o; return nil }), "--samples", "010")
	if got.Samples != 10 {
		t.Errorf("--samples 010: %d samples; want 10", got.Samples)
	}
}

// --force replaces a read-only file of one's own, keeping it read-only.
func TestRunForceReplacesReadOnly(t *testing.T) {
	ro := filepath.Join(t.TempDir(), "readonly.json")
	os.WriteFile(ro, []byte("{}"), 0o444)
	_, stderr, code := runBinary(t, "run", "--bench", "^empty$", "--samples", "3", "--sample-time", "1ms", "--warmup", "1ms", "--window", "10ms", "--no-asm", "--out", ro, "--force")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := result.Load(ro); err != nil {
		t.Errorf("the replaced file: %v", err)
	}
	if fi, err := os.Stat(ro); err != nil || fi.Mode().Perm() != 0o444 {
		t.Errorf("mode after --force: %v %v, want 0444 kept", fi.Mode(), err)
	}
}

// A --samples-file that cannot be written at the end does not stop the
// result: --out is written, the samples are kept elsewhere, exit 1.
func TestFailingSamplesFileKeepsTheResult(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sub := filepath.Join(dir, "gone")
	os.Mkdir(sub, 0o755)
	out := filepath.Join(dir, "r.json")
	// A third of a second from pinning to the end (the warm-up and 100
	// samples of 2 ms): the directory goes in the first few milliseconds.
	cmd := exec.Command(benchyBinary(t), "run", "--bench", "^sum/sink$", "--samples", "100", "--sample-time", "2ms",
		"--window", "10ms", "--no-asm", "--out", out, "--samples-file", filepath.Join(sub, "s.csv"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitMeasuring(t, cmd.Process.Pid)
	os.RemoveAll(sub) // the directory goes while measuring
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitFailed {
		t.Fatalf("exit %v, want 1; stderr %s", err, stderr.String())
	}
	if _, err := result.Load(out); err != nil {
		t.Errorf("--out was not written: %v", err)
	}
	if !strings.Contains(stderr.String(), "the result is in ") {
		t.Errorf("stderr does not say where the samples were kept: %s", stderr.String())
	}
}

// SIGTERM and SIGHUP stop like Ctrl-C: what was measured is written, the
// exit is 128 + the signal, and no temporary file is left; a stop during
// the busy window ends at once.
func TestSignalsStopTheRun(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGHUP, 129}, {syscall.SIGINT, 130}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "r.json")
			cmd := exec.Command(benchyBinary(t), "run", "--bench", "^sum/sink$", "--samples", "100000", "--sample-time", "1ms",
				"--warmup", "1ms", "--window", "10ms", "--no-asm", "--out", out)
			term := startOnTerminal(t, cmd)
			term.waitFor(t, "samples to keep", sampled(20))
			cmd.Process.Signal(tt.sig)
			err := cmd.Wait()
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != tt.code {
				t.Fatalf("exit %v, want %d", err, tt.code)
			}
			r, err := result.Load(out)
			if err != nil || !r.Interrupted {
				t.Fatalf("result %v: %v; want it written, marked interrupted", r != nil, err)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("files left in the directory: %v", entries)
			}
		})
	}
	t.Run("during the window", func(t *testing.T) {
		cmd := exec.Command(benchyBinary(t), "run", "--window", "60s")
		term := startOnTerminal(t, cmd)
		// The progress line says the window began: the stop signals
		// are watched by then.
		term.waitFor(t, "the busy window", showing("reading the machine (1m0s)"))
		start := time.Now()
		cmd.Process.Signal(syscall.SIGINT)
		err := cmd.Wait()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != ExitInterrupted {
			t.Errorf("exit %v, want 130", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("stopped %v after Ctrl-C in a 60s window", d)
		}
	})
}
