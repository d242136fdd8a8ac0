package toolcmd

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
	"github.com/benchy-dev/benchy/internal/history/sqlstore"

	"github.com/benchy-dev/benchy/internal/cli"
)

// What bisect's flags become, and every bad one: exit 2 with one line
// that names the valid choices.
func TestBisectFlags(t *testing.T) {
	var got *bisectOptions
	capture := func(o *bisectOptions) error { got = o; return nil }
	parse(t, newBisectCmd(testGlobals(), capture), "v1", "main", "--bench", "Parse$", "./parser", "--samples", "12",
		"--processes", "4", "--sample-time", "10ms", "--threshold", "3%", "--retries", "1", "--format", "markdown", "--", "-tags", "x")
	if got.Good != "v1" || got.Bad != "main" || got.Bench != "Parse$" || len(got.Packages) != 1 || got.Packages[0] != "./parser" ||
		got.Samples != 12 || got.Processes != 4 || got.SampleTime != 10*time.Millisecond || got.Value != 0.03 ||
		got.Retries != 1 || got.Format != "markdown" || strings.Join(got.BuildFlags, " ") != "-tags x" {
		t.Errorf("options: %+v", got)
	}
	got = nil
	parse(t, newBisectCmd(testGlobals(), capture), "a", "b", "--bench", "X")
	notDir := filepath.Join(t.TempDir(), "file") // a store under it cannot be opened
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got.Packages[0] != "." || got.Value != 0.05 || got.Retries != bisectRetries || got.Samples != gotestSamples || got.Format != "text" {
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
		if code := cli.ExitCode(err); code != cli.ExitUsage || err == nil || !strings.Contains(err.Error(), b.want) || strings.Contains(err.Error(), "\n") {
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

// checkStored checks that the history at db holds a point of benchmark
// bm at GOOD, at BAD and at every commit rep measured for it, and at no
// other commit, each with the commit's time; and that history show
// draws them.
func checkStored(t *testing.T, db string, rep bisect.Report, bm bisect.Benchmark) {
	t.Helper()
	want := map[string]bool{rep.Good.Hash: true}
	for _, st := range bm.Steps {
		if st.Side != bisect.Skipped || couldNotJudge(st) {
			want[rep.Commits[st.Commit].Hash] = true
		}
	}
	want[rep.Commits[len(rep.Commits)-1].Hash] = true
	a, err := history.ParseAddress(db)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sqlstore.Open(context.Background(), a)
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
		if r.Benchmark == bm.Name && r.Basis == history.BasisTime {
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
	if code != cli.ExitOK || !strings.Contains(out, `"`+bm.Name+`"`) {
		t.Errorf("history show: exit %d\n%s%s", code, out, errs)
	}
}

// A commit whose test binary cannot list its benchmarks (its init
// panics) is skipped with the reason, and the walk goes on: GOOD, the
// panicking commit, then BAD ten times slower give the range of the two,
// the first skipped, in a report that is written. Ten times: under two
// CPU hogs a test binary's time off the CPU, which it does not count,
// may distort a side up to 2x, and BAD three times slower read 2.62x
// (1.76x to 3.92x): the walk rightly could not judge it.
func TestBisectSkipsABinaryThatPanics(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and measures several revisions")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n", "work_test.go": againstBench})
	gitIn(t, dir, "init", "-q")
	var commits []string
	for k, src := range []string{workSource(1, ""), workSource(1, "\nfunc init() { panic(\"no configuration\") }\n"), workSource(10, "")} {
		if err := os.WriteFile(filepath.Join(dir, "work.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		gitIn(t, dir, "add", ".")
		gitIn(t, dir, "commit", "-q", "-m", fmt.Sprintf("commit %d", k+1))
		commits = append(commits, strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD")))
	}
	out, errs, code := runBinaryIn(t, dir, "bisect", commits[0], commits[2], "--bench", "Work", "--format", "json",
		"--samples", "6", "--processes", "2", "--sample-time", "5ms", "--window", "100ms")
	t.Logf("exit %d\n%s%s", code, out, errs)
	var rep bisect.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the JSON: %v", err)
	}
	if len(rep.Benchmarks) != 1 {
		t.Fatalf("%d benchmarks, want Work alone", len(rep.Benchmarks))
	}
	bm := rep.Benchmarks[0]
	a := bm.Answer
	if code != cli.ExitFailed || a.Verdict != bisect.Found || a.From != 0 || a.To != 1 || len(a.Skipped) != 1 || a.Skipped[0] != 0 {
		t.Errorf("exit %d, answer %+v: want 1, the range of both commits, the first skipped", code, a)
	}
	if len(bm.Steps) != 2 || bm.Steps[1].Side != bisect.Skipped ||
		!strings.Contains(bm.Steps[1].Why, "cannot be calibrated") || !strings.Contains(bm.Steps[1].Why, "no configuration") {
		t.Errorf("steps %+v: want BAD, then commit 2 skipped with its panic", bm.Steps)
	}
}

// bisect on a repository of its own: Work does one pass over its data in
// commits 1-5 and three from commit 6 on (a change far beyond any noise,
// even under two CPU hogs, so a few short samples tell it); commit 7,
// where the walk goes after finding commit 5 fast, does not build, and
// commit 8 mends it. --bench . follows three benchmarks in one walk:
// Work and Sum (which calls Work) must each name commit 6, or a range
// that holds it, never another commit alone, in at most log2(9)+2
// measured commits besides the one skipped; Flat, which no commit
// changes, is dropped after BAD's measurement, and BAD is measured once
// for all three. No worktree is left behind. GOOD..BAD with no change in
// the code finds no slowdown; bad revisions exit 2.
func TestBisect(t *testing.T) {
	t.Parallel()
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
		"sum_test.go": "package work\n\nimport \"testing\"\n\nfunc BenchmarkSum(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = Work(data[:10])\n\t}\n}\n" +
			"\nfunc BenchmarkFlat(b *testing.B) {\n\tfor b.Loop() {\n\t\ts := 0\n\t\tfor _, x := range data {\n\t\t\ts += x\n\t\t}\n\t\tsink = s\n\t}\n}\n"})
	gitIn(t, dir, "init", "-q")
	commits := []string{""} // commits[k] is commit k
	for k := 1; k <= 10; k++ {
		passes := 1
		if k >= 6 {
			passes = 3
		}
		files := map[string]string{"work.go": work(passes, k == 7), "NOTES": fmt.Sprintf("commit %d\n", k)}
		commits = append(commits, commitFiles(t, dir, files, fmt.Sprintf("commit %d", k)))
	}
	quick := []string{"--samples", "6", "--processes", "2", "--sample-time", "5ms", "--window", "100ms"}

	db := filepath.Join(t.TempDir(), "history.db")
	// At 20%, far below the +200% of commit 6, Flat is not misread as
	// slower on a busy machine.
	out, errs, code := runBinaryIn(t, dir, append([]string{"bisect", commits[1], commits[10], "--bench", ".", "--threshold", "20%", "--format", "json", "--store", db}, quick...)...)
	t.Logf("exit %d\n%s%s", code, out, errs)
	var rep bisect.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the JSON: %v", err)
	}
	if code != cli.ExitFailed || len(rep.Benchmarks) != 3 {
		t.Fatalf("exit %d, %d benchmarks: want 1, three", code, len(rep.Benchmarks))
	}
	// A commit that does not build is said, once for every benchmark, and
	// not run.
	unbuilt := map[int]bool{}
	for _, bm := range rep.Benchmarks {
		for _, st := range bm.Steps {
			if st.Side == bisect.Skipped && !couldNotJudge(st) {
				unbuilt[st.Commit] = true
			}
		}
	}
	if said := strings.Count(errs, "benchy: measuring "); rep.Runs+len(unbuilt) != said || strings.Count(errs, "against GOOD "+rep.Good.Short()+", interleaved\n") != 1 {
		t.Errorf("%d runs and %d commits skipped, %d said: want one each, BAD's first for all three at once", rep.Runs, len(unbuilt), said)
	}
	for _, bm := range rep.Benchmarks {
		if bm.Name == "Flat" {
			if v := bm.Answer.Verdict; v == bisect.Found || len(bm.Steps) != 1 {
				t.Errorf("Flat: %v after %d steps, want BAD's step alone", v, len(bm.Steps))
			}
			continue
		}
		checkWalk(t, rep, bm, commits)
	}
	checkStored(t, db, rep, rep.Benchmarks[0])
	if wts := gitIn(t, dir, "worktree", "list"); strings.Count(wts, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wts)
	}

	// Identical code: no slowdown (at 20%, beyond what noise reaches with
	// these few samples), or, on a machine busier still, cannot judge;
	// never a commit.
	out, errs, code = runBinaryIn(t, dir, append([]string{"bisect", commits[1], commits[5], "--bench", "Work", "--threshold", "20%"}, quick...)...)
	if code != cli.ExitOK && code != cli.ExitCannotJudge || code == cli.ExitOK && !strings.Contains(out, "no confirmed slowdown") ||
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
	} {
		args := append(append([]string{"bisect"}, b.args...), quick...)
		if !strings.Contains(strings.Join(b.args, " "), "--bench") {
			args = append(args, "--bench", "Work")
		}
		_, errs, code := runBinaryIn(t, dir, args...)
		if code != cli.ExitUsage || !strings.Contains(errs, b.want) {
			t.Errorf("%v: exit %d, want 2 naming %q\n%s", b.args, code, b.want, errs)
		}
	}
	if wts := gitIn(t, dir, "worktree", "list"); strings.Count(wts, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wts)
	}
}

