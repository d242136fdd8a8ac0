package cli

import (
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

// Watcher turns the stop signals into a stop channel: the first one ends
// the measurement after the current sample, so what was measured is still
// written; a second one exits at once, removing any temporary file first.
type Watcher struct {
	Stop   <-chan struct{}
	mu     sync.Mutex
	first  os.Signal
	sigs   chan os.Signal
	done   chan struct{}
	stderr io.Writer
	// before, when not nil, runs before anything is printed (it clears
	// the progress line); atExit runs before a second signal exits (it
	// removes temporary directories and worktrees).
	before func()
	atExit []func()
}

// WatchSignals starts a Watcher; end it with Close().
func WatchSignals(stderr io.Writer) *Watcher {
	stop := make(chan struct{})
	w := &Watcher{Stop: stop, sigs: make(chan os.Signal, 2), done: make(chan struct{}), stderr: stderr}
	signal.Notify(w.sigs, stopSignals...)
	go func() {
		for {
			select {
			case <-w.done:
				return
			case s := <-w.sigs:
				w.mu.Lock()
				first := w.first == nil
				if first {
					w.first = s
				}
				before, atExit := w.before, w.atExit
				w.mu.Unlock()
				if first {
					close(stop)
					continue
				}
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

// Close ends the watcher: the signals get their default action again.
func (w *Watcher) Close() {
	signal.Stop(w.sigs)
	close(w.done)
}

// Signal is the first stop signal received, nil when none was.
func (w *Watcher) Signal() os.Signal {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.first
}

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
// signal known (the stop channel closed by a caller), which every caller
// of watcher.Signal may get.
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
