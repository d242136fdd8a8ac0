//go:build !linux

package cli

import (
	"errors"
	"os"
	"runtime"
)

// openPTY opens no pseudo-terminal where the tests do not know how (the
// ioctls of pty_linux_test.go are Linux's): the tests that need one skip.
func openPTY() (master, slave *os.File, err error) {
	return nil, nil, errors.New("the tests open one only on Linux, not on " + runtime.GOOS)
}
