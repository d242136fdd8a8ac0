package toolcmd

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/cli/clitest"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/pipeline/gotestrun"
	"github.com/benchy-dev/benchy/internal/result"
)

// gotestOut parses a gotest command line through its run seam and checks
// its output flags as gotest does, for a test to write a document with
// gotest's own writers without measuring.
func gotestOut(t *testing.T, args ...string) *gotestOptions {
	t.Helper()
	var got *gotestOptions
	cmd := newGotestCmd(testGlobals(), func(o *gotestOptions) error { got = o; return nil })
	parse(t, cmd, args...)
	if err := got.OutputOptions.Validate(cmd); err != nil {
		t.Fatal(err)
	}
	if err := got.validate(); err != nil {
		t.Fatal(err)
	}
	return got
}

// writeAgainst writes what `gotest --against HEAD~1 args...` writes for
// two recorded gotest runs (testdata/compare/gotest-*.json) of its old and
// new revisions: the same writers, without building and measuring.
func writeAgainst(t *testing.T, args ...string) {
	t.Helper()
	o := gotestOut(t, append([]string{"--against", "HEAD~1"}, args...)...)
	old, err := cli.LoadForCompare(compareFile("gotest-old.json"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := cli.LoadForCompare(compareFile("gotest-slower.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The document gotestrun.GoTest makes of the two sides.
	files, err := compare.Against(old, cur, o.Value)
	if err != nil {
		t.Fatal(err)
	}
	olds, news := []*result.Result{old}, []*result.Result{cur}
	d := compare.NewDocument("benchy "+cli.Version, compare.FileSides([]string{"HEAD~1 (0123abc)"}, olds),
		compare.FileSides([]string{"working tree"}, news), olds, news, files, o.fail)
	run := &gotestrun.GoTestRun{Result: &result.Result{}, Comparison: &d}
	if err := o.writeAgainst(run, nil, io.Discard, nil); err != nil && cli.ExitCode(err) != cli.ExitFailed {
		t.Fatal(err)
	}
}

// A comparison read back is the comparison written: report writes the
// JSON gotest --against wrote byte for byte, and its text and markdown as
// gotest --against writes them (the gate included).
func TestComparisonRoundTrip(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "against.json")
	writeAgainst(t, "--fail-on-regression", "10%", "--out", doc)
	for _, format := range cli.CompareFormats {
		t.Run(format, func(t *testing.T) {
			want := filepath.Join(dir, "against."+format)
			writeAgainst(t, "--fail-on-regression", "10%", "--format", format, "--out", want)
			wantData, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			got := benchyOK(t, []string{"report", doc, "--format", format})
			if got != string(wantData) {
				t.Errorf("report --format %s of the comparison:\n%s\nwant, as gotest --against wrote it:\n%s", format, got, wantData)
			}
			if format == "text" && !strings.Contains(got, "gate: FAILED") {
				t.Errorf("the gate is lost:\n%s", got)
			}
		})
	}
}

// An --out extension that names a format the command does not write is
// refused, not filled with text: gotest --against --out x.html wrote its
// text comparison into x.html. Given --format, the name is the user's.
func TestOutExtensionOfAnotherFormat(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string // the error, "" for none
	}{
		{[]string{"--against", "HEAD~1", "--out", filepath.Join(dir, "x.html")}, "the extension says html, but the formats here are text, json, markdown"},
		{[]string{"--against", "HEAD~1", "--out", filepath.Join(dir, "x.csv")}, "the extension says csv"},
		{[]string{"--against", "HEAD~1", "--format", "text", "--out", filepath.Join(dir, "x.html")}, ""},
		{[]string{"--against", "HEAD~1", "--out", filepath.Join(dir, "x.md")}, ""},
		{[]string{"--out", filepath.Join(dir, "x.html")}, ""},
	} {
		var got *gotestOptions
		cmd := newGotestCmd(testGlobals(), func(o *gotestOptions) error { got = o; return nil })
		parse(t, cmd, tt.args...)
		err := got.OutputOptions.Validate(cmd)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("gotest %q: %v", tt.args, err)
		case tt.want != "" && (cli.ExitCode(err) != cli.ExitUsage || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("gotest %q: exit %d, %v; want exit 2, %q", tt.args, cli.ExitCode(err), err, tt.want)
		}
	}
}

// What gotest writes with --out reads back (clitest.ReadBack): its result,
// its comparison (--against), and report's copy of that comparison.
func TestGotestOutFilesReadBack(t *testing.T) {
	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	docs := []struct {
		name       string
		write      func(t *testing.T, path string)
		comparison bool
	}{
		{"gotest", func(t *testing.T, path string) {
			r, err := result.Load(compareFile("gotest-old.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := gotestOut(t, "--out", path).Write(r, io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"gotest --against", func(t *testing.T, path string) {
			writeAgainst(t, "--fail-on-regression", "10%", "--out", path)
		}, true},
		{"report of a comparison", func(t *testing.T, path string) {
			against := file("again-against.json")
			writeAgainst(t, "--out", against)
			benchyOK(t, []string{"report", against, "--out", path})
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
