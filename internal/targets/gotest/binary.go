package gotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/units"
)

// Run is what one process of a test binary did.
type Run struct {
	Log // the helper's records: the result
	// Err is how the process ended, when not cleanly; TimedOut says it
	// outlived its -test.timeout (Timeout), Stopped that a stop request
	// ended it.
	Err      error
	TimedOut bool
	Stopped  bool
	Timeout  time.Duration

	out        output // its stdout and stderr, for the words of a failure
	gomaxprocs int
}

// processEnd is how runGroup ended a process early.
type processEnd struct{ stopped, timedOut bool }

// killGrace is how long a test process sent SIGTERM has to end before it
// is sent SIGKILL.
const killGrace = 2 * time.Second

// Exec runs the binary with testing's flags on o.CPU, in the package's
// directory (as go test runs it), and returns what the helper recorded.
// The helper writes its records to a descriptor of their own (fd 3, a file
// already removed, so nothing else can open it); the process's stdout and
// stderr go to another, read only for the words of a failure. Every run
// has -test.timeout and -test.paniconexit0, as go test passes them; since
// testing's alarm covers the tests and not the benchmarks, benchy ends a
// run that outlives its timeout itself, as go test does. start
// starts the process (on a thread that keeps it off the measured CPU but
// lets it pin its benchmarks there); nil is exec.Cmd.Start.
func (b *Binary) Exec(ctx context.Context, o Options, args []string, timeout time.Duration, start func(*exec.Cmd) error) (*Run, error) {
	dir := filepath.Dir(b.Path)
	rec, err := anonymousFile(dir, "records-*")
	if err != nil {
		return nil, err
	}
	defer rec.Close()
	out, err := anonymousFile(dir, "output-*")
	if err != nil {
		return nil, err
	}
	defer out.Close()
	args = append(args, "-test.timeout="+timeout.String(), "-test.paniconexit0")
	cmd := exec.Command(b.Path, args...)
	cmd.Dir = b.Package.Dir
	cmd.Env = append(os.Environ(), envRecords+"=3", envCPU+"="+strconv.Itoa(o.CPU),
		"GOMAXPROCS="+strconv.Itoa(o.GOMAXPROCS))
	cmd.Env = append(cmd.Env, o.env...)
	cmd.ExtraFiles = []*os.File{rec} // fd 3
	cmd.Stdout, cmd.Stderr = out, out
	if start == nil {
		start = (*exec.Cmd).Start
	}
	began := time.Now()
	end, err := runGroup(ctx, cmd, start, timeout)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, err
	}
	r := &Run{Err: err, Stopped: end.stopped, Timeout: timeout, gomaxprocs: o.GOMAXPROCS,
		TimedOut: end.timedOut || err != nil && !end.stopped && time.Since(began) >= timeout}
	data, err := readAll(rec)
	if err != nil {
		return nil, err
	}
	r.Log = parseLog(data)
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	r.out = scanOutput(out)
	return r, nil
}

// anonymousFile is a new file in dir, open for reading and writing and
// already removed: it goes when the last descriptor of it is closed.
func anonymousFile(dir, pattern string) (*os.File, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	os.Remove(f.Name())
	return f, nil
}

