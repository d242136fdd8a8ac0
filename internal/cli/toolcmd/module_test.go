package toolcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
)

// The helpers of the tests that build a module of their own, commit it
// and compare its revisions (gotest, bisect, history check --confirm).

// writeModule writes a module of files into a new directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// git runs git in dir, failing the test on an error.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// againstBench is the benchmark of a module whose Work a test changes
// between commits.
const againstBench = `package work

import "testing"

var sink int

var data = make([]int, 2000)

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Work(data)
	}
}
`

// decodeComparison reads a comparison document from a command's stdout.
func decodeComparison(t *testing.T, stdout, stderr string) compare.Document {
	t.Helper()
	c, err := compare.ReadDocument([]byte(stdout))
	if err != nil {
		t.Fatalf("not a comparison: %v\nstdout: %s\nstderr: %s", err, stdout, stderr)
	}
	return c
}
