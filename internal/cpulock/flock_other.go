//go:build !unix

package cpulock

import (
	"errors"
	"os"
)

var errNoLocks = errors.New("CPU locks need a Unix system")

func openLock(name string) (*os.File, error) { return nil, errNoLocks }

func tryFlock(f *os.File) (bool, error) { return false, errNoLocks }
