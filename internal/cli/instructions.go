package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/benchy-dev/benchy/internal/callgrind"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
	"github.com/benchy-dev/benchy/internal/pipeline"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// CountOptions are the flags of the second basis, the instructions
// counted per op beside the time (never instead: time is always
// measured).
type CountOptions struct {
	Measure  string // "time" or "instructions"
	CacheSim bool
	On       bool // --measure instructions
}

// Choices of --measure.
const (
	measureTime         = "time"
	measureInstructions = "instructions"
)

func (c *CountOptions) Bind(f *pflag.FlagSet) {
	f.StringVar(&c.Measure, "measure", measureTime, "measure on `BASIS`: time, or instructions too (counted under valgrind's callgrind; time is always measured)")
	f.BoolVar(&c.CacheSim, "cache-sim", false, "with --measure instructions: simulate the caches (L1 and last-level misses, estimated cycles)")
}

// Validate refuses an unknown basis, and valgrind missing before
// anything is measured.
func (c *CountOptions) Validate() error {
	switch c.Measure {
	case measureTime:
		if c.CacheSim {
			return Usagef("--cache-sim simulates the caches while counting instructions: give --measure instructions too")
		}
		return nil
	case measureInstructions:
		c.On = true
		if _, err := callgrind.Path(); err != nil {
			return Usagef("%v", err)
		}
		return nil
	}
	return Usagef("--measure %q: must be time or instructions", c.Measure)
}

// Options are the pipeline's counting options for these flags, nil
// without --measure instructions: a progress line on a terminal, and the
// stop of the run.
func (c *CountOptions) Options(m *Measuring) *pipeline.CountOptions {
	if !c.On {
		return nil
	}
	o := &pipeline.CountOptions{CacheSim: c.CacheSim}
	if m.Progress != nil {
		p := NewProgress(m.Progress, 1, Estimate{})
		o.Progress = func(line string) {
			if line == "" {
				p.Clear()
				return
			}
			p.show(line)
		}
	}
	return o
}

// count counts the instructions of every target in ts into r (see
// options). A stop marks r interrupted.
func (c *CountOptions) count(r *result.Result, ts []pipeline.Countable, env []string, m *Measuring) error {
	o := c.Options(m)
	if o == nil || len(ts) == 0 {
		return nil
	}
	o.Env = env
	err := pipeline.Count(m.Ctx, r, ts, *o)
	if errors.Is(err, context.Canceled) {
		r.Interrupted = true
		return nil
	}
	return CountError(err)
}

// CountError is valgrind missing as bad usage (exit 2); other errors as
// they are.
func CountError(err error) error {
	if errors.Is(err, callgrind.ErrMissing) {
		return Usagef("%v", err)
	}
	return err
}

// CountFailed is the error of the experiments whose instructions could not
// be counted (exit 1), or nil. An interrupted run has none: the signal
// says how it ended (130 for Ctrl-C, as runExit leaves it), and the counts
// it stopped say "counting stopped" in the result.
func CountFailed(r *result.Result) error {
	if r.Interrupted {
		return nil
	}
	var failed []string
	for _, e := range r.Experiments {
		if e.Count != nil && e.Count.Error != "" && e.Error == "" {
			failed = append(failed, e.Name+": "+e.Count.Error)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	return &FailedError{Msg: fmt.Sprintf("instructions not counted: %s", strings.Join(failed, "; "))}
}

// countLoops counts the instructions of run's experiments: from the
// hardware counter read around every sample where the PMU allowed it (at
// native speed, CountFromSamples), else each loop under callgrind in a
// process of its own.
func (c *CountOptions) countLoops(r *result.Result, ws []inproc.Workload, m *Measuring) error {
	if !c.On {
		return nil
	}
	if !c.CacheSim && pipeline.CountFromSamples(r) {
		return nil
	}
	ts := make([]pipeline.Countable, len(ws))
	for i, w := range ws {
		ts[i] = inproc.New(w, inproc.Options{CountArgs: countLoopArgs})
	}
	return c.count(r, ts, GoCountEnv(), m)
}

// GoCountEnv is the environment of counted Go code: the collector off
// (GOGC=off), for the collector's work is counted in the measured thread
// (assists, sweeping) and differs from run to run by several percent;
// with half the memory as a soft limit (GOMEMLIMIT), so that a loop that
// allocates much collects rather than being killed.
func GoCountEnv() []string {
	env := []string{"GOGC=off"}
	if budget, _, _ := sysread.MemoryBudget("/"); budget > 0 {
		env = append(env, fmt.Sprintf("GOMEMLIMIT=%d", budget/2))
	}
	return env
}
