// Package clitest holds what the tests of the cli and of its tool
// commands (toolcmd) share: benchy's binary, built once per test process
// and run as a user runs it, and parsing a command line through a
// command's run seam. Only tests import it.
package clitest

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/render"
)

// The integration tests run the real binary, built once per test process.
var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// Cleanup removes the binary Binary built; a package's TestMain calls it.
func Cleanup() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

// Binary builds cmd/benchy once and returns its path. It is linked
// without DWARF (-ldflags=-w), which nothing of benchy reads (asm reads
// the symbol table and pclntab, which stay): that is a third of the link,
// about 0.7 s of CPU in every test process that runs benchy.
func Binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "benchy-test")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "benchy")
		out, err := exec.Command("go", "build", "-ldflags=-w", "-o", binPath, "github.com/benchy-dev/benchy/cmd/benchy").CombinedOutput()
		if err != nil {
			binErr = &buildError{err: err, out: string(out)}
		}
	})
	if binErr != nil {
		t.Fatalf("build benchy: %v", binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// Run runs the built benchy with args in dir ("" for the test's own) and
// returns stdout, stderr and the exit code.
func Run(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(Binary(t), args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run benchy %v: %v", args, err)
	}
	return stdout.String(), stderr.String(), code
}

// Parse runs cmd on args with its run function replaced (runF), as the
// root would, and fails the test on an error.
func Parse(t *testing.T, cmd *cobra.Command, args ...string) {
	t.Helper()
	cmd.SetArgs(args)
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// LastLine is the last non-empty line of s.
func LastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// Exit codes ReadBack expects (package cli's ExitOK and ExitUsage, which
// this package cannot import: the cli's own tests import it).
const (
	exitOK    = 0
	exitUsage = 2
)

// ReadBack checks that a JSON document a command wrote to path reads
// back: report renders it in each of its formats and compare reads it
// (run is Main). A comparison holds no samples: report writes it in
// compare's formats and refuses the others in one line, exit 2, and
// compare refuses it, as it is not a run.
func ReadBack(t *testing.T, run func(args []string, stdout, stderr io.Writer) int, path string, comparison bool) {
	t.Helper()
	for _, format := range render.Formats {
		var stdout, stderr bytes.Buffer
		code := run([]string{"report", path, "--format", format}, &stdout, &stderr)
		switch {
		case !comparison || slices.Contains(render.ComparisonFormats, format):
			if code != exitOK || stdout.Len() == 0 {
				t.Errorf("report --format %s: exit %d, %d bytes\n%s", format, code, stdout.Len(), stderr.String())
			}
		case code != exitUsage || strings.Count(stderr.String(), "\n") != 1 ||
			!strings.Contains(stderr.String(), "a comparison") || !strings.Contains(stderr.String(), "text, json, markdown"):
			t.Errorf("report --format %s of a comparison: exit %d, %q; want exit 2 and one line naming text, json, markdown", format, code, stderr.String())
		}
	}
	twin := filepath.Join(filepath.Dir(path), "twin-"+filepath.Base(path)) // compare refuses one file on both sides
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(twin, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"compare", path, twin}, &stdout, &stderr)
	switch {
	case !comparison:
		if code != exitOK || stdout.Len() == 0 {
			t.Errorf("compare: exit %d\n%s", code, stderr.String())
		}
	case code != exitUsage || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "comparison, not a result"):
		t.Errorf("compare of a comparison: exit %d, %q; want exit 2 and one line saying it is a comparison", code, stderr.String())
	}
}

// MainOK runs benchy in process (run is Main) and fails the test unless
// it exits with one of codes (0 when none is given); it returns stdout.
func MainOK(t *testing.T, run func(args []string, stdout, stderr io.Writer) int, args []string, codes ...int) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	if !slices.Contains(append(codes, exitOK), code) {
		t.Fatalf("benchy %q: exit %d\n%s", args, code, stderr.String())
	}
	return stdout.String()
}

// Complete drives cobra's hidden __complete command through run, as a
// shell's TAB does, and returns the candidates and the directive (":4").
func Complete(t *testing.T, run func(args []string, stdout, stderr io.Writer) int, args ...string) ([]string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"__complete"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("benchy __complete %q: exit %d, stderr %q", args, code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	directive := lines[len(lines)-1]
	if !strings.HasPrefix(directive, ":") {
		t.Fatalf("benchy __complete %q: no directive line in %q", args, stdout.String())
	}
	return lines[:len(lines)-1], directive
}

// Hostile is a file name that would set a terminal's title (OSC 0, ended
// by BEL) and clear its screen (CSI 2J) if printed raw; Shown is how
// benchy prints it (result.Printable, as it prints names from results).
const (
	Hostile = "r\x1b]0;pwned\x07\x1b[2J.json"
	Shown   = `r\x1b]0;pwned\a\x1b[2J.json`
)

// CheckEscaped fails the test when s holds a control character, or does
// not name the hostile file as Shown.
func CheckEscaped(t *testing.T, what, s string) {
	t.Helper()
	if strings.ContainsAny(s, "\x1b\x07") {
		t.Errorf("%s: a control character reaches the terminal raw: %q", what, s)
	}
	if !strings.Contains(s, Shown) {
		t.Errorf("%s: %q does not name the file as %s", what, s, Shown)
	}
}

// CopyFile copies the file at src to dir/name and returns its path.
func CopyFile(t *testing.T, src, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
