package command

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/pipeline"
)

var _ pipeline.Target = (*Target)(nil)

// fakeOpts drive targets like `benchy exec` does (one run per sample),
// on a locked thread, without timing anything.
var fakeOpts = harness.Options{Iters: 1, WarmupRuns: 2, Samples: 3, Unpinned: true}

func fakeTarget(t *testing.T, ctx context.Context, f *FakeExecutor, command string, cfg Config) *Target {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("resolves POSIX commands")
	}
	cfg.Command, cfg.Executor = command, f
	tg, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

var hooks = Config{Setup: "echo setup", Prepare: "echo prepare", Cleanup: "echo cleanup"}

func TestOrderOfRuns(t *testing.T) {
	f := &FakeExecutor{}
	tg := fakeTarget(t, context.Background(), f, "true A", hooks)
	out := harness.Run(context.Background(), []harness.Target{tg}, fakeOpts)[0]
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	want := []string{"open", "echo setup",
		"echo prepare", "true A", "echo prepare", "true A", // warm-up
		"echo prepare", "true A", "echo prepare", "true A", "echo prepare", "true A", // samples
		"echo cleanup"}
	if got := f.Log(); !slices.Equal(got, want) {
		t.Errorf("calls\n%q\nwant\n%q", got, want)
	}
	if len(out.Samples) != 3 || out.Samples[0].Iters != 1 || out.Samples[0].Ns != 1e6 || out.Samples[0].Status != "" {
		t.Errorf("samples %+v", out.Samples)
	}
	info := tg.Info()
	if info.Name != "true A" || info.Unit != "run" || info.Units != 0 || !strings.HasSuffix(info.Description, "true A") {
		t.Errorf("info %+v", info)
	}
	if tg.Check() != nil || len(tg.Counters().Opened) == 0 {
		t.Errorf("check %v, counters %+v", tg.Check(), tg.Counters())
	}
}

func TestCleanupAfterAFailure(t *testing.T) {
	f := &FakeExecutor{Status: func(call int, j Job) Status {
		if j.Line == "true A" && call > 6 {
			return Status{Code: 3}
		}
		return Status{}
	}}
	out := harness.Run(context.Background(), []harness.Target{fakeTarget(t, context.Background(), f, "true A", hooks)}, fakeOpts)[0]
	var re *RunError
	if !errors.As(out.Err, &re) || re.Run != 3 || re.Status.Code != 3 || re.Hook != "" {
		t.Fatalf("error %#v, want the RunError of run 3", out.Err)
	}
	if want := "run 3 of true A exited with status 3: fake failure of true A"; out.Err.Error() != want {
		t.Errorf("message %q, want %q", out.Err, want)
	}
	if log := f.Log(); log[len(log)-1] != "echo cleanup" || len(out.Samples) != 0 {
		t.Errorf("calls %q, %d samples: want the cleanup last and no sample", log, len(out.Samples))
	}
}

func TestFailingHooks(t *testing.T) {
	failing := func(line string) func(int, Job) Status {
		return func(_ int, j Job) Status {
			if j.Line == line {
				return Status{Signal: "SIGKILL"}
			}
			return Status{}
		}
	}
	// A failed setup fails the target, and the cleanup still runs.
	f := &FakeExecutor{Status: failing("echo setup")}
	out := harness.Run(context.Background(), []harness.Target{fakeTarget(t, context.Background(), f, "true A", hooks)}, fakeOpts)[0]
	if out.Err == nil || out.Err.Error() != "setup (echo setup) of true A was killed by SIGKILL: fake failure of echo setup" {
		t.Errorf("setup error %v", out.Err)
	}
	if got := f.Log(); !slices.Equal(got, []string{"open", "echo setup", "echo cleanup"}) {
		t.Errorf("calls %q", got)
	}
	// A failed prepare fails even with IgnoreFailure.
	cfg := hooks
	cfg.IgnoreFailure = true
	f = &FakeExecutor{Status: failing("echo prepare")}
	out = harness.Run(context.Background(), []harness.Target{fakeTarget(t, context.Background(), f, "true A", cfg)}, fakeOpts)[0]
	var re *RunError
	if !errors.As(out.Err, &re) || re.Hook != "prepare" || re.Run != 1 {
		t.Errorf("prepare error %v", out.Err)
	}
	// A failed cleanup is kept for the CLI to report.
	f = &FakeExecutor{Status: failing("echo cleanup")}
	tg := fakeTarget(t, context.Background(), f, "true A", hooks)
	if out := harness.Run(context.Background(), []harness.Target{tg}, fakeOpts)[0]; out.Err != nil || !errors.As(tg.CleanupErr(), &re) {
		t.Errorf("cleanup: %v, CleanupErr %v", out.Err, tg.CleanupErr())
	}
}

