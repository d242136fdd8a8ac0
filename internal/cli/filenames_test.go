package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostile is a file name that would set a terminal's title (OSC 0, ended
// by BEL) and clear its screen (CSI 2J) if printed raw; shown is how
// benchy prints it (result.Printable, as it prints names from results).
const (
	hostile = "r\x1b]0;pwned\x07\x1b[2J.json"
	shown   = `r\x1b]0;pwned\a\x1b[2J.json`
)

// checkEscaped fails the test when s holds a control character, or does
// not name the hostile file as shown.
func checkEscaped(t *testing.T, what, s string) {
	t.Helper()
	if strings.ContainsAny(s, "\x1b\x07") {
		t.Errorf("%s: a control character reaches the terminal raw: %q", what, s)
	}
	if !strings.Contains(s, shown) {
		t.Errorf("%s: %q does not name the file as %s", what, s, shown)
	}
}

// copyFixture copies the result at src to dir/name.
func copyFixture(t *testing.T, src, dir, name string) string {
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

// A file name is the user's, and may hold anything: wherever benchy
// prints one (the lines of history import, "wrote FILE", the files a
// comparison names, an error that names a file) its control characters
// are escaped, as the names inside a result are.
func TestFileNamesAreEscaped(t *testing.T) {
	dir := t.TempDir()
	good := copyFixture(t, compareFile("old.json"), dir, hostile)
	bad := filepath.Join(dir, "bad-"+hostile)
	if err := os.WriteFile(bad, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing-"+hostile)
	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := testMain(args, &out, &errb)
		return out.String(), errb.String(), code
	}

	t.Run("history import", func(t *testing.T) {
		store := filepath.Join(t.TempDir(), "h.db")
		commit := strings.Repeat("ab", 20)
		for _, want := range []string{"stored as commit", "already stored"} {
			out, errs, code := run("history", "import", "--store", store, "--commit", commit, good)
			if code != ExitOK || !strings.Contains(out, want) {
				t.Fatalf("exit %d, %q %q; want %q", code, out, errs, want)
			}
			checkEscaped(t, want, out)
		}
		_, errs, code := run("history", "import", "--store", store, "--commit", commit, bad)
		if code != ExitUsage {
			t.Errorf("import of a file that is not a result: exit %d, want 2", code)
		}
		checkEscaped(t, "a file that is not a result", errs)
	})
	t.Run("wrote", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), hostile)
		_, errs, code := run("report", "--out", out, good)
		if code != ExitOK || !strings.Contains(errs, "wrote ") {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		checkEscaped(t, "wrote", errs)
	})
	t.Run("compare", func(t *testing.T) {
		for _, format := range []string{"text", "markdown"} {
			out, errs, code := run("compare", "--format", format, good, good)
			if code != ExitOK {
				t.Fatalf("%s: exit %d, stderr %q", format, code, errs)
			}
			checkEscaped(t, "compare --format "+format, out)
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
			checkEscaped(t, fmt.Sprintf("%q", args), errs)
		}
	})
}