// checkWalk checks the walk of a benchmark commit 6 made three times
// slower: found, commit 6 in the answer, never another commit alone,
// commit 7 stepped around as not building, and at most log2(9)+2 commits
// measured.
// couldNotJudge says a step was measured and left unjudged, not skipped
// unmeasured (a commit that does not build).
func couldNotJudge(st bisect.Step) bool {
	return st.Side == bisect.Skipped && strings.HasPrefix(st.Why, "could not judge")
}

func checkWalk(t *testing.T, rep bisect.Report, bm bisect.Benchmark, commits []string) {
	t.Helper()
	a := bm.Answer
	if a.Verdict != bisect.Found {
		t.Fatalf("%s: verdict %v, want found", bm.Name, a.Verdict)
	}
	// Commit k is index k-2 of the commits after GOOD (commit 1).
	if from, to := rep.Commits[a.From].Hash, rep.Commits[a.To].Hash; a.From > 4 || a.To < 4 {
		t.Errorf("%s: answer %s..%s, want commit 6 (%s) in it", bm.Name, from, to, commits[6])
	}
	if a.From == a.To && rep.Commits[a.From].Hash != commits[6] {
		t.Errorf("%s: named %s alone, want commit 6", bm.Name, rep.Commits[a.From].Hash)
	}
	measured, broken, again := 0, false, false
	for _, st := range bm.Steps {
		again = again || st.Attempts > 1
		switch {
		case rep.Commits[st.Commit].Hash == commits[7]:
			broken = true
			if st.Side != bisect.Skipped || !strings.Contains(st.Why, "does not build") {
				t.Errorf("commit 7 (does not build): %+v", st)
			}
		case couldNotJudge(st):
			// Measured, and the machine left it unjudged: the walk goes
			// on around it (seen under two CPU hogs at 3 samples a
			// process).
			t.Logf("commit %s: %s", rep.Commits[st.Commit].Short(), st.Why)
			measured++
		case st.Side == bisect.Skipped:
			t.Errorf("commit %s skipped: %s", rep.Commits[st.Commit].Short(), st.Why)
		default:
			measured++
		}
	}
	// log2(9) + 2, rounded down, when every reading was decided at once.
	// A reading the machine left undecided, or one that contradicted
	// another, is measured again, and the walk around it may measure a
	// commit more (seen with the other packages' tests beside it).
	switch {
	case measured > 5 && !again:
		t.Errorf("%s: %d commits measured, each read once, want at most 5", bm.Name, measured)
	case measured > 5:
		t.Logf("%s: %d commits measured, some read again", bm.Name, measured)
	}
	// GOOD is commit 1 and BAD commit 10: the middle of commits 2-9 is
	// commit 5, fast; the middle of commits 6-9 is commit 7.
	if !broken {
		t.Errorf("%s: the walk never came to commit 7, which does not build", bm.Name)
	}
}
