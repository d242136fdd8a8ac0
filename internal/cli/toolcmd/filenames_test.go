package toolcmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/cli/clitest"
)

// The lines of history import name the user's files, which may hold
// anything: their control characters are escaped, as the names inside a
// result are (cli's TestFileNamesAreEscaped checks the other commands).
func TestHistoryImportEscapesFileNames(t *testing.T) {
	dir := t.TempDir()
	good := clitest.CopyFile(t, compareFile("old.json"), dir, clitest.Hostile)
	bad := filepath.Join(dir, "bad-"+clitest.Hostile)
	if err := os.WriteFile(bad, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := testMain(args, &out, &errb)
		return out.String(), errb.String(), code
	}
	store := filepath.Join(t.TempDir(), "h.db")
	commit := strings.Repeat("ab", 20)
	for _, want := range []string{"stored as commit", "already stored"} {
		out, errs, code := run("history", "import", "--store", store, "--commit", commit, good)
		if code != cli.ExitOK || !strings.Contains(out, want) {
			t.Fatalf("exit %d, %q %q; want %q", code, out, errs, want)
		}
		clitest.CheckEscaped(t, want, out)
	}
	_, errs, code := run("history", "import", "--store", store, "--commit", commit, bad)
	if code != cli.ExitUsage {
		t.Errorf("import of a file that is not a result: exit %d, want 2", code)
	}
	clitest.CheckEscaped(t, "a file that is not a result", errs)
}
