package gotestrun

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

// A comparison without a verdict that places the commit is measured again
// when more runs may tell (a busy machine made it inconclusive, or the
// interval still reaches past the threshold), and skipped when they
// cannot (runs that cannot be compared).
func TestUnjudged(t *testing.T) {
	for _, tt := range []struct {
		verdict string
		want    bisect.Side
	}{
		{result.Inconclusive, bisect.Undecided},
		{result.Slower, bisect.Undecided},
		{result.NoDifference, bisect.Undecided},
		{result.NotComparable, bisect.Skipped},
	} {
		r := compare.Row{Name: "Work", Pair: result.Pair{Verdict: tt.verdict}}
		if got := unjudged(r); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.verdict, got, tt.want)
		}
	}
}

// A --cpu that cannot be used is refused first, before anything of the
// repository is read or built.
func TestBisectChecksTheCPUFirst(t *testing.T) {
	_, err := Bisect(context.Background(), BisectPlan{GoTest: GoTestPlan{Plan: pipeline.Plan{CPU: 4095, CPUSet: true}, Dir: t.TempDir(), Notes: io.Discard},
		Good: "HEAD~1", Bad: "HEAD"})
	if !errors.Is(err, pipeline.ErrUsage) || !strings.Contains(err.Error(), "4095") {
		t.Errorf("%v, want a usage error about --cpu 4095", err)
	}
}

// GOOD and BAD are calibrated once for the walk, and measured in each
// step as fresh copies at that N; the commit a step measures is
// calibrated every time (it may lack the benchmark, or not run); a step
// on another CPU calibrates GOOD and BAD again.
func TestBisectCalibratesGoodAndBadOnce(t *testing.T) {
	calls := map[*side]int{}
	good, bad, mid := &side{}, &side{}, &side{}
	b := &bisectRun{ctx: context.Background(), calibrateF: func(_ context.Context, s *side, o gotest.Options) ([]*gotest.Target, error) {
		calls[s]++
		return []*gotest.Target{{Bench: "BenchmarkWork", Display: "Work", N: int64(100 * (calls[s] + o.CPU))}}, nil
	}}
	var first *gotest.Target
	for step := range 3 {
		for k, s := range []*side{good, bad, mid} {
			ts, err := b.calibrate(context.Background(), k, s, gotest.Options{CPU: 1})
			if err != nil || len(ts) != 1 {
				t.Fatalf("step %d, build %d: %v, %d targets", step, k, err, len(ts))
			}
			if k == 0 && step == 0 {
				first = ts[0]
			}
			if k == 0 && (ts[0].N != 200 || ts[0].Side != "" || step > 0 && ts[0] == first) {
				t.Errorf("step %d: GOOD at N=%d (%p) of side %q, want a clean copy at the first calibration's N=200", step, ts[0].N, ts[0], ts[0].Side)
			}
			ts[0].N, ts[0].Side = 1, buildSides[k] // what match does to the copies
		}
	}
	if calls[good] != 1 || calls[bad] != 1 || calls[mid] != 3 {
		t.Errorf("calibrations: GOOD %d, BAD %d, the commit %d; want 1, 1, 3", calls[good], calls[bad], calls[mid])
	}
	ts, _ := b.calibrate(context.Background(), 0, good, gotest.Options{CPU: 2})
	if calls[good] != 2 || ts[0].N != 400 || ts[0].Name() != "Work" {
		t.Errorf("on another CPU: %d calibrations of GOOD, N=%d %q; want 2, N=400, \"Work\"", calls[good], ts[0].N, ts[0].Name())
	}
}

// stepRuns are one step's interleaved runs of Work, split by build: 3
// processes of 6 samples each, build k at levels[k] ns/op, spread 0.5%.
func stepRuns(seed uint64, levels ...float64) []*result.Result {
	rng := rand.New(rand.NewPCG(seed, 7))
	var rs []*result.Result
	for _, level := range levels {
		e := result.Experiment{Name: "Work", Kind: result.KindBenchmark}
		for p := range 3 {
			for range 6 {
				ns := level * (1 + 0.005*rng.NormFloat64())
				e.Samples = append(e.Samples, result.Sample{Iters: 1000, Ns: int64(ns * 1000), Process: p})
			}
		}
		rs = append(rs, &result.Result{Settings: result.Settings{Samples: 18}, Experiments: []result.Experiment{e}})
	}
	return rs
}

