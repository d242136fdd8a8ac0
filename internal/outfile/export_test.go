package outfile

import (
	"io"
	"os"
	"slices"
	"strings"
	"testing"
)

// resetPending undoes RemovePending, which a real process calls just before
// exiting, so later tests can create files again.
func resetPending() {
	pending.mu.Lock()
	pending.exiting = false
	pending.mu.Unlock()
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// names lists dir, so a test can tell that no temporary file was left.
func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range es {
		ns = append(ns, e.Name())
	}
	slices.Sort(ns)
	return ns
}

// wantNames fails unless dir holds exactly want.
func wantNames(t *testing.T, dir string, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mustCheck is Check that must succeed.
func mustCheck(t *testing.T, path string, opts Options) *Dest {
	t.Helper()
	d, err := Check("--out", path, opts)
	if err != nil {
		t.Fatalf("Check(%s) = %v", path, err)
	}
	return d
}

// wantOneLine fails unless err is an error of one line naming path and
// containing want.
func wantOneLine(t *testing.T, err error, path, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", want)
	}
	msg := err.Error()
	if !strings.Contains(msg, path) || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line naming %s and saying %q", msg, path, want)
	}
}
