package command

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
)

var (
	spOnce sync.Once
	sp     *Spawner
	spErr  error
)

// testSpawner is the helper every real test shares, as targets of one
// benchy run do.
func testSpawner(t *testing.T) *Spawner {
	t.Helper()
	spOnce.Do(func() { sp, spErr = NewSpawner() })
	if spErr != nil {
		t.Fatal(spErr)
	}
	return sp
}

func closeSpawner() {
	if sp != nil {
		sp.Close()
	}
}

// lastCPU is the last CPU the test may run on: the one the tests pin to.
func lastCPU(t *testing.T) int {
	t.Helper()
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Fatal(err)
	}
	last := -1
	for cpu := 0; cpu < 8*len(set); cpu++ {
		if set.IsSet(cpu) {
			last = cpu
		}
	}
	return last
}

// pinned are the options of a real measurement: one run per sample, on
// the last CPU with benchy's other threads kept off it.
func pinned(t *testing.T, samples int) harness.Options {
	return harness.Options{CPU: lastCPU(t), Isolate: true, Iters: 1, WarmupRuns: 1, Samples: samples}
}

// measure runs cfg through the harness as the pipeline would.
func measure(t *testing.T, ctx context.Context, cfg Config, opts harness.Options) (*Target, harness.Outcome) {
	t.Helper()
	if cfg.Executor == nil {
		cfg.Executor = testSpawner(t)
	}
	tg, err := New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	outs := harness.Run(ctx, []harness.Target{tg}, opts)
	if len(outs) != 1 {
		t.Fatalf("%d outcomes, want 1", len(outs))
	}
	return tg, outs[0]
}

func TestChildRunsOnThePinnedCPU(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cpus")
	opts := pinned(t, 3)
	for _, tc := range []struct {
		name string
		exec func() Executor
	}{{"helper", func() Executor { return testSpawner(t) }}, {"local", func() Executor { return NewLocalSpawner() }}} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(file)
			tg, out := measure(t, context.Background(), Config{Command: childLine(t, "cpus", file), Executor: tc.exec()}, opts)
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			want := strconv.Itoa(opts.CPU)
			if b, err := os.ReadFile(file); err != nil || string(b) != want {
				t.Errorf("the child's Cpus_allowed_list = %q (%v), want %q", b, err, want)
			}
			rep := tg.Counters()
			for i, s := range out.Samples {
				if s.CPU != opts.CPU || s.AllowedCPUs != want || s.Iters != 1 || s.Status != "" {
					t.Errorf("sample %d: cpu %d, allowed %q, iters %d, status %q; want cpu %d, allowed %q, 1 iter, no status",
						i, s.CPU, s.AllowedCPUs, s.Iters, s.Status, opts.CPU, want)
				}
				for _, c := range append([]string{result.CounterTaskClock, CounterUserNs, CounterSysNs, CounterMaxRSS,
					result.CounterMinorFaults, CounterMajorFaults, result.CounterVoluntaryCS, result.CounterInvoluntaryCS}, rep.Opened...) {
					if _, ok := s.Counters[c]; !ok {
						t.Errorf("sample %d has no %s: %v", i, c, s.Counters)
					}
				}
				if _, ok := s.Counters[CounterRSSFloor]; ok == (starterCode != nil) {
					t.Errorf("sample %d: rss-floor-kb recorded %v, want it only where runs are forked directly (no starter for %s): %v", i, ok, runtime.GOARCH, s.Counters)
				}
			}
			for _, c := range []string{result.CounterCycles, result.CounterInstructions} {
				if !slices.Contains(rep.Opened, c) && rep.Unavailable[c] == "" {
					t.Errorf("%s neither opened nor said unavailable: %+v", c, rep)
				}
			}
			if rep.Notes[CounterMaxRSS] == "" || rep.Notes[result.CounterTaskClock] == "" {
				t.Errorf("the report does not say where max-rss-kb and task-clock come from: %+v", rep.Notes)
			}
			t.Logf("counters: %+v; first sample %+v", rep, out.Samples[0])
		})
	}
}

func TestSleepIsTimed(t *testing.T) {
	_, out := measure(t, context.Background(), Config{Command: "sleep 0.02"}, pinned(t, 5))
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	for i, s := range out.Samples {
		if s.Ns < (20 * time.Millisecond).Nanoseconds() {
			t.Errorf("sample %d of sleep 0.02 took %v, less than the sleep", i, time.Duration(s.Ns))
		}
		t.Logf("sample %d: %v, task-clock %v", i, time.Duration(s.Ns), time.Duration(s.Counters[result.CounterTaskClock]))
	}
}

// TestTaskClockCountsTheChild: perf's inherited task-clock counts every
// run, and agrees with wait4's user+sys time. Without the dummy event of
// childCounters most pinned runs counted 0 (the kernel swapped the perf
// contexts of the forking thread and its vfork child).
func TestTaskClockCountsTheChild(t *testing.T) {
	tg, out := measure(t, context.Background(), Config{Command: childLine(t, "spin", "20ms")}, pinned(t, 6))
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	if note := tg.Counters().Notes[result.CounterTaskClock]; !strings.HasPrefix(note, "perf") {
		t.Skipf("task-clock is not perf's here: %s", note)
	}
	for i, s := range out.Samples {
		tc := s.Counters[result.CounterTaskClock]
		cpu := s.Counters[CounterUserNs] + s.Counters[CounterSysNs]
		if tc < cpu/2 || tc > 2*cpu+(10*time.Millisecond).Nanoseconds() || tc > s.Ns {
			t.Errorf("sample %d: task-clock %v, user+sys %v, wall %v", i, time.Duration(tc), time.Duration(cpu), time.Duration(s.Ns))
		}
	}
}