// BAD's level is judged on every step's rounds, not on the step's own:
// its interval narrows as the walk goes on, and a commit's ratio is
// pooled over its own attempts only.
func TestBisectPoolsBad(t *testing.T) {
	b := &bisectRun{ctx: context.Background(), commits: make([]bisect.Commit, 8), p: BisectPlan{Threshold: 0.01}}
	f := &followed{name: "Work"}
	steps := [][]*result.Result{stepRuns(1, 100, 103), stepRuns(2, 100, 103, 100), stepRuns(3, 100, 103, 103)}
	first := b.judge(f, 7, steps[0])
	if first.Side != bisect.Slow {
		t.Fatalf("BAD at +3%%: %+v, want slow", first)
	}
	b.judge(f, 3, steps[1])
	st := b.judge(f, 5, steps[2])
	all := b.row("Work", []*result.Result{steps[0][0], steps[1][0], steps[2][0]}, []*result.Result{steps[0][1], steps[1][1], steps[2][1]})
	own := b.row("Work", []*result.Result{steps[2][0]}, []*result.Result{steps[2][1]})
	if st.Bad != ratio(all) || st.Bad == ratio(own) {
		t.Errorf("BAD in the third step: %+v, want %+v (every step's rounds), not %+v (its own)", st.Bad, ratio(all), ratio(own))
	}
	if w0, w := first.Bad.High/first.Bad.Low, st.Bad.High/st.Bad.Low; !(w < w0) {
		t.Errorf("BAD's interval over three steps %.4f wide, over one %.4f: want narrower", w, w0)
	}
	mid := b.row("Work", []*result.Result{steps[2][0]}, []*result.Result{steps[2][2]})
	if st.Mid != ratio(mid) {
		t.Errorf("the commit's ratio %+v, want its own step's %+v", st.Mid, ratio(mid))
	}
}

// A comparison that could not be made has no ratio: the step keeps 0,
// which JSON can hold, not NaN, which failed the whole report.
func TestBisectRatioOfNoComparison(t *testing.T) {
	r := &compare.Row{Pair: result.Pair{Verdict: result.NotComparable, Ratio: math.NaN(), CILow: math.NaN(), CIHigh: math.Inf(1), Level: 0.95}}
	got := ratio(r)
	if got.Value != 0 || got.Low != 0 || got.High != 0 || got.Level != 0.95 {
		t.Errorf("ratio %+v, want 0s and the level", got)
	}
	if _, err := json.Marshal(got); err != nil {
		t.Error(err)
	}
}

// gotestTargets are calibrated targets of the benchmarks names, at N.
func gotestTargets(n int64, names ...string) []*gotest.Target {
	var ts []*gotest.Target
	for _, name := range names {
		ts = append(ts, &gotest.Target{Bench: "Benchmark" + name, Display: name, N: n})
	}
	return ts
}

// The first run follows every benchmark --bench matches in both GOOD and
// BAD, in GOOD's order; a later run picks those the step needs, at GOOD's
// N, and a commit that lacks one of them has it marked, not measured, and
// one that lacks them all is skipped.
func TestBisectMatchesSeveral(t *testing.T) {
	b := &bisectRun{ctx: context.Background(), p: BisectPlan{GoTest: GoTestPlan{Bench: "."}}}
	ts, err := b.match([][]*gotest.Target{gotestTargets(100, "A", "B", "OnlyGood"), gotestTargets(50, "B", "A")}, nil)
	if err != nil || len(b.followed) != 2 || b.followed[0].name != "A" || b.followed[1].name != "B" || len(ts) != 4 {
		t.Fatalf("%v: followed %v, %d targets; want A and B, 4 targets", err, b.followed, len(ts))
	}
	for _, x := range ts {
		if g := x.(*gotest.Target); g.N != 100 {
			t.Errorf("%s at N=%d, want GOOD's 100", g.Display, g.N)
		}
	}
	ts, err = b.match([][]*gotest.Target{gotestTargets(100, "A", "B"), gotestTargets(50, "A", "B"), gotestTargets(10, "A")}, b.followed)
	if err != nil || len(ts) != 3 || b.followed[0].lacking || !b.followed[1].lacking {
		t.Errorf("the commit lacks B: %v, %d targets, lacking %v %v; want A's 3 targets, B lacking", err, len(ts), b.followed[0].lacking, b.followed[1].lacking)
	}
	for k, want := range []string{"good A", "bad A", "mid A"} {
		g := ts[k].(*gotest.Target)
		if g.Side != buildSides[k] || g.Display != "A" || g.Name() != want {
			t.Errorf("target %d: side %q, name %q, in messages %q; want %q, \"A\", %q", k, g.Side, g.Display, g.Name(), buildSides[k], want)
		}
	}
	_, err = b.match([][]*gotest.Target{gotestTargets(100, "A", "B"), gotestTargets(50, "A", "B"), gotestTargets(10, "C")}, b.followed[1:])
	var skip *skipCommit
	if !errors.As(err, &skip) || skip.why != "B is not in this commit" {
		t.Errorf("the commit lacks B, the one needed: %v, want it skipped", err)
	}
	b = &bisectRun{ctx: context.Background(), p: BisectPlan{GoTest: GoTestPlan{Bench: "X"}}}
	if _, err := b.match([][]*gotest.Target{gotestTargets(100, "A"), gotestTargets(50, "B")}, nil); !errors.Is(err, pipeline.ErrUsage) {
		t.Errorf("nothing in both: %v, want a usage error", err)
	}
}

