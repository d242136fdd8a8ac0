package toolcmd

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"

	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/cli/clitest"
	"github.com/benchy-dev/benchy/internal/history/pgtest"
	"github.com/benchy-dev/benchy/internal/workload"
	_ "github.com/benchy-dev/benchy/store/postgres"
	_ "github.com/benchy-dev/benchy/store/sqlite"
)

// The tests take both store drivers and benchy's own commands, as
// cmd/benchy does.
func init() { Add() }

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.Stop()
	clitest.Cleanup()
	os.Exit(code)
}

// testMain is Main over the built-in experiments, as cmd/benchy runs it.
func testMain(args []string, stdout, stderr io.Writer) int {
	return cli.Main(args, workload.All(), stdout, stderr)
}

// runBinary runs the built benchy with args and returns stdout, stderr and
// the exit code; runBinaryIn runs it in dir.
func runBinary(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return clitest.Run(t, "", args...)
}

func runBinaryIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	return clitest.Run(t, dir, args...)
}

func benchyBinary(t *testing.T) string { return clitest.Binary(t) }

func parse(t *testing.T, cmd *cobra.Command, args ...string) {
	t.Helper()
	clitest.Parse(t, cmd, args...)
}

func testGlobals() *cli.GlobalOptions {
	return &cli.GlobalOptions{Stdout: io.Discard, Stderr: io.Discard, Sysroot: "/"}
}

func compareFile(name string) string { return filepath.Join("../../../testdata/compare", name) }

// benchyOK runs benchy in process and fails the test unless it exits with
// one of codes (0 when none is given).
func benchyOK(t *testing.T, args []string, codes ...int) string {
	t.Helper()
	return clitest.MainOK(t, testMain, args, codes...)
}
