package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/sqlstore"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// testdata/compare holds old.json, a real run on a 2-vCPU VM (sum/sink,
// fold/constant, fold/opaque, sort/copy-8000, clock/now; 21 samples), and
// three files derived from it by compareVariants (rewritten with -update):
//
//   - noise.json: another draw of the same run: every experiment's samples
//     in another order, each within ±0.3%.
//   - slower.json: noise.json with sum/sink 25% slower and sort/copy-8000
//     3% slower.
//   - othermachine.json: noise.json measured elsewhere: other host, CPU
//     model, kernel, Go, GOMAXPROCS, pinned CPU, sample time, gc, load and
//     a load warning; clock/now left out, "empty" added.
const compareDir = "../../testdata/compare"

func compareFile(name string) string { return filepath.Join(compareDir, name) }

// compareVariants builds the derived files from old.json.
func compareVariants(t *testing.T) map[string]*result.Result {
	t.Helper()
	load := func() *result.Result {
		r, err := result.Load(compareFile("old.json"))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	jitter := func(r *result.Result) {
		r.Start, r.End = r.Start.Add(time.Hour), r.End.Add(time.Hour)
		for i := range r.Experiments {
			s := r.Experiments[i].Samples
			rot := slices.Concat(s[7%len(s):], s[:7%len(s)])
			for j := range rot {
				k := 1 + 0.003*math.Sin(float64(j))
				rot[j].Ns = int64(math.Round(float64(rot[j].Ns) * k))
				if tc, ok := rot[j].Counters[result.CounterTaskClock]; ok {
					rot[j].Counters[result.CounterTaskClock] = int64(math.Round(float64(tc) * k))
				}
			}
			r.Experiments[i].Samples = rot
		}
	}
	// A slower program is slower on the CPU too: its on-CPU time grows
	// with its wall time (else the samples would read as preempted).
	scale := func(r *result.Result, name string, f float64) {
		for i := range r.Experiments {
			if r.Experiments[i].Name == name {
				for j := range r.Experiments[i].Samples {
					s := &r.Experiments[i].Samples[j]
					s.Ns = int64(math.Round(float64(s.Ns) * f))
					if tc, ok := s.Counters[result.CounterTaskClock]; ok {
						s.Counters[result.CounterTaskClock] = int64(math.Round(float64(tc) * f))
					}
				}
			}
		}
	}
	noise := load()
	jitter(noise)
	slower := load()
	jitter(slower)
	scale(slower, "sum/sink", 1.25)
	scale(slower, "sort/copy-8000", 1.03)

	other := load()
	jitter(other)
	b := other.Before
	b.Hostname = machine.Known("ci-runner-7")
	b.Kernel = machine.Known("6.19.0-custom")
	b.CPUModel = machine.Known("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz")
	b.Load = machine.Known(machine.LoadAvg{Load1: 3.5, Load5: 3.1, Load15: 2.8, Runnable: 5, Tasks: 240})
	other.CPUModel = b.CPUModel.Value
	other.GoVersion = "go1.27.0"
	other.GOMAXPROCS, other.CPU = 4, 0
	other.Settings.SampleTime, other.Settings.GC = 20*time.Millisecond, true
	other.Environment = append(other.Environment, finding.Finding{Code: "load", Severity: finding.Warn,
		Message: "load average 3.5 on 2 CPUs: other tasks compete for the CPUs"})
	var exps []result.Experiment
	for _, e := range other.Experiments {
		for j := range e.Samples {
			e.Samples[j].CPU = other.CPU // measured on the other CPU
		}
		if e.Name != "clock/now" {
			exps = append(exps, e)
		}
		if e.Name == "fold/opaque" {
			e.Name, e.Description = "empty", "the loop with nothing in it"
			exps = append(exps, e)
		}
	}
	other.Experiments = exps
	return map[string]*result.Result{"noise.json": noise, "slower.json": slower, "othermachine.json": other}
}

// The derived files are what compareVariants makes of old.json.
func TestCompareFixtures(t *testing.T) {
	for name, r := range compareVariants(t) {
		var b bytes.Buffer
		if err := render.Write(&b, r, "json"); err != nil {
			t.Fatal(err)
		}
		resulttest.CheckFile(t, compareFile(name), b.Bytes())
	}
}

// runCompare runs `benchy compare args...` in process.
func runCompare(args ...string) (string, string, int) {
	return runMain(append([]string{"compare"}, args...)...)
}

func TestCompareGolden(t *testing.T) {
	for _, tt := range []struct {
		golden string
		args   []string
		code   int
	}{
		{"slower.text", []string{"--fail-on-regression", "5%", compareFile("old.json"), compareFile("slower.json")}, 1},
		{"slower.md", []string{"--format", "markdown", "--fail-on-regression", "5%", compareFile("old.json"), compareFile("slower.json")}, 1},
		{"slower.json.out", []string{"--format", "json", "--fail-on-regression", "5%", compareFile("old.json"), compareFile("slower.json")}, 1},
		{"noise.text", []string{compareFile("old.json"), compareFile("noise.json")}, 0},
		{"othermachine.text", []string{compareFile("old.json"), compareFile("othermachine.json")}, 0},
	} {
		t.Run(tt.golden, func(t *testing.T) {
			out, errs, code := runCompare(tt.args...)
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.code, errs)
			}
			resulttest.CheckFile(t, compareFile(tt.golden), []byte(out))
		})
	}
}

