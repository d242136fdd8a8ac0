package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/benchy-dev/benchy/internal/outfile"
)

// stopSignals are the signals that stop a measurement: Ctrl-C (INT), CI
// cancellation, timeout(1) and docker stop (TERM), a closed terminal (HUP).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// Watcher turns the stop signals into the cancellation of a context, with
// the signal as its cause (*StopSignal): the first one ends the measurement
// after the current sample, so what was measured is still written; a second
// one exits at once, removing any temporary file first. It holds the
// context it cancels: it is the one source of a run's stop, made once per
// command, and every command reads the signal back from it.
type Watcher struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	mu     sync.Mutex
	sigs   chan os.Signal
	done   chan struct{}
	stderr io.Writer
	// before, when not nil, runs before anything is printed (it clears
	// the progress line); atExit runs before a second signal exits (it
	// removes temporary directories and worktrees).
	before func()
	atExit []func()
}

// StopSignal is the cause of a run's context cancelled by a stop signal:
// the exit code and the words of the stop are derived from it (SignalOf).
type StopSignal struct{ Signal os.Signal }

func (s *StopSignal) Error() string { return SignalName(s.Signal) }

// Unwrap makes the cause a context.Canceled too, so that an error which
// wraps the cause rather than ctx.Err() is still a stop to errors.Is.
func (s *StopSignal) Unwrap() error { return context.Canceled }

// SignalOf is the signal that cancelled ctx (its cause a *StopSignal), nil
// when ctx is not cancelled or was cancelled without one.
func SignalOf(ctx context.Context) os.Signal {
	var s *StopSignal
	if ctx != nil && errors.As(context.Cause(ctx), &s) {
		return s.Signal
	}
	return nil
}

// WatchSignals starts a Watcher whose context, derived from parent, a stop
// signal cancels; end it with Close().
func WatchSignals(parent context.Context, stderr io.Writer) *Watcher {
	ctx, cancel := context.WithCancelCause(parent)
	w := &Watcher{ctx: ctx, cancel: cancel, sigs: make(chan os.Signal, 2), done: make(chan struct{}), stderr: stderr}
	signal.Notify(w.sigs, stopSignals...)
	go func() {
		for {
			select {
			case <-w.done:
				return
			case s := <-w.sigs:
				if w.Signal() == nil {
					cancel(&StopSignal{Signal: s})
					continue
				}
				w.mu.Lock()
				before, atExit := w.before, w.atExit
				w.mu.Unlock()
				outfile.RemovePending()
				for _, f := range atExit {
					f()
				}
				if before != nil {
					before()
				}
				fmt.Fprintf(stderr, "benchy: %s twice: exiting without writing a result\n", SignalName(s))
				os.Exit(signalExit(w.Signal()))
			}
		}
	}()
	return w
}

// Context is the run's context: a stop signal cancels it, its cause a
// *StopSignal.
func (w *Watcher) Context() context.Context { return w.ctx }

// Close ends the watcher: the signals get their default action again.
func (w *Watcher) Close() {
	signal.Stop(w.sigs)
	close(w.done)
	w.cancel(nil)
}

// Signal is the first stop signal received, nil when none was: the cause
// of the context's cancellation.
func (w *Watcher) Signal() os.Signal { return SignalOf(w.ctx) }

// SetBefore sets what runs before the watcher prints.
func (w *Watcher) SetBefore(f func()) {
	w.mu.Lock()
	w.before = f
	w.mu.Unlock()
}

// OnExit adds f to what runs before a second signal exits at once.
func (w *Watcher) OnExit(f func()) {
	w.mu.Lock()
	w.atExit = append(w.atExit, f)
	w.mu.Unlock()
}

// signalExit is the exit code of a process stopped by s: 128 + its number
// (130 for INT, 143 for TERM, 129 for HUP), the shell's convention.
func signalExit(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return ExitInterrupted
}

// SignalName is how a message names the stop s; nil is a stop with no
// signal known (the context cancelled by a caller without a *StopSignal),
// which every caller of SignalOf may get.
func SignalName(s os.Signal) string {
	switch s {
	case nil:
		return "stopped"
	case os.Interrupt:
		return "interrupted"
	case syscall.SIGTERM:
		return "terminated (SIGTERM)"
	case syscall.SIGHUP:
		return "hung up (SIGHUP)"
	}
	return s.String()
}
