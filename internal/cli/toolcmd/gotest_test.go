//go:build linux

package toolcmd

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/gotest"

	"github.com/benchy-dev/benchy/internal/cli"

	"github.com/benchy-dev/benchy/internal/cli/clitest"
)

// gotestData is the module of honest and lying benchmarks.
var gotestData, _ = filepath.Abs("../../../testdata/gotest")

// quick are settings that keep a gotest run short: numbers for structure,
// not for reading.
var quick = []string{"--samples", "4", "--processes", "2", "--sample-time", "10ms", "--window", "100ms"}

func gotestJSON(t *testing.T, dir string, args ...string) (*result.Result, string, int) {
	t.Helper()
	// The settings first: the arguments may end with "--" and build flags.
	stdout, stderr, code := runBinaryIn(t, dir, append(append(append([]string{"gotest"}, quick...), "--format", "json"), args...)...)
	r, err := result.Decode(strings.NewReader(stdout))
	if err != nil {
		t.Fatalf("gotest %v: exit %d, not a result (%v)\nstderr: %s", args, code, err, stderr)
	}
	return r, stderr, code
}

// sharedGotest is one gotestJSON run that several tests read: each
// asserts its own facts of the same measurement, so a testdata package is
// built and measured once per test process, not once per test.
type sharedGotest struct {
	once   sync.Once
	r      *result.Result
	stderr string
	code   int
}

// get runs gotestJSON with args the first time it is called, and returns
// that run's result, stderr and exit code every time.
func (s *sharedGotest) get(t *testing.T, args ...string) (*result.Result, string, int) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	s.once.Do(func() { s.r, s.stderr, s.code = gotestJSON(t, gotestData, args...) })
	if s.r == nil {
		t.Fatalf("gotest %q made no result (the first test to ask failed): exit %d\n%s", args, s.code, s.stderr)
	}
	return s.r, s.stderr, s.code
}

// liesRun is gotest of ./lies with every benchmark: the lies, the honest
// ones and their allocations (TestGotestCatchesLies,
// TestGotestAgreesWithGoTest), and the benchmarks the shards of
// TestGotestShards share out.
var liesRun sharedGotest

// maxprocsRun is gotest of ./maxprocs at the default GOMAXPROCS
// (TestGotestGOMAXPROCS, TestGotestParallelFinding,
// TestGotestWindowDuringBuild).
var maxprocsRun sharedGotest

func codes(e result.Experiment) []string {
	var cs []string
	for _, f := range e.Findings {
		cs = append(cs, f.Code)
	}
	return cs
}