// The gate: a regression beyond the limit with its whole interval exits
// 1 and names it; noise, a limit above the regression, or no gate exit 0.
func TestCompareGate(t *testing.T) {
	old, slower, noise := compareFile("old.json"), compareFile("slower.json"), compareFile("noise.json")
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr []string
	}{
		{"regression over 5%", []string{"--fail-on-regression", "5%", old, slower}, ExitFailed,
			[]string{"--fail-on-regression 5%: 1 experiment slower by more than 5%", "sum/sink +25."}},
		{"as a fraction", []string{"--fail-on-regression", "0.05", old, slower}, ExitFailed, []string{"sum/sink"}},
		// sort/copy-8000 is 3% slower too, but one run per side cannot
		// tell 3% from run-to-run variation (TestCompareRunsAsTheUnit can).
		{"small regression counts at 0%", []string{"--fail-on-regression", "0%", old, slower}, ExitFailed,
			[]string{"1 experiment slower by more than 0%", "sum/sink"}},
		{"limit above the regression", []string{"--fail-on-regression", "30%", old, slower}, ExitOK, nil},
		{"no gate", []string{old, slower}, ExitOK, nil},
		{"noise", []string{"--fail-on-regression", "0%", old, noise}, ExitOK, nil},
		{"same file", []string{"--fail-on-regression", "0%", old, old}, ExitOK, nil},
		{"faster is no regression", []string{"--fail-on-regression", "0%", slower, old}, ExitOK, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := runCompare(tt.args...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstderr: %s\n%s", code, tt.code, stderr, out)
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr %q does not contain %q", stderr, s)
				}
			}
			if tt.code == ExitOK && stderr != "" {
				t.Errorf("stderr %q", stderr)
			}
			if strings.Contains(strings.Join(tt.args, " "), "fail-on-regression") {
				want := "gate: passed"
				if tt.code == ExitFailed {
					want = "gate: FAILED"
				}
				if !strings.Contains(out, want) {
					t.Errorf("report does not say %q:\n%s", want, out)
				}
			}
		})
	}
}

