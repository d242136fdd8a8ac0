package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/cli/clitest"
)

// benchyOK runs benchy in process and fails the test unless it exits with
// one of codes (0 when none is given).
func benchyOK(t *testing.T, args []string, codes ...int) string {
	t.Helper()
	return clitest.MainOK(t, testMain, args, codes...)
}

// Every JSON document a command writes with --out is one benchy report
// renders in each of its formats and, where it holds runs, one benchy
// compare reads. A comparison (gotest --against, benchy compare) holds no
// samples: report writes it as compare did, in compare's formats, and
// refuses the formats made of samples in one line, exit 2; compare
// refuses it, as it is not a run. The measuring commands measure quickly
// (--smoke, three runs of true), gotest's documents are written by
// gotest's writers from recorded runs.
func TestOutFilesReadBack(t *testing.T) {
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	docs := []struct {
		name       string
		write      func(t *testing.T, path string)
		comparison bool
	}{
		// run measures in a process of its own: in this one, its
		// pinning would take the measured CPU from every thread of the
		// test binary, and the tests after it could not use that CPU.
		{"run", func(t *testing.T, path string) {
			if _, stderr, code := runBinary(t, "run", "--smoke", "--bench", "^sum/sink$", "--out", path); code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
		}, false},
		{"run --compare", func(t *testing.T, path string) {
			if _, stderr, code := runBinary(t, "run", "--smoke", "--compare", "sum/sink,sum/keep", "--out", path); code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
		}, false},
		{"exec", func(t *testing.T, path string) {
			if _, stderr, code := runBinary(t, "exec", "--runs", "3", "--window", "10ms", "true", "--out", path); code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
		}, false},
		{"exec of two commands", func(t *testing.T, path string) {
			if _, stderr, code := runBinary(t, "exec", "--runs", "3", "--window", "10ms", "true", "sleep 0", "--out", path); code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
		}, false},
		{"report", func(t *testing.T, path string) {
			benchyOK(t, []string{"report", compareFile("gotest-old.json"), "--out", path})
		}, false},
		{"compare --format json", func(t *testing.T, path string) {
			out := benchyOK(t, []string{"compare", "--format", "json", compareFile("old.json"), compareFile("slower.json")})
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"report of a comparison", func(t *testing.T, path string) {
			doc := file("again-compare.json")
			out := benchyOK(t, []string{"compare", "--format", "json", compareFile("old.json"), compareFile("slower.json")})
			if err := os.WriteFile(doc, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			benchyOK(t, []string{"report", doc, "--out", path})
		}, true},
	}
	for _, d := range docs {
		t.Run(d.name, func(t *testing.T) {
			path := file(strings.NewReplacer(" ", "-", "--", "").Replace(d.name) + ".json")
			d.write(t, path)
			clitest.ReadBack(t, testMain, path, d.comparison)
		})
	}
}