// The lies are caught with the right code, the honest benchmarks are not
// accused of any, and every pinned sample ran on the measured CPU, in the
// processes the JSON says. setup-in-timer is judged on testing's ramp,
// which a busy machine can stop at N=1 (the setup alone fills a sample
// then): a Setup not judged must say what disturbed it, and is not
// believed. (The judgement itself is tested on recorded ramps, in
// internal/targets/gotest.)
func TestGotestCatchesLies(t *testing.T) {
	t.Parallel()
	r, stderr, code := liesRun.get(t, "./lies")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lies := map[string]string{
		"SumDiscarded":       result.CodeEmptyLoop,
		"SumHelperDiscarded": result.CodeEmptyLoop, // in the helper the benchmark calls
		"MulFolded":          result.CodeFolded,
		"Setup":              result.CodeSetupInTimer,
		"Parallel":           result.CodeNotPinned,
	}
	accusations := []string{result.CodeEmptyLoop, result.CodeFolded, result.CodeSetupInTimer, result.CodeDebugBuild,
		result.CodeNotPinned, result.CodeNoLoadInLoop, result.CodeImpossible}
	want := []string{"Sum", "SumLoop", "Sizes/small", "Sizes/large", "Alloc", "QuoteDiscarded", "SetupReset", "SumHelper",
		"SumDiscarded", "SumHelperDiscarded", "MulFolded", "Setup", "Parallel"}
	var got []string
	for _, e := range r.Experiments {
		got = append(got, e.Name)
		cs := codes(e)
		if lie, ok := lies[e.Name]; ok {
			// setup-in-timer is judged from testing's ramp: a ramp too short
			// says setup-unknown; one slower than the samples were (a busy
			// machine during the calibration) says short-samples, and the
			// verdict is not believable for what disturbed the samples.
			unjudged := lie == result.CodeSetupInTimer && (slices.Contains(cs, result.CodeSetupUnknown) ||
				slices.Contains(cs, result.CodeShortSamples) || analyze.Interfered(e.Findings) && e.Verdict != result.VerdictBelievable)
			if !slices.Contains(cs, lie) && !unjudged {
				t.Errorf("%s: verdict %s, findings %v, want %s (or, on a busy machine, a finding of what disturbed it)", e.Name, e.Verdict, cs, lie)
			}
			if !slices.Contains(cs, lie) {
				t.Logf("%s: not judged, findings %v", e.Name, cs)
			}
			continue
		}
		for _, a := range accusations {
			if slices.Contains(cs, a) {
				t.Errorf("%s is honest but accused of %s: %v", e.Name, a, e.Findings)
			}
		}
		processes := map[int]bool{}
		for _, s := range e.Samples {
			processes[s.Process] = true
			if s.CPU != r.CPU {
				t.Errorf("%s: a sample ended on cpu%d, pinned to cpu%d", e.Name, s.CPU, r.CPU)
			}
		}
		if len(e.Samples) != 4 || len(processes) != 2 {
			t.Errorf("%s: %d samples from %d processes, want 4 from 2", e.Name, len(e.Samples), len(processes))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("experiments %q, want %q", got, want)
	}
	for _, e := range r.Experiments {
		switch e.Name {
		case "Alloc":
			if e.GC.AllocsPerOp != 1 || e.GC.BytesPerOp != 64 {
				t.Errorf("Alloc: %v allocs/op, %v B/op, want 1 and 64", e.GC.AllocsPerOp, e.GC.BytesPerOp)
			}
		case "MulFolded":
			if e.Verdict != result.VerdictNotBelievable {
				t.Errorf("MulFolded: %s", e.Verdict)
			}
		case "SumHelperDiscarded":
			for _, f := range e.Findings {
				if f.Code == result.CodeEmptyLoop && f.Evidence["func"] != "example.com/gotestdata/lies.benchmarkSumDiscarded" {
					t.Errorf("SumHelperDiscarded: the empty loop judged is in %v, want the helper's", f.Evidence["func"])
				}
			}
		}
	}
}

// A benchmark that fails is reported with its message; the others run;
// the exit is 1.
func TestGotestFailingBenchmark(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	r, stderr, code := gotestJSON(t, gotestData, "./failing")
	if code != cli.ExitFailed || !strings.Contains(stderr, "the fixture is missing") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	var names []string
	for _, e := range r.Experiments {
		names = append(names, e.Name)
		switch e.Name {
		case "Fatal":
			if !strings.Contains(e.Error, "the fixture is missing") {
				t.Errorf("Fatal: error %q", e.Error)
			}
		case "OK":
			if e.Error != "" || len(e.Samples) != 4 {
				t.Errorf("OK: error %q, %d samples", e.Error, len(e.Samples))
			}
		}
	}
	if !slices.Equal(names, []string{"Fatal", "OK"}) {
		t.Errorf("experiments %q, want Fatal and OK", names)
	}
}

// A binary built to be debugged measures another program.
func TestGotestDebugBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	r, _, _ := gotestJSON(t, gotestData, "./lies", "--bench", "^BenchmarkSum$", "--", "-gcflags=all=-N -l")
	if len(r.Experiments) != 1 || !slices.Contains(codes(r.Experiments[0]), result.CodeDebugBuild) {
		t.Errorf("no debug-build: %+v", r.Experiments)
	}
}

