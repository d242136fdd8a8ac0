package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/history"
)

// What bisect's flags become, and every bad one: exit 2 with one line
// that names the valid choices.
func TestBisectFlags(t *testing.T) {
	var got *bisectOptions
	capture := func(o *bisectOptions) error { got = o; return nil }
	parse(t, newBisectCmd(testGlobals(), capture), "v1", "main", "--bench", "Parse$", "./parser", "--samples", "12",
		"--processes", "4", "--sample-time", "10ms", "--threshold", "3%", "--retries", "1", "--format", "markdown", "--", "-tags", "x")
	if got.Good != "v1" || got.Bad != "main" || got.Bench != "Parse$" || len(got.Packages) != 1 || got.Packages[0] != "./parser" ||
		got.Samples != 12 || got.Processes != 4 || got.SampleTime != 10*time.Millisecond || got.threshold != 0.03 ||
		got.Retries != 1 || got.Format != "markdown" || strings.Join(got.BuildFlags, " ") != "-tags x" {
		t.Errorf("options: %+v", got)
	}
	got = nil
	parse(t, newBisectCmd(testGlobals(), capture), "a", "b", "--bench", "X")
	notDir := filepath.Join(t.TempDir(), "file") // a store under it cannot be opened
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got.Packages[0] != "." || got.threshold != 0.05 || got.Retries != bisectRetries || got.Samples != gotestSamples || got.Format != "text" {
		t.Errorf("defaults: %+v", got)
	}
	for _, b := range []struct {
		args []string
		want string
	}{
		{[]string{"a", "--bench", "X"}, "give GOOD and BAD"},
		{[]string{"a", "b"}, "--bench REGEXP: give the benchmark"},
		{[]string{"a", "b", "--bench", "("}, "--bench \"(\""},
		{[]string{"a", "b", "--bench", "X", "--format", "html"}, "text, json, markdown"},
		{[]string{"a", "b", "--bench", "X", "--processes", "1"}, "--processes 1: must be between 2"},
		{[]string{"a", "b", "--bench", "X", "--retries", "-1"}, "--retries -1"},
		{[]string{"a", "b", "--bench", "X", "--threshold", "lots"}, "--threshold"},
		{[]string{"a", "b", "--bench", "X", "-C", "/nonexistent/dir"}, "not a directory"},
		{[]string{"a", "b", "--bench", "X", "--store", filepath.Join(notDir, "h.db")}, "--store"},
	} {
		cmd := newBisectCmd(testGlobals(), capture)
		cmd.SetArgs(b.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if code := exitCode(err); code != ExitUsage || err == nil || !strings.Contains(err.Error(), b.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: exit %d, %v; want exit 2, one line naming %q", b.args, code, err, b.want)
		}
	}
}

// workSource is the package of bisect's test repositories: Work does
// passes passes over its data; extra is added at the end.
func workSource(passes int, extra string) string {
	return "package work\n\n// Work sums xs.\nfunc Work(xs []int) int {\n\ts := 0\n\tfor p := 0; p < " + fmt.Sprint(passes) +
		"; p++ {\n\t\tfor _, x := range xs {\n\t\t\ts += x ^ p\n\t\t}\n\t}\n\treturn s\n}\n" + extra
}

// checkStored checks that the history at db holds a point of the
// benchmark at GOOD, at BAD and at every commit rep measured, and at no
// other commit, each with the commit's time; and that history show
// draws them.
func checkStored(t *testing.T, db string, rep bisect.Report) {
	t.Helper()
	want := map[string]bool{rep.Good.Hash: true}
	for _, st := range rep.Steps {
		if st.Side != bisect.Skipped {
			want[rep.Commits[st.Commit].Hash] = true
		}
	}
	want[rep.Commits[len(rep.Commits)-1].Hash] = true
	a, err := history.ParseAddress(db)
	if err != nil {
		t.Fatal(err)
	}
	s, err := history.Open(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, _, err := s.Rows(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range rows {
		if r.Benchmark == rep.Benchmark && r.Basis == history.BasisTime {
			got[r.Source.Commit] = true
			if r.Source.Time.IsZero() {
				t.Errorf("stored at %s without the commit's time", history.Short(r.Source.Commit))
			}
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("stored at %v, want GOOD, BAD and every commit measured: %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	out, errs, code := runBinaryIn(t, filepath.Dir(db), "history", "show", "--store", db, "--format", "json")
	if code != ExitOK || !strings.Contains(out, `"`+rep.Benchmark+`"`) {
		t.Errorf("history show: exit %d\n%s%s", code, out, errs)
	}
}

// A commit whose test binary cannot list its benchmarks (its init
// panics) is skipped with the reason, and the walk goes on: GOOD, the
// panicking commit, then BAD three times slower give the range of the
// two, the first skipped, in a report that is written.
func TestBisectSkipsABinaryThatPanics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures several revisions")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n", "work_test.go": againstBench})
	gitIn(t, dir, "init", "-q")
	var commits []string
	for k, src := range []string{workSource(1, ""), workSource(1, "\nfunc init() { panic(\"no configuration\") }\n"), workSource(3, "")} {
		if err := os.WriteFile(filepath.Join(dir, "work.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, "add", ".")
		gitIn(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d", k+1))
		commits = append(commits, strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD")))
	}
	out, errs, code := runBinaryIn(t, dir, "bisect", commits[0], commits[2], "--bench", "Work", "--format", "json",
		"--samples", "6", "--processes", "3", "--sample-time", "20ms", "--window", "100ms")
	t.Logf("exit %d\n%s%s", code, out, errs)
	var rep bisect.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the JSON: %v", err)
	}
	a := rep.Answer
	if code != ExitFailed || a.Verdict != bisect.Found || a.From != 0 || a.To != 1 || len(a.Skipped) != 1 || a.Skipped[0] != 0 {
		t.Errorf("exit %d, answer %+v: want 1, the range of both commits, the first skipped", code, a)
	}
	if len(rep.Steps) != 2 || rep.Steps[1].Side != bisect.Skipped ||
		!strings.Contains(rep.Steps[1].Why, "cannot be calibrated") || !strings.Contains(rep.Steps[1].Why, "no configuration") {
		t.Errorf("steps %+v: want BAD, then commit 2 skipped with its panic", rep.Steps)
	}
}

// bisect on a repository of its own: Work does one pass over its data in
// commits 1-5 and three from commit 6 on (a change far beyond any noise,
// even under two CPU hogs); commit 8 does not build, commit 9 mends it.
// The walk must name commit 6, or a range that holds it, never another
// commit alone; measure at most log2(9)+2 commits besides the one
// skipped; and leave no worktree behind. GOOD..BAD with no change in the
// code finds no slowdown; bad revisions exit 2.
func TestBisect(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and measures several revisions")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	work := func(passes int, broken bool) string {
		if broken {
			return workSource(passes, "\nfunc broken() int { return undefined }\n")
		}
		return workSource(passes, "")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n", "work_test.go": againstBench,
		"sum_test.go": "package work\n\nimport \"testing\"\n\nfunc BenchmarkSum(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = Work(data[:10])\n\t}\n}\n"})
	gitIn(t, dir, "init", "-q")
	commits := []string{""} // commits[k] is commit k
	for k := 1; k <= 10; k++ {
		passes := 1
		if k >= 6 {
			passes = 3
		}
		files := map[string]string{"work.go": work(passes, k == 8), "NOTES": fmt.Sprintf("commit %d\n", k)}
		commits = append(commits, commitFiles(t, dir, files, fmt.Sprintf("commit %d", k)))
	}
	quick := []string{"--samples", "6", "--processes", "3", "--sample-time", "20ms", "--window", "100ms"}

	db := filepath.Join(t.TempDir(), "history.db")
	out, errs, code := runBinaryIn(t, dir, append([]string{"bisect", commits[1], commits[10], "--bench", "Work", "--format", "json", "--store", db}, quick...)...)
	t.Logf("exit %d\n%s%s", code, out, errs)
	var rep bisect.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the JSON: %v", err)
	}
	a := rep.Answer
	if code != ExitFailed || a.Verdict != bisect.Found {
		t.Fatalf("exit %d, verdict %v: want 1, found", code, a.Verdict)
	}
	// Commit k is index k-2 of the commits after GOOD (commit 1).
	if from, to := rep.Commits[a.From].Hash, rep.Commits[a.To].Hash; a.From > 4 || a.To < 4 {
		t.Errorf("answer %s..%s, want commit 6 (%s) in it", from, to, commits[6])
	}
	if a.From == a.To && rep.Commits[a.From].Hash != commits[6] {
		t.Errorf("named %s alone, want commit 6", rep.Commits[a.From].Hash)
	}
	measured := 0
	for _, st := range rep.Steps {
		switch {
		case rep.Commits[st.Commit].Hash == commits[8]:
			if st.Side != bisect.Skipped || !strings.Contains(st.Why, "does not build") {
				t.Errorf("commit 8 (does not build): %+v", st)
			}
		case st.Side == bisect.Skipped:
			t.Errorf("commit %s skipped: %s", rep.Commits[st.Commit].Short(), st.Why)
		default:
			measured++
		}
	}
	if measured > 5 { // log2(9) + 2, rounded down
		t.Errorf("%d commits measured, want at most 5", measured)
	}
	checkStored(t, db, rep)
	if wts := gitIn(t, dir, "worktree", "list"); strings.Count(wts, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wts)
	}

	// Identical code: no slowdown (at 20%, beyond what noise reaches with
	// these few samples), or, on a machine busier still, cannot judge;
	// never a commit.
	out, errs, code = runBinaryIn(t, dir, append([]string{"bisect", commits[1], commits[5], "--bench", "Work", "--threshold", "20%"}, quick...)...)
	if code != ExitOK && code != ExitCannotJudge || code == ExitOK && !strings.Contains(out, "no confirmed slowdown") ||
		strings.Contains(out, "first slow commit") || strings.Contains(out, "the slowdown is in") {
		t.Errorf("identical code: exit %d, want 0 and no commit\n%s%s", code, out, errs)
	}

	for _, b := range []struct {
		args []string
		want string
	}{
		{[]string{commits[10], commits[1]}, "is not an ancestor of BAD"},
		{[]string{"nosuch", commits[10]}, "GOOD nosuch: no such revision"},
		{[]string{commits[1], commits[10], "--bench", "NoSuch"}, "no benchmark"},
		// Several benchmarks are not walked together: the line names them.
		{[]string{commits[1], commits[10], "--bench", "."}, "matches 2 benchmarks in GOOD and BAD"},
	} {
		args := append(append([]string{"bisect"}, b.args...), quick...)
		if !strings.Contains(strings.Join(b.args, " "), "--bench") {
			args = append(args, "--bench", "Work")
		}
		_, errs, code := runBinaryIn(t, dir, args...)
		if code != ExitUsage || !strings.Contains(errs, b.want) {
			t.Errorf("%v: exit %d, want 2 naming %q\n%s", b.args, code, b.want, errs)
		}
	}
	if wts := gitIn(t, dir, "worktree", "list"); strings.Count(wts, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wts)
	}
}
