package toolcmd

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/sqlstore"
	"github.com/benchy-dev/benchy/internal/pipeline/gotestrun"
	"github.com/benchy-dev/benchy/internal/result"

	"github.com/benchy-dev/benchy/internal/cli"
)

// What check's flags become: the measuring flags only with --confirm
// (exit 2 without it), -C made absolute and checked to be a repository.
func TestHistoryCheckConfirmFlags(t *testing.T) {
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "commit", "-q", "--allow-empty", "-m", "one")
	var got *historyCheckOptions
	capture := func(o *historyCheckOptions) error { got = o; return nil }
	parse(t, newHistoryCheckCmd(&historyOptions{g: testGlobals()}, capture), "--confirm", "-C", dir, "--samples", "12",
		"--processes", "4", "--sample-time", "10ms", "--cpu", "1", "--threshold", "3%")
	if !got.Confirm || got.dir != dir || got.Samples != 12 || got.Processes != 4 || got.SampleTime != 10*time.Millisecond ||
		got.CPU != 1 || !got.CPUSet || got.Threshold != "3%" {
		t.Errorf("--confirm: %+v", got.confirmOptions)
	}
	got = nil
	parse(t, newHistoryCheckCmd(&historyOptions{g: testGlobals()}, capture), "--confirm", "--bisect", "-C", dir)
	if !got.Confirm || !got.Bisect {
		t.Errorf("--confirm --bisect: %+v", got.confirmOptions)
	}
	got = nil
	parse(t, newHistoryCheckCmd(&historyOptions{g: testGlobals()}, capture))
	if got.Confirm || got.Bisect || got.Samples != gotestSamples || got.Processes != gotestProcesses || got.SampleTime != gotestSampleTime || got.Dir != "." {
		t.Errorf("defaults: %+v", got.confirmOptions)
	}

	bad := []struct {
		args []string
		want string
	}{
		{[]string{"--samples", "5"}, "--samples is for --confirm"},
		{[]string{"--bisect"}, "--bisect is for --confirm"},
		{[]string{"-C", dir}, "--dir is for --confirm"},
		{[]string{"--confirm", "-C", t.TempDir()}, "not in a git repository"},
		{[]string{"--confirm", "-C", filepath.Join(dir, "nothing")}, "not a directory"},
		{[]string{"--confirm", "-C", dir, "--processes", "40", "--samples", "10"}, "--processes 40"},
	}
	for _, b := range bad {
		cmd := newHistoryCheckCmd(&historyOptions{g: testGlobals()}, capture)
		cmd.SetArgs(b.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if code := cli.ExitCode(err); code != cli.ExitUsage || err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%v: exit %d, %v; want exit 2 naming %q", b.args, code, err, b.want)
		}
	}
}