// Every bad input exits 2 with one line saying what is wrong, before
// anything is measured.
func TestGotestBadInput(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs go list and go build")
	}
	broken := writeModule(t, map[string]string{
		"go.mod":        "module example.com/broken\n\ngo 1.24\n",
		"b.go":          "package broken\n",
		"b_test.go":     "package broken\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) {\n\tundefinedThing()\n}\n",
		"nob/x.go":      "package nob\n",
		"nob/x_test.go": "package nob\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n",
	})
	loose := writeModule(t, map[string]string{"x_test.go": "package x\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) {}\n"})
	// testdata is inside benchy's repository: a module of its own outside.
	nogit := writeModule(t, map[string]string{"go.mod": "module example.com/nogit\n\ngo 1.24\n",
		"x_test.go": "package x\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) {}\n"})
	repo := quickModule(t)
	tests := []struct {
		name, dir string
		args      []string
		want      string
	}{
		{"no such package", gotestData, []string{"./nosuch"}, "nosuch"},
		{"no test files", gotestData, []string{"./notests"}, "has no test files"},
		{"no benchmark matches", gotestData, []string{"./failing", "--bench", "NoSuchBench"}, `no benchmark in example.com/gotestdata/failing matches --bench "NoSuchBench"`},
		{"bad regexp", gotestData, []string{"--bench", "("}, "not a Go regular expression"},
		{"shard beyond its count", gotestData, []string{"--shard", "4/3"}, "give I/N with 1 <= I <= N"},
		{"shard not a fraction", gotestData, []string{"--shard", "half"}, "give I/N with 1 <= I <= N"},
		{"no benchmark matches in a shard", gotestData, []string{"./failing", "--bench", "NoSuchBench", "--shard", "1/2"}, `no benchmark in example.com/gotestdata/failing matches --bench "NoSuchBench"`},
		{"build error", broken, nil, "does not build"},
		{"no benchmark at all", broken, []string{"./nob"}, "has no benchmarks"},
		{"not in a module", loose, nil, "module"},
		{"not a git repository", nogit, []string{"--against", "HEAD"}, "not in a git repository"},
		{"empty revision", repo, []string{"--against", ""}, `--against "": give a revision`},
		{"option-like revision", repo, []string{"--against", "--output=x"}, "not a revision"},
		{"not a commit", repo, []string{"--against", "HEAD^{tree}"}, "names a tree, not a commit"},
		{"no such revision", repo, []string{"--against", "nosuch"}, "no such revision"},
		{"fail without against", gotestData, []string{"--fail-on-regression", "5%"}, "give --against REV too"},
		{"processes over samples", gotestData, []string{"--samples", "2", "--processes", "3"}, "--processes 3"},
		{"bad format", gotestData, []string{"--format", "svg"}, "valid"},
		{"gomaxprocs 0", gotestData, []string{"--gomaxprocs", "0"}, "--gomaxprocs 0: must be between 1 and"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runBinaryIn(t, tt.dir, append(append([]string{"gotest"}, quick...), tt.args...)...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if code != cli.ExitUsage || !strings.HasPrefix(last, "benchy: ") || !strings.Contains(last, tt.want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and a last line with %q", code, stdout, stderr, tt.want)
			}
			if tt.name == "build error" && !strings.Contains(stderr, filepath.Join(broken, "b_test.go")+":6") &&
				!strings.Contains(stderr, "./b_test.go:6") {
				t.Errorf("the compiler's line does not name the user's file:\n%s", stderr)
			}
		})
	}
}

