package gotestrun

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

// A step passes as not confirmed only when the interleaved run rules out
// a slowdown beyond the threshold.
func TestConfirmOutcome(t *testing.T) {
	row := func(verdict string, lo, hi float64) compare.Row {
		return compare.Row{Pair: result.Pair{Verdict: verdict, CILow: lo, CIHigh: hi, Threshold: 0.05}}
	}
	for _, tt := range []struct {
		name string
		row  compare.Row
		want string
	}{
		{"claimed slower", row(result.Slower, 1.08, 1.12), Confirmed},
		{"ruled out", row(result.NoDifference, 0.98, 1.03), NotConfirmed},
		{"faster", row(result.Faster, 0.8, 0.9), NotConfirmed},
		{"significant, reaching back within the threshold", row(result.NoDifference, 1.03, 1.09), NotJudged},
		{"too wide to tell", row(result.NoDifference, 0.9, 1.2), NotJudged},
		{"inconclusive", row(result.Inconclusive, 0.9, 1.2), NotJudged},
	} {
		if got, why := outcome(tt.row); got != tt.want {
			t.Errorf("%s: %s (%s), want %s", tt.name, got, why, tt.want)
		}
	}
}

// sided is one interleaved run of Work holding each of stepRuns' builds
// as the experiment of its side: sides[k] at levels[k] ns/op.
func sided(seed uint64, sides []string, levels ...float64) *result.Result {
	rs := stepRuns(seed, levels...)
	r := *rs[0]
	r.Experiments = nil
	for k, x := range rs {
		e := x.Experiments[0]
		e.Side = sides[k]
		r.Experiments = append(r.Experiments, e)
	}
	return &r
}