func readAll(f *os.File) ([]byte, error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

// Failure is why the call c measured nothing, "" when it returned as a
// benchmark should (or was skipped): the panic and where it was raised, a
// call of os.Exit(0), testing's message of a failure, or how the process
// ended during the call.
func (r *Run) Failure(c Record) string {
	switch {
	case !c.Ended && r.TimedOut:
		return fmt.Sprintf("%s did not return within %v (-test.timeout): the test process was ended%s", c.Name, r.Timeout, r.out.lastWords())
	case !c.Ended && r.Stopped:
		return fmt.Sprintf("%s: stopped", c.Name)
	case !c.Ended:
		return fmt.Sprintf("%s: the test process ended during the call, which never returned (%s)%s", c.Name, r.how(), r.out.why())
	case c.Panic == exit0Panic:
		return fmt.Sprintf("%s called os.Exit(0)%s: a benchmark must return, not end the test binary", c.Name, at(c.PanicAt))
	case c.Panic != "":
		return fmt.Sprintf("%s panicked%s: %s", c.Name, at(c.PanicAt), units.OneLine(c.Panic))
	case c.Failed:
		msg, ok := r.out.failure(c.Name, r.gomaxprocs)
		if !ok || msg == "" {
			msg = "b.Fail, b.Error or b.Fatal was called, with no message"
		}
		return fmt.Sprintf("%s failed: %s", c.Name, units.OneLine(msg))
	case !c.Returned && !c.Skipped:
		return fmt.Sprintf("%s ended without returning (runtime.Goexit)", c.Name)
	}
	return ""
}

// how is how the process ended.
func (r *Run) how() string {
	if r.Err == nil {
		return "exit status 0"
	}
	return r.Err.Error()
}

// exit0Panic is testing's panic on os.Exit(0) under -test.paniconexit0.
const exit0Panic = "unexpected call to os.Exit(0) during test"

func at(site string) string {
	if site == "" {
		return ""
	}
	return " at " + site
}

// processFailure is why the process failed outside any call: a panic
// before the benchmarks ran (in init), a TestMain that ended it.
func (r *Run) processFailure() string {
	if r.TimedOut {
		return fmt.Sprintf("the test process did not end within %v (-test.timeout)%s", r.Timeout, r.out.why())
	}
	return fmt.Sprintf("the test process failed (%s)%s", r.how(), r.out.why())
}

// BenchRegexp is the -test.bench value that runs exactly the benchmark
// named name ("BenchmarkX/sub a"): testing matches each level of the name
// with its own part of the expression.
func BenchRegexp(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// List returns the top-level benchmarks of the binary (-test.list), with
// the stop and the timeout of every run.
func (b *Binary) List(ctx context.Context, o Options) ([]string, error) {
	out, err := anonymousFile(filepath.Dir(b.Path), "list-*")
	if err != nil {
		return nil, err
	}
	defer out.Close()
	cmd := exec.Command(b.Path, "-test.list", "^Benchmark", "-test.timeout="+o.timeout(1).String())
	cmd.Dir = b.Package.Dir
	cmd.Stdout = out
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	end, err := runGroup(ctx, cmd, (*exec.Cmd).Start, o.timeout(1))
	switch {
	case end.stopped:
		return nil, fmt.Errorf("%s -test.list: %w", filepath.Base(b.Path), context.Canceled)
	case err != nil:
		return nil, fmt.Errorf("%s -test.list: %w: %s", filepath.Base(b.Path), err, firstLine(stderr.String(), nil))
	}
	data, err := readAll(out)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, l := range strings.Fields(string(data)) {
		if strings.HasPrefix(l, "Benchmark") {
			names = append(names, l)
		}
	}
	return names, nil
}

// Every run of a test binary has a -test.timeout: go test's own default,
// 10 minutes, plus ten times what the run should take (a sample run's
// calls at the calibrated N last about --sample-time each; a calibration
// run, one top-level benchmark's ramp, counts as rampCalls calls).
const (
	baseTimeout   = 10 * time.Minute
	timeoutFactor = 10
	rampCalls     = 10
)

// timeout is the -test.timeout of a run of calls calls.
func (o Options) timeout(calls int) time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return baseTimeout + time.Duration(timeoutFactor*calls)*o.SampleTime
}

// calibrateArgs runs the benchmarks matching bench with testing's own
// ramp to sampleTime: the N it settles on, and every call on the way
// (for the setup-in-timer check).
func calibrateArgs(bench string, sampleTime time.Duration) []string {
	return []string{"-test.run=^$", "-test.bench=" + bench, "-test.benchtime=" + sampleTime.String(),
		"-test.count=1", "-test.benchmem"}
}

// sampleArgs runs the benchmark name count times at exactly n iterations.
func sampleArgs(name string, n int64, count int) []string {
	return []string{"-test.run=^$", "-test.bench=" + BenchRegexp(name), "-test.benchtime=" + strconv.FormatInt(n, 10) + "x",
		"-test.count=" + strconv.Itoa(count), "-test.benchmem"}
}
