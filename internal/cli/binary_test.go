package cli

import (
	"io"
	"os"
	"testing"

	"github.com/benchy-dev/benchy/internal/cli/clitest"
	"github.com/benchy-dev/benchy/internal/history/pgtest"
	"github.com/benchy-dev/benchy/internal/workload"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	clitest.Cleanup()
	os.Exit(code)
}

// benchyBinary builds cmd/benchy once and returns its path.
func benchyBinary(t *testing.T) string { return clitest.Binary(t) }

// runBinary runs the built benchy with args and returns stdout, stderr and
// the exit code.
func runBinary(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return clitest.Run(t, "", args...)
}

// testMain is Main over the built-in experiments, as cmd/benchy runs it.
func testMain(args []string, stdout, stderr io.Writer) int {
	return Main(args, workload.All(), stdout, stderr)
}

// builtins are the global options of a command over the built-in
// experiments.
func builtins() *GlobalOptions {
	return &GlobalOptions{Experiments: workload.All()}
}