func TestIgnoreFailureMarksTheSample(t *testing.T) {
	f := &FakeExecutor{Status: func(call int, j Job) Status { return Status{Code: call % 2} }}
	out := harness.Run(context.Background(), []harness.Target{fakeTarget(t, context.Background(), f, "true A", Config{IgnoreFailure: true})}, fakeOpts)[0]
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	var got []string
	for _, s := range out.Samples {
		got = append(got, s.Status)
	}
	if want := []string{"exit 1", "", "exit 1"}; !slices.Equal(got, want) {
		t.Errorf("statuses %q, want %q", got, want)
	}
}

func TestCleanupAfterAStop(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	f := &FakeExecutor{Hook: func(call int, j Job) {
		if call == 6 { // the first sample's run
			stop()
		}
	}}
	out := harness.Run(ctx, []harness.Target{fakeTarget(t, ctx, f, "true A", Config{Setup: "echo setup", Prepare: "echo prepare", Cleanup: "echo cleanup"})}, fakeOpts)[0]
	if out.Err != nil || !out.Interrupted || len(out.Samples) != 1 {
		t.Errorf("err %v, interrupted %v, %d samples; want a stop after one sample", out.Err, out.Interrupted, len(out.Samples))
	}
	if log := f.Log(); log[len(log)-1] != "echo cleanup" || log[len(log)-2] != "true A" {
		t.Errorf("calls %q: want the cleanup right after the last run", log)
	}
}

func TestStoppedBeforeARun(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	stop()
	f := &FakeExecutor{}
	tg := fakeTarget(t, ctx, f, "true A", Config{})
	if _, err := tg.Sample(1); !errors.Is(err, context.Canceled) {
		t.Errorf("Sample after stop: %v, want context.Canceled", err)
	}
	if _, err := tg.Sample(2); err == nil || !strings.Contains(err.Error(), "one run") {
		t.Errorf("Sample(2): %v", err)
	}
	if log := f.Log(); len(log) != 0 {
		t.Errorf("ran %q after the stop", log)
	}
}

func TestInterleavedRunsAlternate(t *testing.T) {
	f := &FakeExecutor{}
	a := fakeTarget(t, context.Background(), f, "true A", Config{Setup: "echo setup A", Cleanup: "echo cleanup A"})
	b := fakeTarget(t, context.Background(), f, "true B", Config{Setup: "echo setup B", Cleanup: "echo cleanup B"})
	opts := fakeOpts
	opts.Samples = 4
	for _, out := range harness.Interleave(context.Background(), []harness.Target{a, b}, opts) {
		if out.Err != nil || len(out.Samples) != 4 {
			t.Fatalf("%s: %v, %d samples", out.Name, out.Err, len(out.Samples))
		}
	}
	want := []string{"open", "echo setup A", "open", "echo setup B",
		"true A", "true A", "true B", "true B", // warm-ups
		"true A", "true B", "true B", "true A", "true A", "true B", "true B", "true A", // ABBA
		"echo cleanup B", "echo cleanup A"} // the last set up is cleaned up first
	if got := f.Log(); !slices.Equal(got, want) {
		t.Errorf("calls\n%q\nwant\n%q", got, want)
	}
}

// A command line names its experiment, and a hook's line its errors,
// with a PostgreSQL password masked: the name reaches the result, the
// history and every table.
func TestShownHidesPassword(t *testing.T) {
	const pw = "PWSECRET"
	f := &FakeExecutor{Status: func(_ int, j Job) Status {
		if strings.HasPrefix(j.Line, "echo setup") {
			return Status{Code: 1}
		}
		return Status{}
	}}
	tg := fakeTarget(t, context.Background(), f, "true postgres://u:"+pw+"@h/db", Config{Setup: "echo setup password=" + pw})
	info := tg.Info()
	if want := "true postgres://u:xxxxx@h/db"; tg.Name() != want || info.Name != want || !strings.HasSuffix(info.Description, want) {
		t.Errorf("name %q, info %+v; want %q", tg.Name(), info, want)
	}
	out := harness.Run(context.Background(), []harness.Target{tg}, fakeOpts)[0]
	var re *RunError
	if !errors.As(out.Err, &re) || re.Line != "echo setup password=xxxxx" || re.Target != "true postgres://u:xxxxx@h/db" {
		t.Errorf("setup error %#v", out.Err)
	}
	// Named by Config.Name, as exec names it, the same; and a name
	// shown already is shown unchanged.
	named := fakeTarget(t, context.Background(), f, "true", Config{Name: "psql postgres://u:" + pw + "@h/db"})
	if got := named.Name(); got != "psql postgres://u:xxxxx@h/db" || Shown(got) != got {
		t.Errorf("named %q, shown again %q", got, Shown(got))
	}
}