// --against on a repository of its own: a real slowdown is never read as
// a speed-up and exits as its verdict says, and the tree is as it was
// afterwards. (A change of comments only, no difference, is
// TestGotestAgainstSubmodules'.)
func TestGotestAgainst(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds two revisions and measures them")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	work := func(passes int) string {
		return "package work\n\n// Work sums xs.\nfunc Work(xs []int) int {\n\ts := 0\n\tfor p := 0; p < " +
			strings.Repeat("1+", passes-1) + "1; p++ {\n\t\tfor _, x := range xs {\n\t\t\ts += x ^ p\n\t\t}\n\t}\n\treturn s\n}\n"
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n",
		"work.go": work(1), "work_test.go": againstBench})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "one pass")
	args := []string{"gotest", "--against", "HEAD", "--samples", "12", "--processes", "4", "--sample-time", "10ms", "--window", "100ms", "--format", "json"}

	// Whether the slowdown is found depends on the machine (it is, on
	// recorded samples: TestGotestSlowdownRecorded); what holds on any
	// machine is that both sides ran in full, no "faster" is claimed,
	// and the exit is the verdict's: 1 when slower is claimed beyond the
	// gate, 4 when the machine left it unable to judge, saying so.
	t.Run("slower", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(dir, "work.go"), []byte(work(2)), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := runBinaryIn(t, dir, append(args, "--fail-on-regression", "10%")...)
		c := decodeComparison(t, stdout, stderr)
		if len(c.Rows) != 1 || c.Rows[0].Name != "Work" {
			t.Fatalf("exit %d, rows %+v\nstderr: %s", code, c.Rows, stderr)
		}
		r := c.Rows[0]
		t.Logf("exit %d: %s", code, r.Sentence)
		// Judged on on-CPU time (a busy machine), the samples whose on-CPU
		// time is unknown are left out of the comparison: both sides ran
		// in full all the same.
		onCPU := r.Basis == result.BasisOnCPU || r.Basis == result.BasisOnCPUCycles
		full := r.BaseN == 12 && r.CandidateN == 12 || onCPU && r.BaseN <= 12 && r.CandidateN <= 12
		if !full || r.BaseRuns != 4 || r.CandidateRuns != 4 {
			t.Errorf("samples %d+%d in %d+%d processes (basis %q), want 12+12 in 4+4", r.BaseN, r.CandidateN, r.BaseRuns, r.CandidateRuns, r.Basis)
		}
		if r.Verdict == result.Faster {
			t.Errorf("twice the work reads as faster: %s", r.Sentence)
		}
		beyond := r.Verdict == result.Slower && r.CILow > 1.10
		if regressed := slices.Equal(c.Regressions, []string{"Work"}); regressed != beyond {
			t.Errorf("regressions %v for %s (CI low %.3f)", c.Regressions, r.Verdict, r.CILow)
		}
		if r.Verdict == result.Inconclusive && !strings.Contains(r.Reason, "busy") {
			t.Errorf("inconclusive without saying what the machine did: %q", r.Reason)
		}
		want := cli.ExitOK
		switch {
		case beyond || len(c.Failed) > 0:
			want = cli.ExitFailed
		case !r.Judged():
			want = cli.ExitCannotJudge
			if len(c.CannotJudge) != 1 || !strings.HasPrefix(c.CannotJudge[0], "Work (") || !strings.Contains(stderr, "cannot judge Work") {
				t.Errorf("%s: cannot judge %v, stderr %s", r.Verdict, c.CannotJudge, stderr)
			}
		}
		if code != want {
			t.Errorf("exit %d for %s, want %d\nstderr: %s", code, r.Sentence, want, stderr)
		}
	})
	if st := gitIn(t, dir, "status", "--porcelain"); st != " M work.go\n" {
		t.Errorf("git status after the runs:\n%s", st)
	}
	if wt := gitIn(t, dir, "worktree", "list"); strings.Count(wt, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wt)
	}
	if stash := gitIn(t, dir, "stash", "list"); stash != "" {
		t.Errorf("stash: %s", stash)
	}
}

