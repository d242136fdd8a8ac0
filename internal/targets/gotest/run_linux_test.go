package gotest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
)

// The tests below build test binaries of the module of honest, lying and
// misbehaving benchmarks (testdata) and run them as benchy does: what they
// assert holds on any machine (names, counts, messages), never a time.

// builds are the test binaries build made, by pattern, in dir: the tests
// only run and read them, so each package of testdata is linked once per
// test process, not once per test (./ends was linked four times).
//
// The tests that only build binaries and read them, or run them for their
// names (TestStdCorpusAccusations, TestProgram, ...), call t.Parallel: they
// run after the others, which time ramps or set the environment, two at a
// time, the builds of one beside the disassembly of another. They do not
// use build, whose map is not locked.
var builds struct {
	dir  string
	bins map[string]*Binary
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
	}
	os.Exit(code)
}

// build is the test binary of the package pattern of testdata, built by
// the first test that asks for it. Each test gets its own copy of the
// Binary, without what another test's calls cached in it.
func build(t *testing.T, pattern string) *Binary {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "benchy-gotest-test")
		if err != nil {
			t.Fatal(err)
		}
		builds.dir, builds.bins = dir, map[string]*Binary{}
	}
	bin, ok := builds.bins[pattern]
	if !ok {
		dir, err := os.MkdirTemp(builds.dir, "")
		if err != nil {
			t.Fatal(err)
		}
		bin = buildInto(t, testdata, pattern, dir, BuildOptions{})
		builds.bins[pattern] = bin
	}
	return &Binary{Package: bin.Package, Path: bin.Path, Debug: bin.Debug}
}

// buildIn builds the test binary of the package pattern of the module in
// dir, with options o, in a directory of the test's own.
func buildIn(t *testing.T, dir, pattern string, o BuildOptions) *Binary {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	return buildInto(t, dir, pattern, t.TempDir(), o)
}

// buildInto builds the test binary of the package pattern of the module in
// dir into out, with options o.
func buildInto(t *testing.T, dir, pattern, out string, o BuildOptions) *Binary {
	t.Helper()
	ch := NewChildren(context.Background())
	pkgs, err := List(ch, dir, []string{pattern}, nil)
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("go list %s: %v %v", pattern, pkgs, err)
	}
	bin, err := BuildWith(ch, pkgs[0], out, nil, o)
	if err != nil {
		var be *BuildError
		if errors.As(err, &be) {
			t.Fatalf("%v\n%s", err, be.Output)
		}
		t.Fatal(err)
	}
	return bin
}

// go's temporary directory of a build ($WORK) is in the build's own
// directory, which benchy removes however the build ends, not in the
// system's, where a go killed mid-build leaves it. (-work keeps $WORK
// and names it; a compile error makes the build's output the error's.)
func TestBuildWorkIsOurs(t *testing.T) {
	notUnderRace(t)
	if testing.Short() {
		t.Skip("runs go build")
	}
	mod := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":         "module example.com/broken\n\ngo 1.22\n",
		"broken_test.go": "package broken\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) { undefined() }\n",
	} {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	system := t.TempDir()
	t.Setenv("TMPDIR", system)
	t.Setenv("GOTMPDIR", "")
	ch := NewChildren(context.Background())
	pkgs, err := List(ch, mod, []string{"."}, nil)
	if err != nil || len(pkgs) != 1 {
		t.Fatalf("go list: %v %v", pkgs, err)
	}
	dir := t.TempDir()
	_, err = BuildWith(ch, pkgs[0], dir, []string{"-work"}, BuildOptions{})
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("build: %v, want a BuildError", err)
	}
	_, rest, ok := strings.Cut(be.Output, "WORK=")
	work, _, _ := strings.Cut(rest, "\n")
	if !ok || !strings.HasPrefix(work, dir+string(filepath.Separator)) {
		t.Errorf("go's WORK is %q, want it in the build's directory %s; output:\n%s", work, dir, be.Output)
	}
}

