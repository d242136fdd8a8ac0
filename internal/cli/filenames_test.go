package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/cli/clitest"
)

// A file name is the user's, and may hold anything: wherever benchy
// prints one ("wrote FILE", the files a
// comparison names, an error that names a file) its control characters
// are escaped, as the names inside a result are.
func TestFileNamesAreEscaped(t *testing.T) {
	dir := t.TempDir()
	good := clitest.CopyFile(t, compareFile("old.json"), dir, clitest.Hostile)
	bad := filepath.Join(dir, "bad-"+clitest.Hostile)
	if err := os.WriteFile(bad, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing-"+clitest.Hostile)
	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := testMain(args, &out, &errb)
		return out.String(), errb.String(), code
	}

	t.Run("wrote", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), clitest.Hostile)
		_, errs, code := run("report", "--out", out, good)
		if code != ExitOK || !strings.Contains(errs, "wrote ") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		clitest.CheckEscaped(t, "wrote", errs)
	})
	t.Run("compare", func(t *testing.T) {
		for _, format := range []string{"text", "markdown"} {
			out, errs, code := run("compare", "--format", format, good, good)
			if code != ExitOK {
				t.Fatalf("%s: exit %d, stderr %q", format, code, errs)
			}
			clitest.CheckEscaped(t, "compare --format "+format, out)
		}
	})
	t.Run("load errors", func(t *testing.T) {
		for _, args := range [][]string{
			{"report", missing}, {"report", bad}, {"compare", missing, good}, {"compare", good, bad},
		} {
			_, errs, code := run(args...)
			if code != ExitUsage {
				t.Errorf("%q: exit %d, want 2", args, code)
			}
			clitest.CheckEscaped(t, fmt.Sprintf("%q", args), errs)
		}
	})
}