// Each benchmark of a step is judged on its own experiments: its ratio is
// the one a walk of it alone would read, whatever else the step measured.
func TestBisectJudgesEachAlone(t *testing.T) {
	work, other := stepRuns(1, 100, 130, 100), stepRuns(2, 200, 200, 260)
	for k := range other {
		other[k].Experiments[0].Name = "Other"
	}
	both := make([]*result.Result, 3)
	for k := range both {
		x := *work[k]
		x.Experiments = append(append([]result.Experiment{}, work[k].Experiments...), other[k].Experiments...)
		both[k] = &x
	}
	b := &bisectRun{ctx: context.Background(), commits: make([]bisect.Commit, 8), p: BisectPlan{Threshold: 0.01}}
	alone := &bisectRun{ctx: context.Background(), commits: make([]bisect.Commit, 8), p: BisectPlan{Threshold: 0.01}}
	for _, name := range []string{"Work", "Other"} {
		got := b.judge(&followed{name: name}, 3, only(both, name))
		src := work
		if name == "Other" {
			src = other
		}
		want := alone.judge(&followed{name: name}, 3, src)
		if got.Mid != want.Mid || got.Bad != want.Bad || !(got.Mid.Value > 0) {
			t.Errorf("%s: %+v, want %+v as measured alone", name, got, want)
		}
	}
}

// A commit's twins are the commits built so far whose binaries run the
// same program (GOOD as -1, BAD, then the others), each program read
// once; a commit that does not build has none. A commit with twins is
// said.
func TestBisectTwins(t *testing.T) {
	const n = 6
	programs := []string{"A", "A", "B", "B", "C", "B"} // by commit; GOOD runs A, BAD (5) B
	b := &bisectRun{ctx: context.Background(), builds: map[string]built{}, good: bisect.Commit{Hash: "good"}}
	sides := map[*side]string{}
	for k := range n {
		b.commits = append(b.commits, bisect.Commit{Hash: fmt.Sprintf("c%d", k)})
	}
	b.buildF = func(commit string) (*side, error) {
		if commit == "c4" {
			return nil, errors.New("does not build")
		}
		s := &side{}
		k := strings.IndexFunc(commit, func(r rune) bool { return r >= '0' && r <= '9' })
		sides[s] = "A" // GOOD
		if k > 0 {
			sides[s] = programs[commit[k]-'0']
		}
		return s, nil
	}
	read := map[*side]int{}
	b.programF = func(s *side) (string, error) {
		read[s]++
		return sides[s], nil
	}
	var notes strings.Builder
	b.p.GoTest.Notes = &notes
	b.build("good")
	b.build("c5")
	for _, tt := range []struct {
		i    int
		want []int
	}{
		{2, []int{5}},     // BAD's program
		{0, []int{-1}},    // GOOD's
		{1, []int{-1, 0}}, // GOOD's, and commit 0 built since
		{3, []int{5, 2}},  // BAD's and commit 2's
		{4, nil},          // does not build
	} {
		if got := b.twins(tt.i); !slices.Equal(got, tt.want) {
			t.Errorf("commit %d: twins %v, want %v", tt.i, got, tt.want)
		}
	}
	for s, k := range read {
		if k != 1 {
			t.Errorf("the program of %s read %d times, want once", sides[s], k)
		}
	}
	if said := strings.Count(notes.String(), "'s program: "); said != 4 {
		t.Errorf("%d commits said to have twins, want 4:\n%s", said, notes.String())
	}
}