// benchy and go test -bench agree on what does not depend on b.N or on
// the machine's load: the benchmarks there are (sub-benchmarks included)
// and each one's allocations per op (testing's own B/op and allocs/op,
// which benchy reads from the same binary with a helper added). The times
// per op are logged only: on a shared machine they differ by whatever ran
// meanwhile. benchy's side is TestGotestCatchesLies's run of every
// benchmark of ./lies, of which those go test's -bench matches are
// compared; --bench's own selection is TestGotestShards' and
// TestGotestDebugBuild's.
func TestGotestAgreesWithGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test -bench")
	}
	if _, err := exec.LookPath("taskset"); err != nil {
		t.Skip("no taskset")
	}
	t.Parallel()
	const bench = "^Benchmark(Sum|Sizes|Alloc|QuoteDiscarded)$"
	r, stderr, code := liesRun.get(t, "./lies")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cmd := exec.Command("taskset", "-c", strconv.Itoa(r.CPU), "go", "test", "-run", "^$", "-bench", bench,
		"-benchtime", "10ms", "-benchmem", "-count", "1", "./lies")
	cmd.Dir = gotestData
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	type perOp struct{ ns, bytes, allocs float64 }
	theirs := map[string]perOp{}
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 8 || !strings.HasPrefix(f[0], "Benchmark") || f[3] != "ns/op" || f[5] != "B/op" || f[7] != "allocs/op" {
			continue
		}
		// The -GOMAXPROCS suffix is left out where it is 1 (taskset).
		name := regexp.MustCompile(`-\d+$`).ReplaceAllString(strings.TrimPrefix(f[0], "Benchmark"), "")
		var v perOp
		var errs [3]error
		v.ns, errs[0] = strconv.ParseFloat(f[2], 64)
		v.bytes, errs[1] = strconv.ParseFloat(f[4], 64)
		v.allocs, errs[2] = strconv.ParseFloat(f[6], 64)
		if errors.Join(errs[:]...) != nil {
			t.Fatalf("result line %q: %v", line, errors.Join(errs[:]...))
		}
		theirs[name] = v
		names = append(names, name)
	}
	var ours []string
	for _, e := range r.Experiments {
		if top, _, _ := strings.Cut(e.Name, "/"); !regexp.MustCompile(bench).MatchString("Benchmark" + top) {
			continue
		}
		ours = append(ours, e.Name)
		g, ok := theirs[e.Name]
		if !ok {
			continue
		}
		t.Logf("%s: benchy %.1f ns/op, go test %.1f ns/op; %v B/op, %v allocs/op", e.Name, e.Stats.Median, g.ns, g.bytes, g.allocs)
		if e.GC.BytesPerOp != g.bytes || e.GC.AllocsPerOp != g.allocs {
			t.Errorf("%s: benchy %v B/op and %v allocs/op, go test %v and %v", e.Name, e.GC.BytesPerOp, e.GC.AllocsPerOp, g.bytes, g.allocs)
		}
	}
	if want := []string{"Sum", "Sizes/small", "Sizes/large", "Alloc", "QuoteDiscarded"}; !slices.Equal(ours, want) || !slices.Equal(names, want) {
		t.Errorf("benchmarks: benchy %q, go test %q; want %q\n%s", ours, names, want, out)
	}
}

// The standard library's benchmarks of calls whose result is discarded
// (strconv.BenchmarkQuote) are honest: the call is not inlined.
func TestGotestStandardLibraryNotAccused(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds strconv's tests")
	}
	r, stderr, code := gotestJSON(t, gotestData, "strconv", "--bench", "^Benchmark(Quote|QuoteRune|AppendFloat)$")
	if code != 0 || len(r.Experiments) == 0 {
		t.Fatalf("exit %d, %d experiments: %s", code, len(r.Experiments), stderr)
	}
	for _, e := range r.Experiments {
		for _, c := range []string{result.CodeEmptyLoop, result.CodeFolded, result.CodeNoLoadInLoop, result.CodeImpossible} {
			if slices.Contains(codes(e), c) {
				t.Errorf("%s accused of %s: %v", e.Name, c, e.Findings)
			}
		}
	}
}

