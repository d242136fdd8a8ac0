package cli

import (
	"io"

	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/benchy-dev/benchy/internal/history/pgtest"
	"github.com/benchy-dev/benchy/internal/workload"
)

// The integration tests run the real binary, built once per test process.
var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// benchyBinary builds cmd/benchy once and returns its path.
func benchyBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "benchy-test")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "benchy")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/benchy-dev/benchy/cmd/benchy").CombinedOutput()
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

// runBinary runs the built benchy with args and returns stdout, stderr and
// the exit code.
func runBinary(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runBinaryIn(t, "", args...)
}

// runBinaryIn runs the built benchy in dir ("" for the test's own).
func runBinaryIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(benchyBinary(t), args...)
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

// testMain is Main over the built-in experiments, as cmd/benchy runs it.
func testMain(args []string, stdout, stderr io.Writer) int {
	return Main(args, workload.All(), stdout, stderr)
}

// builtins are the global options of a command over the built-in
// experiments.
func builtins() *globalOptions {
	return &globalOptions{Experiments: workload.All()}
}
