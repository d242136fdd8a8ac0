//go:build unix

package gotest

import (
	"fmt"
	"os"
	"syscall"
)

// lockDir takes the lock of the directory dir (flock on the directory
// itself), held until the returned file is closed or the process ends.
func lockDir(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return f, nil
}

// dirLocked reports whether a process holds the lock of dir; a directory
// that cannot be opened (another user's) counts as held.
func dirLocked(dir string) bool {
	f, err := lockDir(dir)
	if err != nil {
		return true
	}
	f.Close()
	return false
}
