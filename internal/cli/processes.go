package cli

import (
	"bytes"
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
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// maxRunProcesses bounds run --processes.
const maxRunProcesses = 100

// runProcesses is run --processes K: benchy runs itself K times, one
// process after another on the same CPU, and merges their samples into
// one result, each sample marked with its process. Each process has its
// own heap, code layout and warm-up, so the variation between them is
// seen (Kalibera & Jones: the variance of a benchmark lives at several
// levels), and the series of every process is classified on its own.
//
// What finished is kept. A stop signal is passed on to the running
// process, which writes what it measured; the merged result is then
// marked interrupted. A process that ends without a result (killed, say,
// by the out-of-memory killer) stops the run: the result holds the
// processes before it, is marked interrupted, and every experiment's
// error says which process failed and how; the exit is 1.
func runProcesses(o *runOptions, stdout io.Writer, w *watcher) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("--processes: cannot find benchy's own executable: %w", err)
	}
	tmp, err := os.MkdirTemp("", "benchy-processes-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var running child
	w.onExit(func() {
		running.kill() // before benchy exits at a second signal
		os.RemoveAll(tmp)
	})
	flags, rest := childArgs(o.g.Args[1:])
	var results []*result.Result
	var failed string // how the process that did not finish failed
	failedCode := ExitFailed
	var line *progress // the status line, on a terminal
	if o.Progress != nil {
		line = newProgress(o.Progress, o.Processes, estimate{})
	}
	cpu := -1 // the first process's, passed to the others (with --cpu, theirs is the user's)
	for k := range o.Processes {
		if w.Signal() != nil {
			break
		}
		out := filepath.Join(tmp, strconv.Itoa(k)+".json")
		args := append(append([]string(nil), flags...), "--format", "json", "--out", out,
			"--samples", strconv.Itoa(processShare(o.Samples, o.Processes, k)))
		if cpu >= 0 && !o.CPUSet {
			args = append(args, "--cpu", strconv.Itoa(cpu)) // the same CPU as the first
		}
		if line != nil {
			line.show(fmt.Sprintf("benchy: process %d of %d", k+1, o.Processes))
		}
		stderr, runErr := running.run(self, append(args, rest...), w)
		r, err := result.Load(out)
		if err != nil {
			if w.Signal() == nil { // not stopped: failed
				failed = fmt.Sprintf("process %d of %d %s", k+1, o.Processes, howEnded(runErr, err, stderr))
				if ee := (*exec.ExitError)(nil); errors.As(runErr, &ee) && ee.ExitCode() == ExitUsage {
					failedCode = ExitUsage // the child refused its arguments
				}
			}
			break
		}
		results = append(results, r)
		cpu = r.CPU
		if r.Interrupted {
			break
		}
	}
	if line != nil {
		line.clear()
	}
	if len(results) == 0 {
		if failed != "" {
			return &ExitError{Code: failedCode, Msg: failed + ": no result"}
		}
		return &ExitError{Code: signalExit(w.Signal()), Msg: signalName(w.Signal()) + " before anything was measured: no result"}
	}
	r := mergeProcesses(results)
	r.Command = o.g.Args
	r.Settings.Samples = o.Samples // in total, as gotest counts them
	if len(results) < o.Processes {
		r.Interrupted = true
	}
	if failed != "" {
		for i := range r.Experiments {
			if e := &r.Experiments[i]; e.Error == "" {
				e.Error = failed + ": its samples and those of the processes after it are missing"
			}
		}
	}
	analyze.Analyze(r)
	if err := o.write(r, stdout, o.g.Stderr); err != nil {
		return err
	}
	if failed != "" {
		return &ExitError{Code: ExitFailed, Msg: fmt.Sprintf("%s: the result holds the %s before it", failed, units.Count(len(results), "process"))}
	}
	return runExit(r, o.Strict)
}

// child is the running process of run --processes, known so that a
// second stop signal, which exits benchy at once, kills and reaps it
// first: no process of benchy's outlives it.
type child struct {
	mu     sync.Mutex
	p      *os.Process
	reaped chan struct{}
}

// run runs benchy with args and waits for it; the first stop signal is
// passed on to it. It returns the child's stderr and how it ended.
func (c *child) run(self string, args []string, w *watcher) (string, error) {
	// The child dies with this thread where the system can (childAttr):
	// keep the thread for as long as the child runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.Command(self, args...)
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
	case <-w.Stop:
		if cmd.Process.Signal(w.Signal()) != nil {
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

// processShare is how many of samples the k-th of processes takes: --samples
// is the total of an experiment's samples over every process (as gotest
// counts them), spread as evenly as they go, the first processes taking
// one more.
func processShare(samples, processes, k int) int {
	n := samples / processes
	if k < samples%processes {
		n++
	}
	return n
}

// childArgs are the arguments of one process of run --processes: the
// user's flags, without what only the merged result is for (where and how
// it is written, --strict) and without --processes itself; and apart, from
// a "--" on, what follows the flags, which goes last, after the flags
// benchy adds.
func childArgs(args []string) (flags, rest []string) {
	valued := map[string]bool{"--processes": true, "--samples": true, "--out": true, "-o": true, "--format": true,
		"--samples-file": true, "--html": true}
	dropped := map[string]bool{"-v": true, "--verbose": true, "--ascii": true, "--force": true, "--strict": true}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(a, "=")
		switch {
		case a == "--":
			return flags, args[i:]
		case valued[name] && !hasValue:
			i++ // and its value
		case valued[name], dropped[name]:
			if name == "--strict" && !hasValue && i+1 < len(args) && isStrictLevel(args[i+1]) {
				i++
			}
		default:
			flags = append(flags, a)
		}
	}
	return flags, nil
}

// mergeProcesses makes one result of the processes' results: the first's
// machine, settings and experiments, every experiment with the samples of
// all of them in order, each marked with its process; the machine after
// the run is the last process's.
func mergeProcesses(rs []*result.Result) *result.Result {
	m := *rs[0]
	m.Experiments = make([]result.Experiment, len(rs[0].Experiments))
	for i, e := range rs[0].Experiments {
		e.Samples = append([]result.Sample(nil), e.Samples...)
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

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
