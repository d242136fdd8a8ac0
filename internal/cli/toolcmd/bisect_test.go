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

// bisect on a repository of its own, five commits after GOOD (commit 1):
// Work does one pass over its data in commits 1-3 and ten from commit 4
// on; commit 3's init panics (its test binary cannot list its
// benchmarks), commit 4 does not build, and commit 5 mends it. Ten
// times: under two CPU hogs a test binary's time off the CPU, which it
// does not count, may distort a side up to 2x, and BAD three times slower
// read 2.62x (1.76x to 3.92x): a walk rightly could not judge it. The
// walk comes to commit 4 and steps around it, skips commit 3 for its
// panic, and measures commit 2, fast, and commit 5, slow: the slowdown is
// in commits 3-5, the first two skipped. --bench .
// follows two benchmarks in one walk: Work must be found in a range that
// holds commit 5, never another commit alone; Flat, whose code no commit
// changes, is dropped after BAD's measurement (identical code gives no
// commit), and BAD is measured once for both. Every commit measured is
// stored, no worktree is left behind, and bad revisions exit 2. (Several
// benchmarks walked apart are TestDriveAll's; a commit that does not build
// said once to the walks of two, TestBisectUnbuiltCommitSaidOnce's; the
// exit of a walk that finds no slowdown, TestBisectExit's; a --bench that
// matches nothing, internal/pipeline/gotestrun's TestBisectNoBenchmark's.)
func TestBisect(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and measures several revisions")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n", "work_test.go": againstBench,
		"flat_test.go": "package work\n\nimport \"testing\"\n\nfunc BenchmarkFlat(b *testing.B) {\n\tfor b.Loop() {\n\t\ts := 0\n\t\tfor _, x := range data {\n\t\t\ts += x\n\t\t}\n\t\tsink = s\n\t}\n}\n"})
	gitIn(t, dir, "init", "-q")
	commits := []string{""} // commits[k] is commit k
	for k, src := range []string{
		workSource(1, ""),
		workSource(1, ""),
		workSource(1, "\nfunc init() { panic(\"no configuration\") }\n"),
		workSource(10, "\nfunc broken() int { return undefined }\n"),
		workSource(10, ""),
		workSource(10, ""),
	} {
		// NOTES makes each commit's program its own: none is taken for
		// another's twin and left unmeasured.
		files := map[string]string{"work.go": src, "NOTES": fmt.Sprintf("commit %d\n", k+1)}
		commits = append(commits, commitFiles(t, dir, files, fmt.Sprintf("commit %d", k+1)))
	}
	// Three processes a side: a commit's position is judged at 99.3%
	// (bisect.PositionLevel), which two processes' spread seldom reaches in
	// one attempt. Short samples: every build runs at GOOD's N, so a slow
	// commit's samples are ten times as long.
	quick := []string{"--samples", "6", "--processes", "3", "--sample-time", "1ms", "--window", "100ms"}

	db := filepath.Join(t.TempDir(), "history.db")
	// At 50%, far below the +900% of commit 4, Flat is not misread as
	// slower on a busy machine, and is told not slower in few attempts.
	out, errs, code := runBinaryIn(t, dir, append([]string{"bisect", commits[1], commits[6], "--bench", ".", "--threshold", "50%", "--format", "json", "--store", db}, quick...)...)
	t.Logf("exit %d\n%s%s", code, out, errs)
	var rep bisect.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the JSON: %v", err)
	}
	if code != cli.ExitFailed || len(rep.Benchmarks) != 2 {
		t.Fatalf("exit %d, %d benchmarks: want 1, two", code, len(rep.Benchmarks))
	}
	// A commit that does not build, or cannot be calibrated, is said, once,
	// and not run.
	unbuilt := map[int]bool{}
	for _, bm := range rep.Benchmarks {
		for _, st := range bm.Steps {
			if st.Side == bisect.Skipped && !couldNotJudge(st) {
				unbuilt[st.Commit] = true
			}
		}
	}
	if said := strings.Count(errs, "benchy: measuring "); rep.Runs+len(unbuilt) != said || strings.Count(errs, "against GOOD "+rep.Good.Short()+", interleaved\n") != 1 {
		t.Errorf("%d runs and %d commits skipped, %d said: want one each, BAD's first for both at once", rep.Runs, len(unbuilt), said)
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

	for _, b := range []struct {
		args []string
		want string
	}{
		{[]string{commits[6], commits[1]}, "is not an ancestor of BAD"},
		{[]string{"nosuch", commits[6]}, "GOOD nosuch: no such revision"},
	} {
		args := append(append([]string{"bisect"}, b.args...), quick...)
		_, errs, code := runBinaryIn(t, dir, append(args, "--bench", "Work")...)
		if code != cli.ExitUsage || !strings.Contains(errs, b.want) {
			t.Errorf("%v: exit %d, want 2 naming %q\n%s", b.args, code, b.want, errs)
		}
	}
	if wts := gitIn(t, dir, "worktree", "list"); strings.Count(wts, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wts)
	}
}