// benchy asm reads a benchmark's loop from a test binary.
func TestAsmBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	bin := filepath.Join(t.TempDir(), "lies.test")
	cmd := exec.Command("go", "test", "-c", "-o", bin, "./lies")
	cmd.Dir = gotestData
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	stdout, stderr, code := runBinary(t, "asm", "--binary", bin, "SumDiscarded")
	if code != 0 || !strings.Contains(stdout, "lies.BenchmarkSumDiscarded") || !strings.Contains(stdout, "only counts") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	_, stderr, code = runBinary(t, "asm", "--binary", bin, "Nope")
	if code != cli.ExitUsage || !strings.Contains(stderr, "no function Nope") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	// Found, but no code to read: the reading's error, not a listing.
	_, stderr, code = runBinary(t, "asm", "--binary", bin, "runtime.text")
	if code != cli.ExitUsage || !strings.Contains(stderr, "runtime.text has size 0") {
		t.Errorf("runtime.text: exit %d: %s", code, stderr)
	}
}

// --against takes every revision git takes (":/message"), and checks out
// the revision's submodules in the worktree from the user's own clones;
// when the old side does not build for want of one the user has not
// checked out, the last line says so. The user's configuration and
// worktrees are as they were. The tree first differs from the revision by
// a comment only: no difference is claimed.
func TestGotestAgainstSubmodules(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds two revisions")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dep := writeModule(t, map[string]string{"go.mod": "module example.com/dep\n\ngo 1.24\n",
		"dep.go": "package dep\n\n// Double doubles.\nfunc Double(x int) int { return 2 * x }\n"})
	gitIn(t, dep, "init", "-q")
	gitIn(t, dep, "add", ".")
	gitIn(t, dep, "commit", "-q", "-m", "dep")
	const work = "package work\n\nimport \"example.com/dep\"\n\n// Work sums xs, doubled.\nfunc Work(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += dep.Double(x)\n\t}\n\treturn s\n}\n"
	dir := writeModule(t, map[string]string{
		"go.mod":       "module example.com/work\n\ngo 1.24\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./third_party/dep\n",
		"work.go":      work,
		"work_test.go": againstBench})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "-c", "protocol.file.allow=always", "submodule", "add", "-q", dep, "third_party/dep")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "with a submodule")
	config, err := os.ReadFile(filepath.Join(dir, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	args := append(append([]string{"gotest"}, quick...), "--format", "json", "--against")

	if err := os.WriteFile(filepath.Join(dir, "work.go"), []byte(strings.Replace(work, "// Work", "// A comment changed.\n// Work", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	// Six samples: fewer are not compared at all, which would say nothing
	// of the same program.
	stdout, stderr, code := runBinaryIn(t, dir, "gotest", "--samples", "6", "--processes", "2", "--sample-time", "10ms", "--window", "100ms",
		"--format", "json", "--against", ":/with a submodule")
	c := decodeComparison(t, stdout, stderr)
	if code != 0 || len(c.Rows) != 1 {
		t.Fatalf("exit %d, rows %+v\nstderr: %s", code, c.Rows, stderr)
	}
	// The old side is built in a worktree, whose longer path makes the
	// line tables longer, and the comment moves every line: the same
	// program all the same, said, measured and never claimed (identical
	// code on a loaded machine read 6.9% faster here, 95% CI -9.7% to
	// -3.9%, over 4 pairs, when it was judged). Only if the longer tables
	// pushed the data a page further is it another program (TestProgram
	// holds the rule), judged as any.
	r := c.Rows[0]
	same := strings.Contains(stderr, "old and new run the same program")
	switch {
	case same && (r.Verdict != result.NoDifference || r.Reason != compare.SameProgramReason):
		t.Errorf("the same program judged: %s", r.Sentence)
	case !same:
		t.Logf("not the same program (the data moved?): %s", r.Sentence)
		if r.Verdict == result.Slower || r.Verdict == result.Faster {
			t.Errorf("a comment claimed: %s", r.Sentence)
		}
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); string(after) != string(config) {
		t.Errorf("the configuration changed:\n%s\nwas\n%s", after, config)
	}

	// The new side no longer needs the submodule, and the user's tree has
	// it no more: the old side does not build without it.
	gitIn(t, dir, "submodule", "deinit", "-q", "-f", "third_party/dep")
	config, _ = os.ReadFile(filepath.Join(dir, ".git", "config"))
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/work\n\ngo 1.24\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "work.go"), []byte("package work\n\n// Work sums xs, doubled.\nfunc Work(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += 2 * x\n\t}\n\treturn s\n}\n"), 0o644)
	stdout, stderr, code = runBinaryIn(t, dir, append(args, "HEAD")...)
	want := "submodules not checked out in the worktree of HEAD: third_party/dep (not checked out in your tree)"
	if last := clitest.LastLine(stderr); code != cli.ExitUsage || !strings.Contains(last, "does not build") || !strings.Contains(last, want) || stdout != "" {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and a last line with %q", code, stdout, stderr, want)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); string(after) != string(config) {
		t.Errorf("the configuration changed:\n%s\nwas\n%s", after, config)
	}
	if wt := gitIn(t, dir, "worktree", "list"); strings.Count(wt, "\n") != 1 {
		t.Errorf("worktrees left:\n%s", wt)
	}
}

// --shard I/N measures the benchmarks gotest.Shard gives job I (its
// partition is TestShardPartitions'), and records the shard: the shards of
// what --bench matches together measure each benchmark of the package
// once, and a job whose shard holds none of them has nothing to measure,
// which passes. The package's benchmarks are those of liesRun, every one
// of ./lies (TestGotestCatchesLies holds the list, and
// TestGotestAgreesWithGoTest benchy's names to go test's). --bench
// matches three benchmarks, Sum and SumLoop in shard 3 of 3, SumHelper in
// shard 2 and none in shard 1: a few short runs, and one with nothing to
// measure.
func TestGotestShards(t *testing.T) {
	t.Parallel()
	const n, bench, pkg = 3, "^BenchmarkSum(Loop|Helper)?$", "example.com/gotestdata/lies"
	all, stderr, code := liesRun.get(t, "./lies")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	listed := map[string]bool{}
	for _, e := range all.Experiments {
		top, _, _ := strings.Cut(e.Name, "/")
		if regexp.MustCompile(bench).MatchString("Benchmark" + top) {
			listed["Benchmark"+top] = true
		}
	}
	seen := map[string]int{} // by top-level benchmark
	empty := 0
	for i := 1; i <= n; i++ {
		shard := gotest.Shard{I: i, N: n}
		held := false
		for top := range listed {
			held = held || shard.Holds(pkg, top)
		}
		stdout, errs, code := runBinaryIn(t, gotestData, append(append([]string{"gotest"}, quick...), "--format", "json", "./lies", "--bench", bench, "--shard", shard.String())...)
		if !held {
			empty++
			if code != 0 || stdout != "" || !strings.Contains(errs, "falls in shard "+shard.String()) {
				t.Errorf("shard %s, empty: exit %d, stdout %q, stderr %q; want exit 0 saying nothing falls in it", shard, code, stdout, errs)
			}
			continue
		}
		r, err := result.Decode(strings.NewReader(stdout))
		if err != nil {
			t.Fatalf("shard %s: exit %d, no result (%v): %s", shard, code, err, errs)
		}
		if r.Settings.Shard != shard.String() {
			t.Errorf("shard %s recorded as %q", shard, r.Settings.Shard)
		}
		tops := map[string]bool{}
		for _, e := range r.Experiments {
			top, _, _ := strings.Cut(e.Name, "/")
			tops["Benchmark"+top] = true
		}
		for top := range tops {
			seen[top]++
			if !shard.Holds(pkg, top) {
				t.Errorf("shard %s measured %s, which is not in it", shard, top)
			}
		}
	}
	if empty != 1 || len(listed) < n {
		t.Errorf("%s matches %d benchmarks, in %d shards of %d: want a few, and one shard empty", bench, len(listed), n-empty, n)
	}
	for top := range listed {
		if seen[top] != 1 {
			t.Errorf("%s is in %d of the %d shards, want 1", top, seen[top], n)
		}
	}
	for top := range seen {
		if !listed[top] {
			t.Errorf("%s is in a shard but not in the suite", top)
		}
	}
}
