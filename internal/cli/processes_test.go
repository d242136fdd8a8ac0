package cli

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/workload"
)

// run --processes K: K processes of benchy, their samples merged, each
// marked with its process, all on one CPU. A "--" at the end is passed
// after the flags benchy adds for each process (it once came before
// them, and the process refused them).
func TestRunProcesses(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := runBinary(t, "run", "--bench", "^sum/sink$", "--processes", "3", "--samples", "12",
		"--sample-time", "1ms", "--warmup", "1ms", "--window", "100ms", "--no-asm", "--format", "json", "--")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := result.Decode(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Experiments) != 1 {
		t.Fatalf("%d experiments", len(r.Experiments))
	}
	var procs []int
	for _, s := range r.Experiments[0].Samples {
		procs = append(procs, s.Process)
		if s.CPU != r.CPU {
			t.Errorf("a sample on cpu%d, the run on cpu%d", s.CPU, r.CPU)
		}
	}
	if want := []int{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}; !slices.Equal(procs, want) {
		t.Errorf("processes of the samples %v, want %v", procs, want)
	}
	if r.Settings.Samples != 12 {
		t.Errorf("settings say %d samples, want the 12 of all processes", r.Settings.Samples)
	}
}

// run --latency --processes K: the calls of every process in one
// histogram, their percentiles derived from it; each process timed its
// own calls (a window per sample, of every process).
func TestRunProcessesLatency(t *testing.T) {
	stdout, stderr, code := runBinary(t, "run", "--bench", "^tail/steady$", "--latency", "--processes", "2", "--samples", "6",
		"--sample-time", "2ms", "--warmup", "1ms", "--window", "10ms", "--no-asm", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := result.Decode(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	e := r.Experiments[0]
	l := e.Latency
	if l == nil {
		t.Fatalf("no latency in the merged result")
	}
	var iters int64
	procs := map[int]bool{}
	for _, s := range e.Samples {
		iters += s.Iters
		procs[s.Process] = true
	}
	if len(procs) != 2 || l.Calls != uint64(iters) || len(l.Windows) != len(e.Samples) {
		t.Errorf("%d calls in %d windows; the samples of %d processes made %d calls in %d", l.Calls, len(l.Windows), len(procs), iters, len(e.Samples))
	}
	if len(l.Percentiles) == 0 || !l.Percentiles[0].Reported {
		t.Errorf("percentiles %+v: want p50 of the merged calls", l.Percentiles)
	}
}

// A run --processes stopped before its first process is interrupted and
// says so, in the words and with the exit code of the signal that is the
// cause of its context's cancellation; with no signal known (cancelled
// without a *StopSignal) it once called the nil signal's String and
// panicked.
func TestRunProcessesStopped(t *testing.T) {
	for _, tc := range []struct {
		cause error
		sig   os.Signal
		code  int
		msg   string
	}{
		{nil, nil, ExitInterrupted, "stopped before anything was measured: no result"},
		{&StopSignal{Signal: syscall.SIGTERM}, syscall.SIGTERM, 143, "terminated (SIGTERM) before anything was measured: no result"},
		{&StopSignal{Signal: syscall.SIGHUP}, syscall.SIGHUP, 129, "hung up (SIGHUP) before anything was measured: no result"},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(tc.cause)
		w := &Watcher{ctx: ctx, cancel: cancel}
		r, err := runProcesses(ctx, pipeline.Plan{}, workload.All()[:1], 2, nil, Estimate{}, w)
		var ie *InterruptedError
		if r != nil || !errors.As(err, &ie) || ie.Signal != tc.sig || ExitCode(err) != tc.code || err.Error() != tc.msg {
			t.Errorf("cause %v: runProcesses: %v, %v (exit %d); want no result and %q (exit %d)", tc.cause, r, err, ExitCode(err), tc.msg, tc.code)
		}
	}
}