// writeRuns writes k runs derived from old.json into dir: each run shifted
// as a whole by its own factor (runs differ as wholes), the experiment
// named slow made f times slower; it returns the comma-separated list.
func writeRuns(t *testing.T, dir, prefix string, shifts []float64, slow string, f float64) string {
	t.Helper()
	var paths []string
	for i, shift := range shifts {
		r, err := result.Load(compareFile("old.json"))
		if err != nil {
			t.Fatal(err)
		}
		for j := range r.Experiments {
			e := &r.Experiments[j]
			k := shift
			if e.Name == slow {
				k *= f
			}
			for n := range e.Samples {
				s := &e.Samples[n]
				s.Ns = int64(math.Round(float64(s.Ns) * k))
				if tc, ok := s.Counters[result.CounterTaskClock]; ok {
					s.Counters[result.CounterTaskClock] = int64(math.Round(float64(tc) * k))
				}
			}
		}
		path := filepath.Join(dir, fmt.Sprintf("%s%d.json", prefix, i))
		var b bytes.Buffer
		if err := render.Write(&b, r, "json"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return strings.Join(paths, ",")
}

// Several runs per side: the run is the unit. A 6% slowdown that one run
// per side cannot tell from run-to-run variation is found with three runs
// per side whose medians agree within 1%; three runs of identical code
// claim nothing. (Its interval, one of four held together at 98.8%, is
// +2.4% to +9.7%: a 2% gate fires, a 3% one could not.)
func TestCompareRunsAsTheUnit(t *testing.T) {
	dir := t.TempDir()
	olds := writeRuns(t, dir, "old", []float64{1, 1.01, 0.995}, "", 1)
	news := writeRuns(t, dir, "new", []float64{1.005, 0.99, 1.01}, "sort/copy-8000", 1.06)
	same := writeRuns(t, dir, "same", []float64{1.008, 0.992, 1.002}, "", 1)
	out, stderr, code := runCompare("--fail-on-regression", "2%", olds, news)
	if code != ExitFailed || !strings.Contains(stderr, "sort/copy-8000 +6.") {
		t.Errorf("exit %d, stderr %q; want the 6%% regression found\n%s", code, stderr, out)
	}
	if !strings.Contains(out, "3+3 runs") || !strings.Contains(out, "runs as the unit") {
		t.Errorf("the report does not say the runs were the unit:\n%s", out)
	}
	out, stderr, code = runCompare("--fail-on-regression", "0%", olds, same)
	if code != ExitOK || strings.Contains(out, " slower than ") || strings.Contains(out, " faster than ") {
		t.Errorf("identical code: exit %d, stderr %q\n%s", code, stderr, out)
	}
}

// The gate passes only when it could judge: an experiment missing from
// the new run cannot be judged (exit 4); one that failed there fails it.
func TestCompareGateCannotJudge(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, edit func(*result.Result)) string {
		r, err := result.Load(compareFile("old.json"))
		if err != nil {
			t.Fatal(err)
		}
		edit(r)
		path := filepath.Join(dir, name)
		var b bytes.Buffer
		if err := render.Write(&b, r, "json"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	missing := write("missing.json", func(r *result.Result) { r.Experiments = r.Experiments[:2] })
	if _, stderr, code := runCompare(compareFile("old.json")+","+compareFile("old.json"), missing); code != ExitUsage || !strings.Contains(stderr, "is given twice") {
		t.Errorf("one file twice on a side: exit %d, %q; want 2", code, stderr)
	}
	failed := write("failed.json", func(r *result.Result) { r.Experiments[0].Error = "panicked: boom" })
	old := compareFile("old.json")
	out, stderr, code := runCompare("--fail-on-regression", "5%", old, missing)
	if code != ExitCannotJudge || !strings.Contains(stderr, "cannot judge fold/opaque (missing from new); sort/copy-8000 (missing from new); clock/now (missing from new)") || !strings.Contains(out, "gate: CANNOT JUDGE") {
		t.Errorf("missing: exit %d, stderr %q\n%s", code, stderr, out)
	}
	out, stderr, code = runCompare("--fail-on-regression", "5%", old, failed)
	if code != ExitFailed || !strings.Contains(stderr, "failed in new: sum/sink") || !strings.Contains(out, "gate: FAILED") {
		t.Errorf("failed: exit %d, stderr %q\n%s", code, stderr, out)
	}
}

// Noise is no difference: every experiment of old vs noise that has a
// verdict has "no difference detected"; fold/constant (impossible) is not
// comparable.
func TestCompareNoise(t *testing.T) {
	out, _, code := runCompare("--format", "json", compareFile("old.json"), compareFile("noise.json"))
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var c struct {
		Experiments []compare.Row        `json:"experiments"`
		Differences []compare.Difference `json:"machine_differences"`
		Geomean     compare.Geomean      `json:"geomean"`
		Regressions []string             `json:"regressions"`
		Old         []compare.FileSide   `json:"old"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Experiments) != 5 || len(c.Old) != 1 || c.Old[0].File != compareFile("old.json") || c.Regressions == nil {
		t.Fatalf("experiments %d, old %v, regressions %v", len(c.Experiments), c.Old, c.Regressions)
	}
	for _, r := range c.Experiments {
		want := result.NoDifference
		if r.Name == "fold/constant" {
			want = result.NotComparable
			if r.Reason != "both runs are not believable: impossible" {
				t.Errorf("fold/constant reason %q", r.Reason)
			}
		}
		if r.Verdict != want {
			t.Errorf("%s: %s (%s), want %s", r.Name, r.Verdict, r.Reason, want)
		}
		if r.Name != "fold/constant" && r.Comparisons != 4 {
			t.Errorf("%s: adjusted over %d comparisons, want 4", r.Name, r.Comparisons)
		}
	}
	if len(c.Differences) != 0 {
		t.Errorf("machine differences between two runs of one machine: %v", c.Differences)
	}
	if c.Geomean.N != 4 || math.Abs(c.Geomean.Ratio-1) > 0.01 {
		t.Errorf("geomean %+v", c.Geomean)
	}
}

// busy-1.json and busy-2.json are two runs of the same code a few seconds
// apart on the 2-vCPU VM at a load of about 4.5: every experiment of both
// disturbed (other tasks had 39-69% of the median sample), the old one on
// a slow core too (the reference loop 12-14% slow). Their wall times
// differ by -29% to +78%, their on-CPU times by about 6%. Nothing may be
// claimed from them: judged on on-CPU cycles, what is left (the slow core)
// could explain the rest, so every experiment is inconclusive, and the
// gate cannot judge (exit 4).
func TestCompareBusyRunsClaimNothing(t *testing.T) {
	out, stderr, code := runCompare("--format", "json", "--fail-on-regression", "5%", compareFile("busy-1.json"), compareFile("busy-2.json"))
	if code != ExitCannotJudge {
		t.Errorf("exit %d, want %d; stderr: %s", code, ExitCannotJudge, stderr)
	}
	var c struct {
		Experiments []compare.Row `json:"experiments"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Experiments) != 3 {
		t.Fatalf("%d experiments, want 3", len(c.Experiments))
	}
	for _, r := range c.Experiments {
		if r.Verdict != result.Inconclusive || r.Basis != result.BasisOnCPUCycles || !strings.Contains(r.Reason, "old: slow-core") {
			t.Errorf("%s: %s on %q (%s), want inconclusive on on-CPU cycles, naming old's slow core", r.Name, r.Verdict, r.Basis, r.Reason)
		}
	}
	text, _, _ := runCompare(compareFile("busy-1.json"), compareFile("busy-2.json"))
	for _, claim := range []string{" slower", " faster"} {
		if strings.Contains(text, claim) {
			t.Errorf("the report claims%s:\n%s", claim, text)
		}
	}
}

// Every machine difference is listed, before the numbers; experiments on
// one side only are listed.
func TestCompareMachineDifferences(t *testing.T) {
	out, _, code := runCompare(compareFile("old.json"), compareFile("othermachine.json"))
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	table := strings.Index(out, "\nexperiment ")
	if table < 0 {
		t.Fatalf("no table:\n%s", out)
	}
	for _, want := range []string{
		"host ", "ci-runner-7", "CPU model", "Intel(R) Xeon(R)", "kernel", "6.19.0-custom", "Go version", "go1.27.0",
		"load average (1 min)", "3.50", "environment warnings", "GOMAXPROCS", "pinned CPU", "sample time", "20ms",
		"gc during samples",
	} {
		i := strings.Index(out, want)
		if i < 0 || i > table {
			t.Errorf("%q not listed before the numbers:\n%s", want, out)
		}
	}
	for _, want := range []string{"only in old: clock/now", "only in new: empty"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing:\n%s", want, out)
		}
	}
}

func TestCompareBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	notJSON := write("notjson.json", "BenchmarkX 1 2 ns/op\n")
	notBenchy := write("other.json", `{"name": "x"}`)
	empty := write("empty.json", `{"schema": 1, "tool": "benchy 0.1.0", "cpu": 1, "settings": {}, "experiments": []}`)
	disjoint := writeSubset(t, "clock/now")
	old := compareFile("old.json")
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"one file", []string{old}, "compare takes OLD and NEW"},
		{"missing", []string{old, filepath.Join(dir, "nope.json")}, "nope.json: no such file or directory"},
		{"not JSON", []string{notJSON, old}, "notjson.json: not JSON"},
		{"not benchy", []string{old, notBenchy}, "other.json: not a benchy result"},
		{"no experiments", []string{old, empty}, "empty.json: the result holds no experiment"},
		{"nothing in common", []string{compareFile("othermachine.json"), disjoint}, "have no experiment in common (old: sum/sink"},
		{"bad threshold", []string{"--threshold", "abc", old, old}, `--threshold "abc": not a percentage`},
		{"bare percent", []string{"--fail-on-regression", "5", old, old}, "--fail-on-regression 5: write 5% or 0.05"},
		{"negative", []string{"--threshold", "-1%", old, old}, "must be between 0% and 1000%"},
		{"bad format", []string{"--format", "html", old, old}, "valid formats are text, json, markdown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, stderr, code := runCompare(tt.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d", code, ExitUsage)
			}
			if !strings.Contains(stderr, tt.msg) || strings.Count(stderr, "\n") != 1 || out != "" {
				t.Errorf("stderr %q (stdout %q), want one line with %q", stderr, out, tt.msg)
			}
		})
	}
}