// How a build that cannot succeed ends: a package without benchmarks is a
// usage error, before any build; a compile error, or a test file Rewrite
// cannot parse (built anyway: the compiler says it better), is a
// BuildError that names the user's file, never the rewritten copy
// (under dir/src, which the compiler names relative to the package).
func TestBuildErrors(t *testing.T) {
	notUnderRace(t)
	if testing.Short() {
		t.Skip("runs go build")
	}
	for _, tt := range []struct {
		name, src string
		usage     bool
		says      string
	}{
		{"no benchmarks", "package p\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n", true, "has no benchmarks"},
		{"compile error", "package p\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) { undefined() }\n", false, "p_test.go:5:"},
		{"does not parse", "package p\n\nimport \"testing\"\n\nfunc BenchmarkX(b *testing.B) {\n", false, "p_test.go:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mod := t.TempDir()
			for name, src := range map[string]string{"go.mod": "module example.com/p\n\ngo 1.22\n", "p.go": "package p\n", "p_test.go": tt.src} {
				if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			ch := NewChildren(context.Background())
			pkgs, err := List(ch, mod, []string{"."}, nil)
			if err != nil || len(pkgs) != 1 {
				t.Fatalf("go list: %v %v", pkgs, err)
			}
			dir := t.TempDir()
			_, err = BuildWith(ch, pkgs[0], dir, nil, BuildOptions{})
			var ue *UsageError
			var be *BuildError
			switch {
			case tt.usage:
				if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.says) {
					t.Errorf("build: %v, want a usage error saying %q", err, tt.says)
				}
			case !errors.As(err, &be):
				t.Errorf("build: %v, want a BuildError", err)
			case !strings.Contains(be.Output, tt.says) || strings.Contains(be.Output, "src/example.com/p"):
				t.Errorf("build output does not name the user's file:\n%s", be.Output)
			}
		})
	}
}

// quick are options that keep a run short: a CPU this process may use.
func quick(t *testing.T) Options {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Skip("no affinity:", err)
	}
	cpu := 0
	for !set.IsSet(cpu) {
		cpu++
	}
	return Options{BenchText: ".", SampleTime: 5 * time.Millisecond, PerProcess: 2, CPU: cpu, GOMAXPROCS: runtime.GOMAXPROCS(0)}
}

func displays(ts []*Target) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Display)
	}
	return out
}

func byDisplay(ts []*Target, name string) *Target {
	for _, t := range ts {
		if t.Display == name {
			return t
		}
	}
	return nil
}