// The exit of --confirm, from what each step came to: a confirmed
// slowdown and a step that cannot be confirmed (run, exec) fail; a step
// the run did not confirm passes; one it could not judge is exit 4.
func TestHistoryConfirmExit(t *testing.T) {
	ser := history.Series{Key: history.Key{Benchmark: "Work", Machine: "m1"}, Basis: history.BasisTime, Unit: "ns",
		Commits: []history.Commit{{Source: history.Source{Commit: strings.Repeat("a", 40)}}, {Source: history.Source{Commit: strings.Repeat("b", 40)}}}}
	st := history.Step{At: 1, Before: 100, After: 300}
	row := func(verdict string, ratio float64) *compare.Row {
		return &compare.Row{Name: "Work", Pair: result.Pair{Verdict: verdict, Ratio: ratio, CILow: ratio - 0.01, CIHigh: ratio + 0.01, Level: 0.95}}
	}
	step := func(outcome string, r *compare.Row) confirmed {
		return confirmed{sus: sqlstore.Suspect{Series: ser, Step: st}, c: &gotestrun.Confirmation{Outcome: outcome, Row: r, Why: "why"}}
	}
	cannot := confirmed{sus: sqlstore.Suspect{Series: ser, Step: st, Why: "measured by benchy run"}}
	tests := []struct {
		name  string
		steps []confirmed
		short []string
		code  int
		out   []string
	}{
		{"confirmed", []confirmed{step(gotestrun.Confirmed, row(result.Slower, 3))}, nil, cli.ExitFailed,
			[]string{"Work on m1: confirmed, slower", "history      +200.0% at aaaaaaaaaaaa..bbbbbbbbbbbb", "interleaved  +200.0% (95% CI +199.0% to +201.0%): slower"}},
		{"not confirmed", []confirmed{step(gotestrun.NotConfirmed, row(result.NoDifference, 1.001))}, nil, cli.ExitOK,
			[]string{"Work on m1: not confirmed", "+200.0% at", "interleaved  +0.10%", "(1 step the history suspected not confirmed)"}},
		{"not judged", []confirmed{step(gotestrun.NotJudged, nil)}, nil, cli.ExitCannotJudge, []string{"Work on m1: could not judge\n", "  why          why\n"}},
		{"a short series", []confirmed{step(gotestrun.NotConfirmed, row(result.NoDifference, 1))}, []string{"X on m1 (2 commits)"}, cli.ExitCannotJudge, nil},
		{"cannot confirm", []confirmed{cannot, step(gotestrun.NotConfirmed, row(result.NoDifference, 1))}, nil, cli.ExitFailed,
			[]string{"Work on m1: cannot confirm\n", "  why          measured by benchy run\n"}},
		{"nothing suspected", nil, nil, cli.ExitOK, []string{"no step slower by more than 5% in 1 series"}},
		{"confirmed and bisected", []confirmed{bisectedStep(bisect.Answer{Verdict: bisect.Found, From: 2, To: 2, First: 2, Last: 2}, "")}, nil, cli.ExitFailed,
			[]string{"Work on m1: confirmed, slower", "  bisect\n    Work: 4 commits after aaaaaaaaaaaa (GOOD) up to 333333333333 (BAD)",
				"    first slow commit: 2222222222222222222222222222222222222222", "interleaved (history +200.0% at aaaaaaaaaaaa..bbbbbbbbbbbb), first slow commit 222222222222"}},
		{"bisected to a range", []confirmed{bisectedStep(bisect.Answer{Verdict: bisect.Found, From: 1, To: 2, First: -1, Last: 2, Skipped: []int{1}}, "")}, nil, cli.ExitFailed,
			[]string{"), in 2 commits 111111111111..222222222222"}},
		{"a bisection that ended early", []confirmed{bisectedStep(bisect.Answer{}, "GOOD does not build")}, nil, cli.ExitFailed,
			[]string{"  bisect       GOOD does not build\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := confirmExit(&out, tt.steps, tt.short, 1, 0.05)
			if code := cli.ExitCode(err); code != tt.code {
				t.Errorf("exit %d (%v), want %d", code, err, tt.code)
			}
			got := out.String()
			if err != nil {
				got += err.Error() // the last line
			}
			for _, w := range tt.out {
				if !strings.Contains(got, w) {
					t.Errorf("output lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

// bisectedStep is a confirmed step of Work whose bisection over four
// commits came to a (its steps: BAD, then commit 2), or ended early with
// why and no report.
func bisectedStep(a bisect.Answer, why string) confirmed {
	ser := history.Series{Key: history.Key{Benchmark: "Work", Machine: "m1"}, Basis: history.BasisTime, Unit: "ns",
		Commits: []history.Commit{{Source: history.Source{Commit: strings.Repeat("a", 40)}}, {Source: history.Source{Commit: strings.Repeat("b", 40)}}}}
	c := &gotestrun.Confirmation{Outcome: gotestrun.Confirmed, BisectWhy: why,
		Row: &compare.Row{Name: "Work", Pair: result.Pair{Verdict: result.Slower, Ratio: 3, CILow: 2.9, CIHigh: 3.1, Level: 0.95}}}
	if why == "" {
		r := bisect.Ratio{Value: 3, Low: 2.9, High: 3.1, Level: 0.95}
		rep := &bisect.Report{Good: bisect.Commit{Hash: strings.Repeat("a", 40)}, Threshold: 0.05, Runs: 2,
			Benchmarks: []bisect.Benchmark{{Name: "Work", Answer: a,
				Steps: []bisect.Step{{Commit: 3, Mid: r, Bad: r, Side: bisect.Slow, Attempts: 1}, {Commit: 2, Mid: r, Bad: r, Side: bisect.Slow, Attempts: 1}}}}}
		for k := range 4 {
			rep.Commits = append(rep.Commits, bisect.Commit{Hash: strings.Repeat(fmt.Sprint(k), 40), Subject: fmt.Sprintf("commit %d", k)})
		}
		c.Bisection = rep
	}
	return confirmed{sus: sqlstore.Suspect{Series: ser, Step: history.Step{At: 1, Before: 100, After: 300}}, c: c}
}

// A run stopped after its first step still says what that step and the
// steps that cannot be confirmed came to, and nothing of the steps it did
// not reach.
func TestHistoryConfirmReached(t *testing.T) {
	ser := history.Series{Key: history.Key{Benchmark: "Work", Machine: "m1"}, Basis: history.BasisTime, Unit: "ns",
		Commits: []history.Commit{{Source: history.Source{Commit: strings.Repeat("a", 40)}}, {Source: history.Source{Commit: strings.Repeat("b", 40)}}}}
	measured := confirmed{sus: sqlstore.Suspect{Series: ser, Step: history.Step{At: 1, Before: 100, After: 300}},
		c: &gotestrun.Confirmation{Outcome: gotestrun.Confirmed, Row: &compare.Row{Name: "Work", Pair: result.Pair{Verdict: result.Slower, Ratio: 3, CILow: 2.9, CIHigh: 3.1, Level: 0.95}}}}
	cannot := confirmed{sus: sqlstore.Suspect{Series: ser, Step: history.Step{At: 1, Before: 100, After: 150}, Why: "measured by benchy run"}}
	notReached := confirmed{sus: sqlstore.Suspect{Series: ser, Step: history.Step{At: 1, Before: 100, After: 400}}}
	got := reached([]confirmed{measured, notReached, cannot})
	if len(got) != 2 || got[0].c != measured.c || got[1].sus.Why != cannot.sus.Why {
		t.Fatalf("reached %+v, want the measured step and the one that cannot be confirmed", got)
	}
	var out bytes.Buffer
	writeConfirmed(&out, got)
	if s := out.String(); !strings.Contains(s, "Work on m1: confirmed, slower") || !strings.Contains(s, "cannot confirm") || strings.Contains(s, "+300.0%") {
		t.Errorf("output:\n%s\nwant the confirmed step and the one that cannot be, not the +300%% step never measured", s)
	}
}

// history check --confirm --bisect on a real repository whose history
// skips commits: Work does one pass over its data in commits 1-5 and ten
// from commit 6 on (a change far beyond any noise, even under two CPU
// hogs), and commit 5 does not build; results are stored at commits 1-4
// (one pass), 7-10 (three times slower) and 11-14, whose stored results
// say 20% slower still though the code did not change. The history sees
// two steps, 4..7 and 10..11; the interleaved runs must confirm the first
// and not the second, and only the first is bisected: over commits 5-7
// (GOOD is commit 4), taking over the confirmation's run as BAD's first
// reading, measuring commit 6 and stepping around commit 5, to the range
// 5..6, or commit 6 alone; never to another commit alone. (Commit 5 not
// building spares the walk an exact answer, whose two boundary commits
// are each measured three times: the walk itself is TestBisect's and
// internal/bisect's.)
func TestHistoryCheckConfirm(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and measures several revisions")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n", "work_test.go": againstBench})
	gitIn(t, dir, "init", "-q")
	commits := []string{""} // commits[k] is commit k
	for k := 1; k <= 14; k++ {
		passes := 1
		if k >= 6 {
			passes = 10
		}
		extra := ""
		if k == 5 {
			extra = "\nfunc broken() int { return undefined }\n"
		}
		files := map[string]string{"work.go": workSource(passes, extra), "NOTES": fmt.Sprintf("commit %d\n", k)}
		commits = append(commits, commitFiles(t, dir, files, fmt.Sprintf("commit %d", k)))
	}
	store := filepath.Join(t.TempDir(), "h.db")
	files := t.TempDir()
	for _, k := range []int{1, 2, 3, 4, 7, 8, 9, 10, 11, 12, 13, 14} {
		factor := 1.0
		switch {
		case k >= 11:
			factor = 3.6 // the code of commit 10, said to be slower
		case k >= 7:
			factor = 3
		}
		p := filepath.Join(files, fmt.Sprintf("r%02d.json", k))
		writeScaledGotest(t, p, factor*(1+0.003*math.Sin(float64(7*k))))
		if _, errs, code := runHistory("import", "--store", store, "--commit", commits[k], "--time", fmt.Sprintf("@%d", 1700000000+k*86400), p); code != 0 {
			t.Fatalf("import: exit %d: %s", code, errs)
		}
	}
	real := history.Short(commits[4]) + ".." + history.Short(commits[7])
	fake := history.Short(commits[10]) + ".." + history.Short(commits[11])
	out, errs, code := runHistory("check", "--store", store)
	if code != cli.ExitFailed || !strings.Contains(out, real) || !strings.Contains(out, fake) {
		t.Fatalf("the history should show both steps: exit %d\n%s%s", code, out, errs)
	}

	// A tenfold change needs few short samples to be told; three
	// processes a side give a spread.
	out, errs, code = runBinaryIn(t, dir, "history", "check", "--confirm", "--bisect", "--store", store, "--samples", "6", "--processes", "3",
		"--sample-time", "10ms", "--window", "100ms")
	t.Logf("exit %d\n%s%s", code, out, errs)
	blocks := map[string]string{} // by commit range: the block's first line
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "  history ") && i > 0 {
			for _, r := range []string{real, fake} {
				if strings.Contains(l, r) {
					blocks[r] = lines[i-1]
				}
			}
		}
	}
	// On a machine busier than two CPU hogs the interleaved run may be
	// unable to judge even a tenfold change (it says why, and the exit
	// is 4); it must never call it "not confirmed", nor confirm the step
	// of identical code.
	realOK := strings.HasSuffix(blocks[real], ": confirmed, slower")
	if !realOK && !strings.HasSuffix(blocks[real], ": could not judge") {
		t.Errorf("the step of ten passes for one: %q, want confirmed", blocks[real])
	}
	if b := blocks[fake]; b == "" || strings.Contains(b, ": confirmed") {
		t.Errorf("the step of identical code: %q, want not confirmed (or not judged)", b)
	}
	switch {
	case realOK && (code != cli.ExitFailed || !strings.Contains(errs, "1 step slower by more than 5%")):
		t.Errorf("exit %d, want 1 naming one step\n%s", code, errs)
	case !realOK && code != cli.ExitCannotJudge:
		t.Errorf("exit %d with no step confirmed and one not judged, want 4", code)
	}
	if strings.Count(out, "\n  interleaved  ") != 2 {
		t.Errorf("not both steps with the interleaved run's figures:\n%s", out)
	}
	if realOK {
		checkConfirmBisected(t, out, errs, commits)
	} else {
		t.Log("the machine was too busy to judge even a tenfold change: nothing was bisected")
	}
	// No worktree is left behind.
	if wts := gitIn(t, dir, "worktree", "list"); strings.Count(wts, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wts)
	}
}

// checkConfirmBisected checks the bisection of TestHistoryCheckConfirm's
// confirmed step, commits 4..7 with commit 6 the first slow one and
// commit 5 not building: made under that step alone (the step of
// identical code, not confirmed, is not bisected), over the step's
// commits, from the confirmation's run (BAD not measured again), to
// commit 6 or a range that holds it.
func checkConfirmBisected(t *testing.T, out, errs string, commits []string) {
	t.Helper()
	if n := strings.Count(out, "\n  bisect\n"); n != 1 {
		t.Fatalf("%d steps bisected, want the confirmed one:\n%s", n, out)
	}
	// The walk is over commits 5-7 (GOOD is commit 4); its answer is
	// commit 6 alone, or a range from 5 or 6 to 6 or 7.
	six := history.Short(commits[6])
	exact := strings.Contains(errs, "first slow commit "+six)
	ranged := false
	for _, from := range []int{5, 6} {
		for to := 6; to <= 7; to++ {
			ranged = ranged || strings.Contains(errs, fmt.Sprintf("commits %s..%s", history.Short(commits[from]), history.Short(commits[to])))
		}
	}
	if !exact && !ranged {
		t.Errorf("the last line names no answer holding commit 6 (%s):\n%s", six, errs)
	}
	if !strings.Contains(out, "3 commits after "+history.Short(commits[4])+" (GOOD) up to "+history.Short(commits[7])) {
		t.Errorf("the bisection is not over the step's commits, %s..%s:\n%s", history.Short(commits[4]), history.Short(commits[7]), out)
	}
	if strings.Contains(errs, "benchy: measuring BAD") || !strings.Contains(errs, "the confirmation's interleaved run, not measured again") {
		t.Errorf("the walk measured BAD against GOOD again, after the confirmation:\n%s", errs)
	}
}

// writeScaledGotest writes the recorded gotest result of Work
// (example.com/work) with every sample taking factor times as long.
func writeScaledGotest(t *testing.T, path string, factor float64) {
	t.Helper()
	r, err := result.Load(compareFile("gotest-old.json"))
	if err != nil {
		t.Fatal(err)
	}
	e := r.Find("Work")
	if e == nil {
		t.Fatal(errors.New("no Work in gotest-old.json"))
	}
	for j := range e.Samples {
		s := &e.Samples[j]
		s.Ns = int64(float64(s.Ns) * factor)
		for c, v := range s.Counters {
			if strings.HasSuffix(c, "-ns") { // the on-CPU times and the run delays
				s.Counters[c] = int64(float64(v) * factor)
			}
		}
	}
	var b bytes.Buffer
	if err := result.Encode(&b, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commitFiles writes files into the repository dir, commits them all with
// message, and returns the commit's hash.
func commitFiles(t *testing.T, dir string, files map[string]string, message string) string {
	t.Helper()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", message)
	return strings.TrimSpace(gitIn(t, dir, "rev-parse", "HEAD"))
}
