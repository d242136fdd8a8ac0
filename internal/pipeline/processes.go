package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// MaxProcesses bounds Processes.K.
const MaxProcesses = 100

// A ChildSpec is what crosses from benchy to one of its processes: the
// plan (its data, not its hooks), the experiments by name in the order
// they are measured (a name twice for an A/A run), and the file the
// process writes its result to. The process is benchy itself, so the
// experiments it finds by name are the ones registered in the parent; no
// flags are passed on and none need to be taken out.
type ChildSpec struct {
	Plan        Plan     `json:"plan"`
	Experiments []string `json:"experiments"`
	Out         string   `json:"out"`
}

// ReadChildSpec reads the spec a parent wrote for this process.
func ReadChildSpec(path string) (ChildSpec, error) {
	var s ChildSpec
	b, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(b, &s)
	}
	if err == nil && (s.Out == "" || len(s.Experiments) == 0) {
		err = errors.New("names no experiment or no result file")
	}
	if err != nil {
		return ChildSpec{}, fmt.Errorf("child spec %s: %w", path, err)
	}
	return s, nil
}

// Processes is how run --processes fans out: K processes of benchy, one
// after another on the same CPU.
type Processes struct {
	K int
	// Command is the command of one process: benchy itself, told to
	// measure the ChildSpec in specFile. Its stdout is discarded and its
	// stderr kept to say how it failed.
	Command func(specFile string) *exec.Cmd
	// Signal is the stop signal that closed the plan's Stop, passed on to
	// the running process so that it writes what it measured.
	Signal func() os.Signal
	// OnExit, when not nil, is given what to do if benchy must exit at
	// once (a second signal): kill and reap the running process, remove
	// the temporary files.
	OnExit func(func())
}

// A ProcessError is a process that ended without a result. The result
// RunProcesses returns beside it holds the processes before it.
type ProcessError struct {
	// Msg is "process 2 of 3 was killed by SIGKILL".
	Msg string
	// Usage is set when the process refused its input (exit 2).
	Usage bool
	// Kept is how many processes finished.
	Kept int
}

func (e *ProcessError) Error() string { return e.Msg }

