package gotest

import (
	"fmt"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
)

// Options say how the benchmarks are measured.
type Options struct {
	BenchText  string        // -bench, matched like go test -bench, level by level
	SampleTime time.Duration // testing's ramp aims each sample at it
	PerProcess int           // samples per process
	CPU        int
	GOMAXPROCS int
	// Stop, when closed, ends the calibration before the next benchmark:
	// Calibrate then returns ErrStopped.
	Stop <-chan struct{}
}

// Calibrate runs every benchmark of bin that the options match once with
// testing's own ramp to the sample time, on the measured CPU, and returns
// one target per leaf benchmark (a benchmark that runs sub-benchmarks is
// not measured itself), calibrated. Each top-level benchmark is calibrated
// in a process of its own, so one that panics fails alone; a stop ends the
// calibration before the next one.
func Calibrate(bin *Binary, o Options, multi bool) ([]*Target, error) {
	tops, err := bin.List()
	if err != nil {
		return nil, err
	}
	first, rest, _ := strings.Cut(o.BenchText, "/")
	topRe, err := regexp.Compile(first)
	if err != nil {
		return nil, err
	}
	var ts []*Target
	start := StartOffCPU(o.CPU)
	for _, top := range tops {
		if !topRe.MatchString(top) {
			continue
		}
		if harness.Stopped(o.Stop) {
			return nil, ErrStopped
		}
		bench := "^" + regexp.QuoteMeta(top) + "$"
		if rest != "" {
			bench += "/" + rest
		}
		r, err := bin.Exec(o.CPU, o.GOMAXPROCS, calibrateArgs(bench, o.SampleTime), start)
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, l := range r.Lines {
			if seen[l.Name] {
				continue
			}
			seen[l.Name] = true
			t := o.target(bin, l.Name, l.N, start, multi)
			for _, x := range r.Records {
				if x.Name == l.Name {
					t.Calibration = append(t.Calibration, x)
				}
			}
			ts = append(ts, t)
		}
		for name, msg := range r.Failed {
			if seen[name] || hasSub(name, seen) {
				continue
			}
			t := o.target(bin, name, 1, start, multi)
			t.Fail = fmt.Sprintf("%s failed: %s", name, oneLine(msg))
			ts, seen[name] = append(ts, t), true
		}
		if r.Err != nil && len(r.Failed) == 0 && !slices.ContainsFunc(ts, func(t *Target) bool { return strings.HasPrefix(t.Bench, top) }) {
			// The process died (a panic) before testing reported anything.
			t := o.target(bin, top, 1, start, multi)
			t.Fail = fmt.Sprintf("%s: the test process failed (%v): %s", top, r.Err, tail(r.Output, 4))
			ts = append(ts, t)
		}
	}
	if harness.Stopped(o.Stop) {
		return nil, ErrStopped // the last calibration may have been cut short
	}
	return ts, nil
}

// hasSub reports whether a sub-benchmark of name is in seen: a parent is
// reported failed when one of its sub-benchmarks failed.
func hasSub(name string, seen map[string]bool) bool {
	for s := range seen {
		if strings.HasPrefix(s, name+"/") {
			return true
		}
	}
	return false
}

func (o Options) target(bin *Binary, bench string, n int64, start func(*exec.Cmd) error, multi bool) *Target {
	display := strings.TrimPrefix(bench, "Benchmark")
	if multi {
		path := bin.Package.ImportPath
		display = path[strings.LastIndex(path, "/")+1:] + "." + display
	}
	return &Target{Bin: bin, Bench: bench, Display: display, N: n, CPU: o.CPU, GOMAXPROCS: o.GOMAXPROCS,
		PerProcess: o.PerProcess, Start: start}
}
