// Package cpulock keeps two benchy processes from measuring on one CPU
// without knowing it: each holds an advisory lock on the CPU it measures
// on, and a second one takes another CPU, or says that it shares it.
//
// A lock is flock(2) on cpuN.lock in a directory of the user's own:
// $XDG_RUNTIME_DIR/benchy when that is usable, else benchy-<uid> in the
// temporary directory, made 0700. A shared directory such as /tmp would
// let another user plant the lock file (a FIFO that blocks open for good,
// a link, a directory) and so turn the lock off; in a directory of ours
// only we can. The directory and the file are checked all the same (ours,
// no link, a directory and a regular file), and opened without blocking.
// The kernel drops a lock when the process ends, however it ends. The
// locks are per user: two users' benchy do not see each other's.
package cpulock

import (
	"fmt"
	"os"
)

// RuntimeDir and TempDir are where the lock directory is made:
// RuntimeDir/benchy when RuntimeDir is set and usable, else
// TempDir/benchy-<uid>. They are variables so tests can point them
// elsewhere.
var (
	RuntimeDir = os.Getenv("XDG_RUNTIME_DIR")
	TempDir    = os.TempDir()
)

// Lock is a held lock on one CPU.
type Lock struct {
	f *os.File
}

// TryLock takes the lock on cpu without waiting. held is true when
// another process holds it (l is nil then); err is for a lock that could not be tried at
// all (then the caller measures without one, and says so).
func TryLock(cpu int) (l *Lock, held bool, err error) {
	f, err := openLock(fmt.Sprintf("cpu%d.lock", cpu))
	if err != nil {
		return nil, false, fmt.Errorf("no lock on cpu%d: %w", cpu, err)
	}
	ok, err := tryFlock(f)
	if err != nil || !ok {
		f.Close()
		if err != nil {
			return nil, false, fmt.Errorf("no lock on cpu%d: flock %s: %w", cpu, f.Name(), err)
		}
		return nil, true, nil
	}
	return &Lock{f: f}, false, nil
}

// Held reports whether another process holds the lock on cpu (or this
// one, through another TryLock), without waiting and without keeping it:
// it takes the lock and drops it at once, so a process claiming cpu in
// that instant takes another, as it would had this one claimed it. A lock
// that cannot be tried reads as not held: nothing says anyone measures
// there.
func Held(cpu int) bool {
	l, held, _ := TryLock(cpu)
	l.Release()
	return held
}

// Release drops the lock; a nil Lock is fine.
func (l *Lock) Release() {
	if l != nil && l.f != nil {
		l.f.Close()
		l.f = nil
	}
}