func TestFailedRun(t *testing.T) {
	_, out := measure(t, context.Background(), Config{Command: childLine(t, "exit", "3", "it broke")}, pinned(t, 3))
	var re *RunError
	if !errors.As(out.Err, &re) {
		t.Fatalf("error %v, want a *RunError", out.Err)
	}
	if re.Status.Code != 3 || re.Run != 1 || len(re.Stderr) != 10 || re.Stderr[9] != "it broke" {
		t.Errorf("run error %+v, want the first run, exit 3, the last 10 lines ending in %q", re, "it broke")
	}
	if msg := out.Err.Error(); !strings.Contains(msg, "run 1 of ") || !strings.HasSuffix(msg, "exited with status 3: it broke") {
		t.Errorf("message %q", msg)
	}
}

func TestIgnoredFailureIsKept(t *testing.T) {
	for _, tc := range []struct{ line, status string }{
		{childLine(t, "exit", "3"), "exit 3"},
		{`kill -KILL $$`, "signal SIGKILL"},
	} {
		_, out := measure(t, context.Background(), Config{Command: tc.line, Shell: strings.Contains(tc.line, "$$"), IgnoreFailure: true}, pinned(t, 2))
		if out.Err != nil || len(out.Samples) != 2 {
			t.Fatalf("%s: %v, %d samples", tc.line, out.Err, len(out.Samples))
		}
		for i, s := range out.Samples {
			if s.Status != tc.status {
				t.Errorf("%s: sample %d status %q, want %q", tc.line, i, s.Status, tc.status)
			}
		}
	}
}

func TestInputIsStdin(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in")
	os.WriteFile(in, []byte("hello\n"), 0o644)
	line := `read x && test "$x" = hello`
	if _, out := measure(t, context.Background(), Config{Command: line, Shell: true, Input: in}, pinned(t, 1)); out.Err != nil {
		t.Errorf("with --input: %v", out.Err)
	}
	if _, out := measure(t, context.Background(), Config{Command: line, Shell: true}, pinned(t, 1)); out.Err == nil {
		t.Error("without --input the run read a line: stdin is not /dev/null")
	}
}

// TestStopEndsTheRun: a child still running when stop is closed gets
// SIGTERM, the sample returns an error wrapping context.Canceled (which the
// harness counts as an interruption, not a failure), and the cleanup runs.
func TestStopEndsTheRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		exec func() Executor
	}{{"helper", func() Executor { return testSpawner(t) }}, {"local", func() Executor { return NewLocalSpawner() }}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			started, mark := filepath.Join(dir, "started"), filepath.Join(dir, "cleaned")
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			opts := pinned(t, 3)
			opts.WarmupRuns = 0
			cfg := Config{Command: "touch " + started + "; exec sleep 60", Shell: true,
				Cleanup: "touch " + mark, Executor: tc.exec()}
			done := make(chan harness.Outcome, 1)
			go func() { _, out := measure(t, ctx, cfg, opts); done <- out }()
			if !waitFor(started, func() bool { return len(done) > 0 }) {
				t.Fatalf("the run ended before it started the program: %v", (<-done).Err)
			}
			closed := time.Now()
			stop()
			out := <-done
			took := time.Since(closed)
			t.Logf("returned %v after stop: %v", took, out.Err)
			if out.Err != nil || !out.Interrupted {
				t.Errorf("error %v, interrupted %v: want the stop counted as an interruption", out.Err, out.Interrupted)
			}
			if took > 20*time.Second {
				t.Errorf("the run took %v to end after stop", took)
			}
			if _, err := os.Stat(mark); err != nil {
				t.Errorf("cleanup did not run after the stop: %v", err)
			}
		})
	}
}

func TestSpawnCost(t *testing.T) {
	measure(t, context.Background(), Config{Command: "true"}, pinned(t, 1))
	c := testSpawner(t).SpawnCost()
	if c <= 0 {
		t.Fatalf("spawn cost %v after an Open", c)
	}
	t.Logf("spawn cost %v, max-rss floor %d KiB", c, testSpawner(t).RSSFloorKB())
}

// TestClosingTheSpawnerEndsItsRun: when benchy closes the helper's pipe,
// or dies and the kernel closes it, the helper stops the run in progress
// and exits, so no child outlives benchy.
func TestClosingTheSpawnerEndsItsRun(t *testing.T) {
	s, err := NewSpawner()
	if err != nil {
		t.Fatal(err)
	}
	started := filepath.Join(t.TempDir(), "started")
	p, err := Resolve("touch "+started+"; exec sleep 60", true)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- harness.Pinned(lastCPU(t), true, func() error {
			if _, err := s.Open(); err != nil {
				return err
			}
			_, err := s.Exec(context.Background(), p.job("", false))
			return err
		})
	}()
	if !waitFor(started, func() bool { return len(done) > 0 }) {
		t.Fatalf("the run ended before it started the program: %v", <-done)
	}
	closed := time.Now()
	closing := make(chan error, 1)
	go func() { closing <- s.Close() }()
	err = <-done
	t.Logf("the run ended %v after Close: %v", time.Since(closed), err)
	closeErr := <-closing
	if !errors.Is(err, context.Canceled) && (err == nil || !strings.Contains(err.Error(), "spawner process is gone")) {
		t.Errorf("Exec after Close: %v, want context.Canceled or a gone spawner", err)
	}
	if closeErr != nil {
		t.Errorf("Close: %v", closeErr)
	}
}

// waitFor waits until the file path exists, or until ended says the run
// ended first (then false): a run that fails before it starts its program
// fails the test instead of hanging it.
func waitFor(path string, ended func() bool) bool {
	for {
		if _, err := os.Stat(path); err == nil {
			return true
		}
		if ended() {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}