// What a benchmark prints is not a result: one that prints is measured,
// one that prints another's result line and failure forges nothing, and
// B/op, allocs/op, MB/s and b.ReportMetric's units are testing's own.
func TestPrintsAreNotResults(t *testing.T) {
	bin := build(t, "./output")
	o := quick(t)
	ts, err := Calibrate(context.Background(), bin, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := displays(ts); !slices.Equal(got, []string{"Prints", "Forger", "Real", "Metrics"}) {
		t.Fatalf("targets %q, want Prints, Forger, Real, Metrics", got)
	}
	for _, tg := range ts {
		if tg.Fail != "" {
			t.Errorf("%s: %s", tg.Display, tg.Fail)
			continue
		}
		tg.Open()
		samples, err := tg.Sample(tg.N)
		if err != nil || len(samples) != o.PerProcess {
			t.Errorf("%s: %d samples, %v; want %d", tg.Display, len(samples), err, o.PerProcess)
			continue
		}
		// testing's own counts, not the forged line's 777 allocs/op.
		// Not 0: a call that prints may allocate (fmt's buffer, after
		// the collection testing runs before each call), a few bytes an
		// op at the small N of a busy machine's ramp, a few hundred at
		// N=1.
		totals := tg.Close(harness.EndCompleted)
		if !totals.AllocsMeasured || totals.AllocsPerOp > 2 || totals.BytesPerOp >= 4096 {
			t.Errorf("%s: %+v, want testing's own counts (at most 2 allocs/op, under 4 KiB/op), measured", tg.Display, totals)
		}
		if tg.Display == "Metrics" {
			m := samples[0].Metrics
			if m["widgets/op"] != 3 || m["MB/s"] <= 0 || m["ns/op"] != 5 || len(m) != 3 {
				t.Errorf("Metrics: %v, want widgets/op 3, MB/s, and its own ns/op 5", m)
			}
		} else if samples[0].Metrics != nil {
			t.Errorf("%s: metrics %v", tg.Display, samples[0].Metrics)
		}
	}
}

// A benchmark that does not return as it should is a target that fails
// with why, found from the records: os.Exit(0) (-test.paniconexit0), a
// panic with its value and line, os.Exit(3), a fatal error of the runtime
// (its line, not the tail of the goroutine dump after it), b.Fatal in a sub-benchmark
// (its sibling measured, the parent not a target); one skipped is none.
func TestCallsThatDoNotReturn(t *testing.T) {
	bin := build(t, "./ends")
	ts, err := Calibrate(context.Background(), bin, quick(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"OK", "ExitZero", "Panics", "Exits", "Fatal", "Sub/bad", "Sub/good", "Hangs", "Leaves"}
	if got := displays(ts); !slices.Equal(got, want) {
		t.Fatalf("targets %q, want %q", got, want)
	}
	fails := map[string][]string{
		"ExitZero": {"BenchmarkExitZero called os.Exit(0) at ends_test.go:", "a benchmark must return"},
		"Panics":   {"BenchmarkPanics panicked at ends_test.go:", "the table is empty"},
		"Exits":    {"BenchmarkExits: the test process ended during the call", "exit status 3"},
		"Fatal":    {"BenchmarkFatal: the test process ended during the call", "exit status 2): fatal error: sync: unlock of unlocked mutex"},
		"Sub/bad":  {"BenchmarkSub/bad failed: ends_test.go:", "the fixture is missing"},
	}
	for _, tg := range ts {
		words, fails := fails[tg.Display]
		if !fails {
			if tg.Fail != "" {
				t.Errorf("%s failed: %s", tg.Display, tg.Fail)
			}
			continue
		}
		for _, w := range words {
			if !strings.Contains(tg.Fail, w) {
				t.Errorf("%s: %q, want %q in it", tg.Display, tg.Fail, w)
			}
		}
		if _, err := tg.Sample(1); err == nil || err.Error() != tg.Fail {
			t.Errorf("%s: Sample's error %v, want %q", tg.Display, err, tg.Fail)
		}
	}
	good := byDisplay(ts, "Sub/good")
	if samples, err := good.Sample(good.N); err != nil || len(samples) != 2 {
		t.Errorf("Sub/good: %d samples, %v", len(samples), err)
	}
}

// A benchmark that never returns is ended by its -test.timeout, in the
// calibration or in a sample run, and named.
func TestTimeout(t *testing.T) {
	bin := build(t, "./ends")
	o := quick(t)
	o.BenchText, o.Timeout = "Hangs", 2*time.Second
	t.Setenv("BENCHY_TESTDATA_HANG", "always")
	ts, err := Calibrate(context.Background(), bin, o)
	if err != nil || len(ts) != 1 {
		t.Fatalf("targets %v, %v", displays(ts), err)
	}
	if want := "BenchmarkHangs did not return within 2s (-test.timeout)"; !strings.Contains(ts[0].Fail, want) {
		t.Errorf("calibration: %q, want %q", ts[0].Fail, want)
	}

	t.Setenv("BENCHY_TESTDATA_HANG", "sampling")
	ts, err = Calibrate(context.Background(), bin, o)
	if err != nil || len(ts) != 1 || ts[0].Fail != "" {
		t.Fatalf("targets %v, %v", ts, err)
	}
	_, err = ts[0].Sample(ts[0].N)
	if want := "BenchmarkHangs did not return within 2s (-test.timeout)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("sample: %v, want %q", err, want)
	}
}

// The default timeout is go test's, and grows with what a run does.
func TestTimeoutRule(t *testing.T) {
	o := Options{SampleTime: 100 * time.Millisecond}
	if got := o.timeout(11); got != 10*time.Minute+11*time.Second {
		t.Errorf("11 calls of 100ms: %v, want 10m11s", got)
	}
	if got := o.timeout(rampCalls); got != 10*time.Minute+10*time.Second {
		t.Errorf("a ramp: %v, want 10m10s", got)
	}
	o.Timeout = time.Second
	if got := o.timeout(11); got != time.Second {
		t.Errorf("with Timeout: %v", got)
	}
}

// pidIn waits for a process id in file.
func pidIn(t *testing.T, file string) int {
	t.Helper()
	for range 600 {
		if b, err := os.ReadFile(file); err == nil {
			pid, err := strconv.Atoi(string(b))
			if err != nil {
				t.Fatal(err)
			}
			return pid
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("no process id written in 30s")
	return 0
}

// gone reports whether the process pid has ended (a zombie has: it is
// its parent's to reap).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}

// A stop request ends the test process at once, in the calibration and in
// a sample run, and it is waited for: when Calibrate or Sample returns,
// it is gone, and they say stopped.
func TestStopEndsTheProcess(t *testing.T) {
	bin := build(t, "./ends")
	for _, phase := range []string{"always", "sampling"} {
		t.Run(phase, func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pid")
			t.Setenv("BENCHY_TESTDATA_HANG", phase)
			t.Setenv("BENCHY_TESTDATA_PIDFILE", pidfile)
			o := quick(t)
			o.BenchText = "Hangs"
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			errc := make(chan error, 1)
			go func() {
				ts, err := Calibrate(ctx, bin, o)
				if err == nil && len(ts) == 1 {
					_, err = ts[0].Sample(ts[0].N)
				}
				errc <- err
			}()
			pid := pidIn(t, pidfile)
			stop()
			err := <-errc
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v, want it stopped", err)
			}
			if !gone(pid) {
				unix.Kill(pid, unix.SIGKILL)
				t.Errorf("the test process %d is still running", pid)
			}
		})
	}
}

// What a benchmark leaves running in its process group is killed when the
// test process ends.
func TestLeftoversAreKilled(t *testing.T) {
	bin := build(t, "./ends")
	pidfile := filepath.Join(t.TempDir(), "pid")
	t.Setenv("BENCHY_TESTDATA_LEAVE", "1")
	t.Setenv("BENCHY_TESTDATA_PIDFILE", pidfile)
	o := quick(t)
	o.BenchText = "Leaves"
	ts, err := Calibrate(context.Background(), bin, o)
	if err != nil || len(ts) != 1 || ts[0].Fail != "" {
		t.Fatalf("targets %v, %v", ts, err)
	}
	pid := pidIn(t, pidfile)
	for i := 0; !gone(pid); i++ {
		if i == 100 { // the kill is sent before Calibrate returns; the exit may take a moment
			unix.Kill(pid, unix.SIGKILL)
			t.Fatalf("the program the benchmark started (%d) is still running", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Under GOMAXPROCS=1 testing adds no -1 suffix: sub-benchmarks whose names
// end in -16 and -1024 stay two.
func TestGOMAXPROCS1(t *testing.T) {
	notUnderRace(t)
	bin := build(t, "./procs")
	o := quick(t)
	o.GOMAXPROCS = 1
	ts, err := Calibrate(context.Background(), bin, o)
	if err != nil {
		t.Fatal(err)
	}
	if got := displays(ts); !slices.Equal(got, []string{"Size/n-16", "Size/n-1024"}) {
		t.Fatalf("targets %q, want Size/n-16 and Size/n-1024", got)
	}
	for _, tg := range ts {
		if samples, err := tg.Sample(tg.N); err != nil || len(samples) != 2 {
			t.Errorf("%s: %d samples, %v", tg.Display, len(samples), err)
		}
	}
}

// Two packages named util keep their benchmarks apart.
func TestSameLastElement(t *testing.T) {
	notUnderRace(t)
	a, b := build(t, "./a/util"), build(t, "./b/util")
	o := quick(t)
	o.Packages = []string{a.Package.ImportPath, b.Package.ImportPath}
	var got []string
	for _, bin := range []*Binary{a, b} {
		ts, err := Calibrate(context.Background(), bin, o)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, displays(ts)...)
	}
	if !slices.Equal(got, []string{"a/util.X", "b/util.X"}) {
		t.Errorf("targets %q, want a/util.X and b/util.X", got)
	}
}

// A file with a Run that is not testing's on a b, and one that imports
// testing with a dot, build and are measured.
func TestRewriteBuilds(t *testing.T) {
	notUnderRace(t)
	bin := build(t, "./typed")
	ts, err := Calibrate(context.Background(), bin, quick(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := displays(ts); !slices.Equal(got, []string{"Dot/sub", "Named"}) {
		t.Errorf("targets %q, want Dot/sub and Named", got)
	}
}

// A module whose go.mod declares an old Go (1.11, from before any; 1.18,
// from before range over an integer) builds: the helper is compiled at the
// module's language version; go118's tests have a call go vet refuses,
// which go test would stop at, and benchy's build does not. So does a package whose external tests
// dot-import it, with and without --profile's files: the helper's names
// in one test package must not meet the other's. Each is measured.
func TestOldModulesAndDotImportsBuild(t *testing.T) {
	notUnderRace(t)
	t.Parallel()
	old, _ := filepath.Abs("../../../testdata/gotest-old")
	cases := []struct {
		dir, pattern string
		profile      bool
		want         []string
	}{
		{filepath.Join(old, "go111"), ".", false, []string{"Sum"}},
		{filepath.Join(old, "go111"), ".", true, []string{"Sum"}},
		{filepath.Join(old, "go118"), ".", false, []string{"Max"}},
		{testdata, "./dotimport", false, []string{"External", "Internal"}},
		{testdata, "./dotimport", true, []string{"External", "Internal"}},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.dir)+c.pattern+map[bool]string{true: "/profile"}[c.profile], func(t *testing.T) {
			bin := buildIn(t, c.dir, c.pattern, BuildOptions{Profile: c.profile})
			ts, err := Calibrate(context.Background(), bin, quick(t))
			if err != nil {
				t.Fatal(err)
			}
			got := displays(ts)
			slices.Sort(got)
			if !slices.Equal(got, c.want) {
				t.Errorf("targets %q, want %q", got, c.want)
			}
		})
	}
}

// A benchmark each of whose calls pays 30 ms beside a tiny op stops
// testing's ramp at N=1 when the sample time is shorter: a second, longer
// ramp shows that its time per op depends on N, which is said with the
// arithmetic, and who pays it (b.RunParallel's goroutines), not as a
// setup the benchmark does not have. The ramp is real: under two CPU hogs
// one call of it read 286 ms against 37 ms (b.RunParallel's goroutines
// waited for a CPU), which hides the rule, so a ramp is measured up to
// three times; the rule itself is tested on constructed ramps
// (TestPerCallCostMessage).
func TestCostDependsOnN(t *testing.T) {
	notUnderRace(t)
	bin := build(t, "./amortised")
	var failures []string
	for range 3 {
		why := costDependsOnN(t, bin)
		if why == "" {
			return
		}
		failures = append(failures, why)
	}
	t.Errorf("in 3 ramps:\n%s", strings.Join(failures, "\n"))
}

// costDependsOnN calibrates the ParallelStart benchmark of bin and says
// what is wrong with its findings; "" when nothing is.
func costDependsOnN(t *testing.T, bin *Binary) string {
	t.Helper()
	o := quick(t)
	o.BenchText = "ParallelStart"
	ts, err := Calibrate(context.Background(), bin, o)
	if err != nil || len(ts) != 1 {
		t.Fatal(ts, err)
	}
	past := 0
	for _, c := range ts[0].Calibration {
		if c.N > 1 {
			past++
		}
	}
	if past < 2 { // a busy machine's ramp: tried again, as a wrong finding is
		return fmt.Sprintf("calls past N=1 after the longer ramp: %d, want 2 or more", past)
	}
	var got []string
	for _, f := range ts[0].Check() {
		got = append(got, f.Code)
		if f.Code == result.CodeDependsOnN && (!strings.Contains(f.Message, "b.RunParallel") || !strings.Contains(f.Message, "per op at N=1 against ")) {
			t.Errorf("the finding does not say who pays, or the arithmetic: %s", f.Message)
		}
	}
	if !slices.Contains(got, result.CodeDependsOnN) || slices.Contains(got, result.CodeSetupInTimer) || slices.Contains(got, result.CodeSetupUnknown) {
		var calls []string
		for _, c := range ts[0].Calibration {
			calls = append(calls, fmt.Sprintf("N=%d %d ns", c.N, ownNs(c)))
		}
		return fmt.Sprintf("findings %q, want cost-depends-on-n and neither setup-in-timer nor setup-unknown; samples' N=%d, calls %s", got, ts[0].N, strings.Join(calls, ", "))
	}
	return ""
}

// A benchmark that collects in every call is measured again as go test
// runs it, at the GOMAXPROCS of every CPU and not pinned: its samples
// are kept for analyze to compare.
func TestMeasuredAsGoTest(t *testing.T) {
	notUnderRace(t)
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: go test's GOMAXPROCS is benchy's")
	}
	bin := build(t, "./amortised")
	o := quick(t)
	o.GOMAXPROCS = 1
	o.BenchText = "Concat"
	ts, err := Calibrate(context.Background(), bin, o)
	if err != nil || len(ts) != 1 {
		t.Fatal(ts, err)
	}
	tg := ts[0]
	if err := tg.Open(); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := tg.Sample(tg.N); err != nil {
			t.Fatal(err)
		}
	}
	tg.Check()
	at := tg.AtGoTestSettings()
	if at == nil || at.GOMAXPROCS != runtime.NumCPU() || len(at.NsPerOp) != o.PerProcess {
		t.Fatalf("as go test: %+v, want GOMAXPROCS %d and %d calls", at, runtime.NumCPU(), o.PerProcess)
	}
}

// A benchmark that sorts a package-level slice in place sorts sorted data
// after its first iteration: testing's N=1 call shows it, and it is
// input-consumed, with the arithmetic. Its twins that sort a fresh copy
// in every iteration (made with the timer stopped, or running) are not,
// nor is the one whose setup is timed in every call. The evidence is one
// call, which another task can slow beyond what its run delay accounts
// for: the lie is calibrated up to three times, and must be caught once;
// no honest benchmark may be accused in any calibration.
func TestInputConsumed(t *testing.T) {
	notUnderRace(t)
	bin := build(t, "./consumed")
	o := quick(t)
	caught := false
	for try := range 3 {
		if try > 0 {
			o.BenchText = "SortInPlace"
		}
		ts, err := Calibrate(context.Background(), bin, o)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range ts {
			var got []string
			var consumed string
			for _, f := range tg.RampFindings() {
				got = append(got, f.Code)
				if f.Code == result.CodeInputConsumed {
					consumed = f.Message
				}
			}
			fi, _ := tg.FirstIteration()
			t.Logf("%s: %q; N=1 %.0f ns, later %.0f + %.0f ns/op over %d calls", tg.Display, got, fi.FirstNs, fi.FixedNs, fi.PerOpNs, fi.Calls)
			switch tg.Display {
			case "SortInPlace":
				if consumed != "" && (!strings.Contains(consumed, "for N=1") || !strings.Contains(consumed, "the later ones") || !strings.Contains(consumed, "b.StopTimer")) {
					t.Errorf("the finding does not give the arithmetic and the remedy: %s", consumed)
				}
				caught = caught || consumed != ""
			case "SortCopy", "SortCopyTimed", "SortSetup":
				if consumed != "" {
					t.Errorf("%s is honest, accused: %s", tg.Display, consumed)
				}
			default:
				t.Errorf("a benchmark %s", tg.Display)
			}
		}
		if caught {
			break
		}
	}
	if !caught {
		t.Error("SortInPlace sorts its input in place, not caught in three calibrations")
	}
}