// The walk of a confirmed step takes over the confirmation's pair: GOOD
// and BAD are not built or calibrated again, and the confirmation's run
// is the first reading of BAD against GOOD, not measured again; BAD
// measured again later is measured anew, pooled with that reading. Where
// the confirmation is not what the walk would do, the walk builds and
// measures the pair itself.
func TestBisectTakesOverTheConfirmation(t *testing.T) {
	good, bad := bisect.Commit{Hash: "g00d"}, bisect.Commit{Hash: "bad0"}
	commits := []bisect.Commit{{Hash: "c1"}, {Hash: "c2"}, {Hash: "c3"}, bad}
	confirmation := func(layouts int, newCommit string) *pairRun {
		w := &gotestWork{p: GoTestPlan{Layouts: layouts},
			wt: &gotest.Worktree{Commit: good.Hash}, nwt: &gotest.Worktree{Commit: newCommit},
			olds: []*side{{label: "old"}}, curs: []*side{{label: "new"}},
			calibrated: [2][]*gotest.Target{gotestTargets(100, "Work"), gotestTargets(100, "Work")},
			topts:      gotest.Options{CPU: 1}}
		return &pairRun{w: w, run: sided(1, []string{result.SideOld, result.SideNew}, 100, 130)}
	}
	for _, tt := range []struct {
		name        string
		pair        *pairRun
		builds, run int // of GOOD and BAD, and runs, at the first step
	}{
		{"taken over", confirmation(0, bad.Hash), 0, 0},
		{"no confirmation", nil, 2, 1},
		{"nothing measured", &pairRun{w: confirmation(0, bad.Hash).w}, 2, 1},
		{"other commits", confirmation(0, "c3"), 2, 1},
		{"layouts", confirmation(4, bad.Hash), 2, 1},
	} {
		var notes strings.Builder
		builds, runs := map[string]int{}, 0
		calibrations := map[*side]int{}
		b := &bisectRun{ctx: context.Background(),
			p:    BisectPlan{GoTest: GoTestPlan{Plan: pipeline.Plan{Settings: result.Settings{Samples: 18}}, Processes: 3, Notes: &notes}, Threshold: 0.01},
			good: good, commits: commits, builds: map[string]built{},
			buildF: func(commit string) (*side, error) {
				builds[commit]++
				return &side{label: commit}, nil
			},
			calibrateF: func(_ context.Context, s *side, o gotest.Options) ([]*gotest.Target, error) {
				calibrations[s]++
				return gotestTargets(100, "Work"), nil
			},
		}
		b.runF = func(_ context.Context, plan pipeline.Plan, _ []pipeline.Target) (*result.Result, error) {
			runs++
			ts, err := plan.Prepare(context.Background(), 1)
			if err != nil {
				return nil, err
			}
			var sides []string
			for _, x := range ts {
				sides = append(sides, x.(*gotest.Target).Side)
			}
			return sided(uint64(runs+1), sides, []float64{100, 130, 100}[:len(sides)]...), nil
		}
		b.takeOver(tt.pair)

		first, err := b.measure(3, nil)
		if err != nil || len(first) != 1 || first[0].Side != bisect.Slow {
			t.Fatalf("%s: BAD at +30%%: %+v, %v; want slow", tt.name, first, err)
		}
		if got := builds[good.Hash] + builds[bad.Hash]; got != tt.builds || runs != tt.run || b.runs != 1 {
			t.Errorf("%s: GOOD and BAD built %d times, %d runs measured; want %d and %d", tt.name, got, runs, tt.builds, tt.run)
		}
		if taken := strings.Contains(notes.String(), "the confirmation's interleaved run"); taken != (tt.run == 0) {
			t.Errorf("%s: notes %q", tt.name, notes.String())
		}
		if _, err := b.measure(1, []bisect.Need{{Bench: 0}}); err != nil {
			t.Fatal(err)
		}
		again, err := b.measure(3, []bisect.Need{{Bench: 0, Attempt: 1}})
		if err != nil || len(again) != 1 {
			t.Fatal(err)
		}
		f := b.followed[0]
		if runs != tt.run+2 || len(f.bads) != 3 || builds[good.Hash]+builds[bad.Hash] != tt.builds || builds["c2"] != 1 {
			t.Errorf("%s: after two more steps %d runs, BAD's readings %d, builds %v; want %d, 3, the commit's alone", tt.name, runs, len(f.bads), builds, tt.run+2)
		}
		want := 0
		if tt.pair == nil || tt.run > 0 {
			want = 1
		}
		for s, n := range calibrations {
			if s.label != "c2" && n != want {
				t.Errorf("%s: %s calibrated %d times, want %d", tt.name, s.label, n, want)
			}
		}
	}
}

// A step between two commits that run the same program (a comment moved
// the code's lines) is not confirmed, and not measured: no run could tell
// them apart. Both are built, each in a worktree of its own.
func TestConfirmSameProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two commits")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=a", "-c", "user.email=a@example.com"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	const work = "package work\n\n// Work sums xs.\nfunc Work(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n"
	files := map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n", "work.go": work,
		"work_test.go": "package work\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkWork(b *testing.B) {\n\tfor b.Loop() {\n\t\tsink = Work([]int{1, 2, 3})\n\t}\n}\n"}
	git("init", "-q")
	var commits []string
	for _, src := range []string{work, "// Package work works.\n" + work} {
		files["work.go"] = src
		for name, s := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", ".")
		git("commit", "-q", "-m", "work")
		commits = append(commits, git("rev-parse", "HEAD"))
	}
	var notes strings.Builder
	cs, err := Confirm(context.Background(), ConfirmPlan{GoTest: GoTestPlan{Dir: dir, Notes: &notes, Processes: 2, SampleTime: time.Millisecond,
		Plan: pipeline.Plan{Settings: result.Settings{Samples: 2}}},
		Threshold: 0.05, Steps: []ConfirmStep{{Package: ".", Bench: "BenchmarkWork", Name: "Work", Before: commits[0], After: commits[1]}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Outcome != NotConfirmed || !strings.Contains(cs[0].Why, "same program") || cs[0].Row != nil {
		t.Errorf("%+v, want not confirmed, the same program, nothing measured\n%s", cs, notes.String())
	}
}