// couldNotJudge says a step was measured and left unjudged, not skipped
// unmeasured (a commit that does not build).
func couldNotJudge(st bisect.Step) bool {
	return st.Side == bisect.Skipped && strings.HasPrefix(st.Why, "could not judge")
}

// checkWalk checks TestBisect's walk of Work, which commit 4 made ten
// times slower and commit 5 the first to build so: found, commit 5 in the
// answer, never another commit alone, commit 4 stepped around as not
// building, commit 3 skipped for its panic, and three commits measured
// (BAD, 5 and 2) when every reading was decided at once.
func checkWalk(t *testing.T, rep bisect.Report, bm bisect.Benchmark, commits []string) {
	t.Helper()
	a := bm.Answer
	if a.Verdict != bisect.Found {
		t.Fatalf("%s: verdict %v, want found", bm.Name, a.Verdict)
	}
	// Commit k is index k-2 of the commits after GOOD (commit 1).
	if from, to := rep.Commits[a.From].Hash, rep.Commits[a.To].Hash; a.From > 3 || a.To < 3 {
		t.Errorf("%s: answer %s..%s, want commit 5 (%s) in it", bm.Name, from, to, commits[5])
	}
	if a.From == a.To && rep.Commits[a.From].Hash != commits[5] {
		t.Errorf("%s: named %s alone, want commit 5", bm.Name, rep.Commits[a.From].Hash)
	}
	measured, broken, panicked, again := 0, false, false, false
	for _, st := range bm.Steps {
		again = again || st.Attempts > 1
		switch {
		case rep.Commits[st.Commit].Hash == commits[4]:
			broken = true
			if st.Side != bisect.Skipped || !strings.Contains(st.Why, "does not build") {
				t.Errorf("commit 4 (does not build): %+v", st)
			}
		case rep.Commits[st.Commit].Hash == commits[3]:
			panicked = true
			if st.Side != bisect.Skipped || !strings.Contains(st.Why, "cannot be calibrated") || !strings.Contains(st.Why, "no configuration") {
				t.Errorf("commit 3 (its init panics): %+v, want it skipped with its panic", st)
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
	// A reading the machine left undecided, or one that contradicted
	// another, is measured again, and the walk around it may measure a
	// commit more (seen with the other packages' tests beside it).
	switch {
	case measured > 3 && !again:
		t.Errorf("%s: %d commits measured, each read once, want 3", bm.Name, measured)
	case measured > 3:
		t.Logf("%s: %d commits measured, some read again", bm.Name, measured)
	}
	if !broken || !panicked {
		t.Errorf("%s: the walk came to commit 4, which does not build: %v; to commit 3, which panics: %v; want both", bm.Name, broken, panicked)
	}
}

// The exit of a bisection follows the worst answer over its benchmarks,
// and the last line names each slowdown found: 1 when one was found (in
// one commit or a range), else 4 when one cannot be judged, else 0 (no
// slowdown, as for identical code).
func TestBisectExit(t *testing.T) {
	rep := func(answers ...bisect.Answer) *bisect.Report {
		r := &bisect.Report{Good: bisect.Commit{Hash: strings.Repeat("a", 40)}, Threshold: 0.2}
		for k := range 4 {
			r.Commits = append(r.Commits, bisect.Commit{Hash: strings.Repeat(fmt.Sprint(k), 40)})
		}
		for k, a := range answers {
			r.Benchmarks = append(r.Benchmarks, bisect.Benchmark{Name: []string{"Work", "Flat"}[k], Answer: a})
		}
		return r
	}
	none := bisect.Answer{Verdict: bisect.NoSlowdown, First: -1, Last: -1}
	cannot := bisect.Answer{Verdict: bisect.CannotJudge, First: -1, Last: -1}
	for _, tt := range []struct {
		name string
		rep  *bisect.Report
		code int
		msg  string
	}{
		{"no slowdown", rep(none, none), cli.ExitOK, ""},
		{"one commit", rep(bisect.Answer{Verdict: bisect.Found, From: 2, To: 2, First: 2, Last: 2}, none), cli.ExitFailed,
			"bisect: commit 222222222222 made Work slower by more than 20%"},
		{"a range", rep(bisect.Answer{Verdict: bisect.Found, From: 1, To: 3, First: -1, Last: -1, Skipped: []int{1, 2}}, cannot), cli.ExitFailed,
			"bisect: 3 commits 111111111111..333333333333 made Work slower by more than 20%"},
		{"cannot judge", rep(none, cannot), cli.ExitCannotJudge, "bisect: cannot judge whether BAD is slower than GOOD for Flat (exit 4)"},
	} {
		err := bisectExit(tt.rep)
		if code := cli.ExitCode(err); code != tt.code || err != nil && err.Error() != tt.msg {
			t.Errorf("%s: exit %d, %v; want %d, %q", tt.name, code, err, tt.code, tt.msg)
		}
	}
}
