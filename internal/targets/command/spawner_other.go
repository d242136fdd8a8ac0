//go:build !linux

package command

import (
	"context"
	"errors"
	"runtime"

	"github.com/benchy-dev/benchy/internal/result"
)

// errNeedsLinux is what a spawner does elsewhere: forking from a pinned
// thread, wait4's rusage of one child, perf and /proc are Linux's.
var errNeedsLinux = errors.New("benchy exec needs Linux (it forks runs from a pinned thread and reads wait4, perf and /proc); this is " + runtime.GOOS)

// NewSpawner needs Linux.
func NewSpawner() (*Spawner, error) { return nil, errNeedsLinux }

// NewLocalSpawner returns a spawner whose Open fails: it needs Linux.
func NewLocalSpawner() *Spawner { return &Spawner{} }

// MaybeServe returns at once: there is no helper process elsewhere.
func MaybeServe() {}

type spawnerSys struct{}

func (spawnerSys) local() bool { return true }

func (spawnerSys) open() (result.CounterReport, int64, error) {
	return result.CounterReport{}, 0, errNeedsLinux
}

func (spawnerSys) exec(context.Context, Job) (Result, error) { return Result{}, errNeedsLinux }

func (spawnerSys) close() error { return nil }

func (spawnerSys) abort() {}