// A commit that does not build is built once and said once, when a walk
// first comes to it (not when its twins were read): a second walk that
// comes to it (another benchmark's) skips it with the same reason,
// without building it again or saying it measures it.
func TestBisectUnbuiltCommitSaidOnce(t *testing.T) {
	b := &bisectRun{ctx: context.Background(), builds: map[string]built{}, good: bisect.Commit{Hash: "good"}}
	for k := range 3 {
		b.commits = append(b.commits, bisect.Commit{Hash: fmt.Sprintf("c%d", k)})
	}
	b.followed = []*followed{{name: "A"}, {name: "B"}}
	builds := map[string]int{}
	b.buildF = func(commit string) (*side, error) {
		builds[commit]++
		if commit == "c1" {
			return nil, &gotest.BuildError{Package: "example.com/work", Output: "# example.com/work\n./work.go:3:2: undefined: x\n"}
		}
		return &side{}, nil
	}
	var notes strings.Builder
	b.p.GoTest.Notes = &notes
	b.build("c1") // as reading its twins does, before any walk comes to it
	for bench := range 2 {
		sts, err := b.measure(1, []bisect.Need{{Bench: bench}})
		if err != nil || len(sts) != 1 || sts[0].Side != bisect.Skipped || !strings.Contains(sts[0].Why, "does not build: ./work.go:3:2: undefined: x") {
			t.Fatalf("benchmark %d: %+v, %v; want skipped, for the compiler's first line", bench, sts, err)
		}
	}
	if builds["c1"] != 1 {
		t.Errorf("commit c1 built %d times, want once", builds["c1"])
	}
	if said := strings.Count(notes.String(), "benchy: measuring "); said != 1 {
		t.Errorf("said %d times, want once:\n%s", said, notes.String())
	}
}

// A --bench that matches no benchmark of GOOD is a usage error that ends
// the walk at its first step, BAD's, as the calibration of GOOD found it:
// nothing is measured, and the walk returns the error alone, no step
// (Bisect then returns it without a report, and bisect exits 2 saying it;
// that calibrate finds none and says so is gotest's, whose exit for it is
// toolcmd's TestGotestBadInput's).
func TestBisectNoBenchmark(t *testing.T) {
	b := &bisectRun{ctx: context.Background(), builds: map[string]built{}, good: bisect.Commit{Hash: "good"},
		p: BisectPlan{GoTest: GoTestPlan{Bench: "NoSuch", Processes: 2, Notes: io.Discard}}}
	for k := range 3 {
		b.commits = append(b.commits, bisect.Commit{Hash: fmt.Sprintf("c%d", k)})
	}
	b.buildF = func(string) (*side, error) { return &side{}, nil }
	b.programF = func(*side) (string, error) { return "", errors.New("not read here") }
	calibrated := 0
	b.calibrateF = func(context.Context, *side, gotest.Options) ([]*gotest.Target, error) {
		calibrated++
		return nil, pipeline.Usagef("no benchmark in example.com/work matches --bench %q", "NoSuch")
	}
	measured := 0
	b.runF = func(ctx context.Context, p pipeline.Plan, _ []pipeline.Target) (*result.Result, error) {
		// As pipeline.Run: the targets are prepared on the CPU chosen, and
		// measured only when there are some.
		ts, err := p.Prepare(ctx, 1)
		if err != nil {
			return nil, err
		}
		measured += len(ts)
		return &result.Result{}, nil
	}
	ws, steps, err := bisect.DriveAll(len(b.commits), 2, 0.05, b.twins, b.measure)
	if !errors.Is(err, pipeline.ErrUsage) || !strings.Contains(err.Error(), `no benchmark in example.com/work matches --bench "NoSuch"`) {
		t.Errorf("%v, want the usage error of the calibration", err)
	}
	if len(ws) != 0 || len(steps) != 0 || calibrated != 1 || measured != 0 || b.runs != 0 {
		t.Errorf("%d walks, %d step lists, %d calibrations, %d targets measured, %d runs; want GOOD calibrated once and nothing else", len(ws), len(steps), calibrated, measured, b.runs)
	}
}