func TestParseFraction(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"2%", 0.02, true}, {"0.02", 0.02, true}, {" 5 % ", 0.05, true}, {"0", 0, true}, {"1", 1, true},
		{"150%", 1.5, true}, {"1000%", 10, true}, {"1001%", 0, false}, {"5", 0, false}, {"-1%", 0, false},
		{"", 0, false}, {"%", 0, false}, {"NaN", 0, false}, {"Inf%", 0, false}, {"2%%", 0, false}, {"0x10", 0, false},
	} {
		got, err := ParseFraction("--x", tt.in)
		if (err == nil) != tt.ok || math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("parseFraction(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzParseFraction(f *testing.F) {
	for _, s := range []string{"2%", "0.02", "5", "-1%", "1e3%", "NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseFraction("--x", s)
		if err == nil && !(v >= 0 && v <= maxFraction) {
			t.Fatalf("parseFraction(%q) = %v without error", s, v)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("error not one line: %q", err)
		}
	})
}

// examples/run.sh, the script users keep, still works: two smoke runs into
// an empty directory write two reports and store both results in the
// smoke store beside them (never the history), and each checks that
// store without gating.
//
// The script builds benchy with go build ./cmd/benchy in the project, as
// clitest.Binary does; each build links for seconds of CPU, so here go is
// a stand-in that checks the script asked for that build, there, and
// copies the tests' benchy.
func TestExampleScript(t *testing.T) {
	t.Parallel()
	bin := benchyBinary(t)
	results := filepath.Join(t.TempDir(), "my results")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		t.Fatal(err)
	}
	fakeGo := t.TempDir()
	stand := fmt.Sprintf(`#!/bin/sh
if [ "$#" = 4 ] && [ "$1 $2 $4" = "build -o ./cmd/benchy" ] && [ "$(pwd -P)" = '%s' ]; then
	exec cp '%s' "$3"
fi
echo "go $*: not the build of benchy run.sh makes in %s" >&2
exit 2
`, root, bin, root)
	if err := os.WriteFile(filepath.Join(fakeGo, "go"), []byte(stand), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		t.Helper()
		cmd := exec.Command("bash", filepath.Join(root, "examples", "run.sh"))
		cmd.Dir = t.TempDir() // any working directory
		cmd.Env = append(os.Environ(), "PATH="+fakeGo+string(os.PathListSeparator)+os.Getenv("PATH"),
			"BENCHY_SMOKE=1", "BENCHY_RESULTS="+results, "BENCHY_BENCH=^(sum/sink|empty)$",
			"BENCHY_STORE="+filepath.Join(results, "not-for-smoke.db"))
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("run.sh: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errb.String())
		}
		return out.String() + errb.String()
	}
	for i := range 2 {
		out := run()
		for _, want := range []string{"stored as commit", "history check", "does not gate"} {
			if !strings.Contains(out, want) {
				t.Errorf("run %d: output lacks %q:\n%s", i+1, want, out)
			}
		}
	}
	jsons, _ := filepath.Glob(filepath.Join(results, "*.json"))
	texts, _ := filepath.Glob(filepath.Join(results, "*.txt"))
	if len(jsons) != 0 || len(texts) != 2 {
		t.Fatalf("results: %v %v; want two reports and no loose result", jsons, texts)
	}
	for _, txt := range texts {
		b, err := os.ReadFile(txt)
		if err != nil || !strings.Contains(string(b), "summary:") {
			t.Errorf("%s: text report missing or incomplete (%v)", txt, err)
		}
	}
	if _, err := os.Stat(filepath.Join(results, "not-for-smoke.db")); err == nil {
		t.Error("a smoke run wrote into BENCHY_STORE")
	}
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, history.Address{Kind: history.KindSQLite, Path: filepath.Join(results, "smoke.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, _, err := s.Rows(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string][]string{}
	for _, r := range rows {
		if r.Basis == history.BasisTime {
			stored[r.Hash] = append(stored[r.Hash], r.Benchmark)
		}
	}
	if len(stored) != 2 {
		t.Fatalf("%d results stored, want 2: %v", len(stored), stored)
	}
	for h, names := range stored {
		r, err := s.Result(ctx, h)
		if err != nil || !r.Settings.Smoke || len(names) != 2 {
			t.Errorf("result %s: %v, smoke %v, experiments %v", history.Short(h), err, r != nil && r.Settings.Smoke, names)
		}
	}
}

// benchstat's reader takes the Go benchmark format of a real run: no
// syntax error, one result per sample, the time unit and config there.
func TestRunGobenchParses(t *testing.T) {
	out, stderr, code := runBinary(t, "run", "--smoke", "--bench", "^(sum/sink|concat/builder)$", "--format", "gobench")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rd := benchfmt.NewReader(strings.NewReader(out), "run.gobench")
	names := map[string]int{}
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", rec)
		case *benchfmt.Result:
			names[string(rec.Name.Base())]++
			if _, ok := rec.Value("sec/op"); !ok {
				t.Errorf("%s: no time: %v", rec.Name, rec.Values)
			}
			if rec.GetConfig("goos") == "" || rec.GetConfig("pkg") != "github.com/benchy-dev/benchy/cmd/benchy" {
				t.Errorf("config missing: %v", rec.Config)
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if names["Sum"] != 3 || names["Concat"] != 3 {
		t.Errorf("results per benchmark %v, want 3 samples each of Sum and Concat", names)
	}
}
