// Package cpulock keeps two benchy processes from measuring on one CPU
// without knowing it: each holds an advisory lock on the CPU it measures
// on, and a second one takes another CPU, or says that it shares it.
//
// A lock is flock(2) on /tmp/benchy-cpuN.lock, opened read-only and
// without following links: the lock says nothing by its content, so a file
// another user created (or planted) is harmless, and every user's benchy
// sees the same lock. The kernel drops it when the process ends, however
// it ends.
package cpulock

import (
	"fmt"
	"os"
	"path/filepath"
)

// Dir is where the lock files are.
var Dir = os.TempDir()

// Lock is a held lock on one CPU.
type Lock struct {
	f *os.File
}

// TryLock takes the lock on cpu without waiting. held is false when
// another process holds it; err is for a lock that could not be tried at
// all (then the caller measures without one, and may say so).
func TryLock(cpu int) (l *Lock, held bool, err error) {
	f, err := open(filepath.Join(Dir, fmt.Sprintf("benchy-cpu%d.lock", cpu)))
	if err != nil {
		return nil, false, err
	}
	ok, err := tryFlock(f)
	if err != nil || !ok {
		f.Close()
		return nil, !ok && err == nil, err
	}
	return &Lock{f: f}, false, nil
}

// Release drops the lock; a nil Lock is fine.
func (l *Lock) Release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
