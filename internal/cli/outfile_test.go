package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
)

// benchyOK runs benchy in process and fails the test unless it exits with
// one of codes (0 when none is given).
func benchyOK(t *testing.T, args []string, codes ...int) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := testMain(args, &stdout, &stderr)
	if !slices.Contains(append(codes, ExitOK), code) {
		t.Fatalf("benchy %q: exit %d\n%s", args, code, stderr.String())
	}
	return stdout.String()
}

// gotestOut parses a gotest command line through its run seam and checks
// its output flags as gotest does, for a test to write a document with
// gotest's own writers without measuring.
func gotestOut(t *testing.T, args ...string) *gotestOptions {
	t.Helper()
	var got *gotestOptions
	cmd := newGotestCmd(testGlobals(), func(o *gotestOptions) error { got = o; return nil })
	parse(t, cmd, args...)
	if err := got.outputOptions.validate(cmd); err != nil {
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
	old, err := loadForCompare(compareFile("gotest-old.json"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := loadForCompare(compareFile("gotest-slower.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The document pipeline.GoTest makes of the two sides.
	files, err := compare.Against(old, cur, o.threshold)
	if err != nil {
		t.Fatal(err)
	}
	olds, news := []*result.Result{old}, []*result.Result{cur}
	d := compare.NewDocument("benchy "+Version, compare.FileSides([]string{"HEAD~1 (0123abc)"}, olds),
		compare.FileSides([]string{"working tree"}, news), olds, news, files, o.fail)
	run := &pipeline.GoTestRun{Result: &result.Result{}, Comparison: &d}
	if err := o.writeAgainst(run, nil, io.Discard, nil); err != nil && exitCode(err) != ExitFailed {
		t.Fatal(err)
	}
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
	if testing.Short() {
		t.Skip("measures with run and exec")
	}
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
		{"gotest", func(t *testing.T, path string) {
			r, err := result.Load(compareFile("gotest-old.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := gotestOut(t, "--out", path).write(r, io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"report", func(t *testing.T, path string) {
			benchyOK(t, []string{"report", compareFile("gotest-old.json"), "--out", path})
		}, false},
		{"gotest --against", func(t *testing.T, path string) {
			writeAgainst(t, "--fail-on-regression", "10%", "--out", path)
		}, true},
		{"compare --format json", func(t *testing.T, path string) {
			out := benchyOK(t, []string{"compare", "--format", "json", compareFile("old.json"), compareFile("slower.json")})
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
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
			for _, format := range render.Formats {
				var stdout, stderr bytes.Buffer
				code := testMain([]string{"report", path, "--format", format}, &stdout, &stderr)
				switch {
				case !d.comparison || slices.Contains(compareFormats, format):
					if code != ExitOK || stdout.Len() == 0 {
						t.Errorf("report --format %s: exit %d, %d bytes\n%s", format, code, stdout.Len(), stderr.String())
					}
				case code != ExitUsage || strings.Count(stderr.String(), "\n") != 1 ||
					!strings.Contains(stderr.String(), "a comparison") || !strings.Contains(stderr.String(), "text, json, markdown"):
					t.Errorf("report --format %s of a comparison: exit %d, %q; want exit 2 and one line naming text, json, markdown", format, code, stderr.String())
				}
			}
			twin := file("twin-" + filepath.Base(path)) // compare refuses one file on both sides
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(twin, data, 0o644); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := testMain([]string{"compare", path, twin}, &stdout, &stderr)
			switch {
			case !d.comparison:
				if code != ExitOK || stdout.Len() == 0 {
					t.Errorf("compare: exit %d\n%s", code, stderr.String())
				}
			case code != ExitUsage || strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), "comparison, not a result"):
				t.Errorf("compare of a comparison: exit %d, %q; want exit 2 and one line saying it is a comparison", code, stderr.String())
			}
		})
	}
}

// A comparison read back is the comparison written: report writes the
// JSON gotest --against wrote byte for byte, and its text and markdown as
// gotest --against writes them (the gate included).
func TestComparisonRoundTrip(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "against.json")
	writeAgainst(t, "--fail-on-regression", "10%", "--out", doc)
	for _, format := range compareFormats {
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
		err := got.outputOptions.validate(cmd)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("gotest %q: %v", tt.args, err)
		case tt.want != "" && (exitCode(err) != ExitUsage || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("gotest %q: exit %d, %v; want exit 2, %q", tt.args, exitCode(err), err, tt.want)
		}
	}
}
