package cli

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/benchy-dev/benchy/internal/cli/clitest"
	"github.com/benchy-dev/benchy/internal/history/pgtest"
	"github.com/benchy-dev/benchy/internal/targets/command"
	"github.com/benchy-dev/benchy/internal/workload"
)

func TestMain(m *testing.M) {
	// exec run in process starts its spawner by running this executable
	// again (command.NewSpawner), which benchy's main turns into the
	// spawner: so must the test binary, or the spawner would run the
	// tests.
	command.MaybeServe()
	code := m.Run()
	pgtest.Stop()
	clitest.Cleanup()
	os.Exit(code)
}

// onlyInProcess reports whether the tests that run benchy as a child
// process, build programs or measure for seconds are left out: under
// -short, and under the race detector, for which make test runs the cli's
// tests again for their in-process part. The detector does not see into a
// child process, so there such a test only costs time (benchy's build,
// and the runs).
func onlyInProcess() bool { return testing.Short() || raceEnabled }

// benchyBinary builds cmd/benchy once and returns its path; a test that
// runs it is skipped where onlyInProcess.
func benchyBinary(t *testing.T) string {
	t.Helper()
	if onlyInProcess() {
		t.Skip("runs benchy as a child process, which -short and -race leave out")
	}
	return clitest.Binary(t)
}

// runBinary runs the built benchy with args and returns stdout, stderr and
// the exit code.
func runBinary(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	benchyBinary(t)
	return clitest.Run(t, "", args...)
}

// runMain runs benchy with args in process and returns stdout, stderr and
// the exit code: for what a command refuses or reads, never for a run that
// measures (its pinning would take the measured CPU from the test
// binary's threads).
func runMain(args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	code := testMain(args, &stdout, &stderr)
	return stdout.String(), stderr.String(), code
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