// RunProcesses measures experiments in ps.K processes, each its own heap,
// code layout and warm-up, so the variation between them is seen (Kalibera
// & Jones: the variance of a benchmark lives at several levels), and
// merges their samples into one analysed result, each sample marked with
// its process. plan.Settings.Samples is the total over the processes,
// spread as evenly as it goes. The first process chooses the CPU, and the
// others measure on it.
//
// What finished is kept. A stop passes the signal on to the running
// process, which writes what it measured; the merged result is then
// marked interrupted. A process that ends without a result (killed, say,
// by the out-of-memory killer) stops the run: the result holds the
// processes before it, is marked interrupted, every experiment's error
// says which process failed, and the error is a *ProcessError. Without
// any result the error is a *ProcessError, or ctx.Err() (context.Canceled)
// for a run cancelled before its first process ended, and the result nil.
// A cancelled ctx passes ps.Signal() on to the running process.
func RunProcesses(ctx context.Context, plan Plan, experiments []string, ps Processes) (*result.Result, error) {
	tmp, err := os.MkdirTemp("", "benchy-processes-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var running child
	if ps.OnExit != nil {
		ps.OnExit(func() {
			running.kill()
			os.RemoveAll(tmp)
		})
	}
	var results []*result.Result
	var failed string // how the process that did not finish ended
	usage := false
	for k := range ps.K {
		if ctx.Err() != nil {
			break
		}
		if plan.Progress != nil {
			plan.Progress(harness.Progress{Phase: "process", Index: k, Total: ps.K})
		}
		spec := ChildSpec{Plan: plan, Experiments: experiments, Out: filepath.Join(tmp, strconv.Itoa(k)+".json")}
		spec.Plan.Settings.Samples = processShare(plan.Settings.Samples, ps.K, k)
		// Every process on one CPU: one the first re-measured on another
		// CPU would leave its samples there and the others' on its own.
		spec.Plan.StayOnCPU = true
		if k > 0 && !plan.CPUSet {
			first := results[0]
			spec.Plan.CPU, spec.Plan.CPUSet = first.CPU, true
			spec.Plan.CPUWhy = "the CPU of process 1: " + first.CPUChoice
		}
		specFile := filepath.Join(tmp, strconv.Itoa(k)+".spec.json")
		b, err := json.Marshal(spec)
		if err == nil {
			err = os.WriteFile(specFile, b, 0o600)
		}
		if err != nil {
			return nil, fmt.Errorf("--processes: %w", err)
		}
		stderr, runErr := running.run(ctx, ps.Command(specFile), ps.Signal)
		r, err := result.Load(spec.Out)
		if err != nil {
			if ctx.Err() == nil {
				failed = fmt.Sprintf("process %d of %d %s", k+1, ps.K, howEnded(runErr, err, stderr))
				usage = exitCode(runErr) == 2
			}
			break
		}
		results = append(results, r)
		if r.Interrupted {
			break
		}
	}
	if len(results) == 0 {
		if failed != "" {
			return nil, &ProcessError{Msg: failed + ": no result", Usage: usage}
		}
		return nil, fmt.Errorf("stopped before anything was measured: %w", ctx.Err())
	}
	r := mergeProcesses(results)
	r.Command = plan.Command
	r.Settings.Samples = plan.Settings.Samples // in total, as gotest counts them
	r.Interrupted = r.Interrupted || len(results) < ps.K
	for i := range r.Experiments {
		if e := &r.Experiments[i]; failed != "" && e.Error == "" {
			e.Error = failed + ": its samples and those of the processes after it are missing"
		}
	}
	analyze.Analyze(r)
	if failed != "" {
		return r, &ProcessError{Msg: failed + ": the result holds the " + units.Count(len(results), "process") + " before it",
			Usage: usage, Kept: len(results)}
	}
	return r, nil
}

// processShare is how many of samples the k-th of processes takes: the
// total spread as evenly as it goes, the first processes taking one more.
func processShare(samples, processes, k int) int {
	n := samples / processes
	if k < samples%processes {
		n++
	}
	return n
}

// mergeProcesses makes one result of the processes' results: the first's
// machine, settings and experiments, every experiment with the samples of
// all of them in order, each marked with its process; the machine after
// the run is the last process's.
//
// With --latency, the calls of every process go into one histogram
// (latency.MergeStored), as a user who spreads a run over processes to
// see several heaps and layouts expects of its tail: p99 of all the
// calls. The calls, not the processes, stay the unit of the percentiles'
// intervals: a distribution-free interval of a percentile with the
// process as the unit needs 6 processes at 95% (the sign test's least n)
// where --processes is usually 2 to 5, and a percentile read from each
// process alone needs 10/(1-p) calls in each. So the interval is of the
// pooled calls and does not widen for a difference between processes;
// the samples' series, marked by process, shows one.
func mergeProcesses(rs []*result.Result) *result.Result {
	m := *rs[0]
	m.Experiments = make([]result.Experiment, len(rs[0].Experiments))
	for i, e := range rs[0].Experiments {
		e.Samples = append([]result.Sample(nil), e.Samples...)
		if e.Latency != nil {
			var l result.Latency // a copy, the first process's result left alone
			latency.MergeStored(&l, *e.Latency)
			if e.Latency.Rate != nil {
				r := *e.Latency.Rate
				r.Open = result.Latency{}
				latency.MergeStored(&r.Open, e.Latency.Rate.Open)
				l.Rate = &r
			}
			e.Latency = &l
		}
		m.Experiments[i] = e
	}
	for k, r := range rs[1:] {
		for _, e := range r.Experiments {
			for i := range m.Experiments {
				x := &m.Experiments[i]
				if x.Name != e.Name {
					continue
				}
				for _, s := range e.Samples {
					s.Process = k + 1
					x.Samples = append(x.Samples, s)
				}
				if x.Latency != nil && e.Latency != nil {
					latency.MergeStored(x.Latency, *e.Latency)
				}
				if x.Error == "" && e.Error != "" {
					x.Error = fmt.Sprintf("process %d: %s", k+2, e.Error)
				}
			}
		}
		m.Interrupted = m.Interrupted || r.Interrupted
	}
	last := rs[len(rs)-1]
	m.After, m.BusyDuring = last.After, last.BusyDuring
	return &m
}

// child is the running process, known so that a second stop signal,
// which exits benchy at once, kills and reaps it first: no process of
// benchy's outlives it.
type child struct {
	mu     sync.Mutex
	p      *os.Process
	reaped chan struct{}
}

// run runs cmd and waits for it; the cancellation of ctx passes signal()
// on to it. It returns the process's stderr and how it ended.
func (c *child) run(ctx context.Context, cmd *exec.Cmd, signal func() os.Signal) (string, error) {
	// The child dies with this thread where the system can (childAttr):
	// keep the thread for as long as the child runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd.SysProcAttr = childAttr()
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if err := cmd.Start(); err != nil {
		return "", err
	}
	waited, reaped := make(chan error, 1), make(chan struct{})
	c.mu.Lock()
	c.p, c.reaped = cmd.Process, reaped
	c.mu.Unlock()
	go func() {
		waited <- cmd.Wait()
		close(reaped)
	}()
	var err error
	select {
	case err = <-waited:
	case <-ctx.Done():
		sig := os.Interrupt
		if signal != nil && signal() != nil {
			sig = signal()
		}
		if cmd.Process.Signal(sig) != nil {
			cmd.Process.Kill()
		}
		err = <-waited
	}
	c.mu.Lock()
	c.p = nil
	c.mu.Unlock()
	return stderr.String(), err
}

// kill kills the running child, if any, and waits until it is reaped.
func (c *child) kill() {
	c.mu.Lock()
	p, reaped := c.p, c.reaped
	c.mu.Unlock()
	if p != nil {
		p.Kill()
		<-reaped
	}
}

// exitCode is the exit code of a process that exited, or -1.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// howEnded says how a process that wrote no result (loadErr) ended: runErr
// is what running it returned, stderr what it printed.
func howEnded(runErr, loadErr error, stderr string) string {
	var ee *exec.ExitError
	switch {
	case errors.As(runErr, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "was killed by " + sigName(ws.Signal())
		}
		if line := strings.TrimPrefix(lastLine(stderr), "benchy: "); line != "" {
			return fmt.Sprintf("failed (exit %d): %s", ee.ExitCode(), line)
		}
		return fmt.Sprintf("failed (exit %d)", ee.ExitCode())
	case runErr != nil:
		return "could not start: " + runErr.Error()
	}
	return "wrote no result: " + loadErr.Error()
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
