package outfile

import (
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// newFilePerm is what a new file gets before the umask: what os.Create and
// the shell's > give, so a result is as readable as any file the user makes.
const newFilePerm fs.FileMode = 0o666

// writeAtomic replaces target (old is what it is now, nil if it does not
// exist) so that a reader sees either the old file or the whole new one:
// write a temporary file in the same directory (a rename cannot cross file
// systems), sync it, then rename it over target. A replaced file keeps its
// permissions and, where allowed, its owner, as the shell's > would; the
// temporary file has them from the start, so a private result is never
// readable by others, not even while it is written.
func writeAtomic(target string, old fs.FileInfo, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(target)
	perm := newFilePerm
	if old != nil {
		perm = old.Mode().Perm()
	}
	f, err := createTemp(dir, "."+filepath.Base(target)+".benchy-tmp-", perm)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			removeTemp(f.Name())
		}
	}()
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if old != nil {
		keepOwner(f, old)
		// Again: the umask may have taken bits the old file had.
		if err := f.Chmod(perm); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	beforeRename(target, old)
	if err := os.Rename(f.Name(), target); err != nil {
		return err
	}
	forget(f.Name())
	syncDir(dir) // make the rename itself survive a crash
	return nil
}

// writeInPlace writes a pipe or device: opened, never truncated or renamed
// over (that would replace the device), and appended to where that means
// anything. target was resolved to something that is not a link, so a link
// found there now was planted since, and is not followed, unless target is
// a /proc link (follow), which only the kernel can follow.
func writeInPlace(target string, fi fs.FileInfo, follow bool, write func(io.Writer) error) error {
	f, err := openInPlace(target, fi, follow)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// pending is the set of files being written that are not complete yet
// (temporary files, probes, kept copies), so RemovePending can remove them
// when the process must exit at once. A file is created and recorded under
// one lock, so none is missed.
var pending struct {
	mu      sync.Mutex
	names   map[string]bool
	exiting bool // RemovePending was called: make no more
}

var errExiting = errors.New("benchy is exiting")

// RemovePending removes every temporary file being written and refuses to
// create more. It is for a signal handler that is about to call os.Exit (a
// second Ctrl-C) and must leave no ".benchy-tmp-" file behind. It is safe
// to call from any goroutine, at any time.
func RemovePending() {
	pending.mu.Lock()
	defer pending.mu.Unlock()
	pending.exiting = true
	for name := range pending.names {
		os.Remove(name)
		delete(pending.names, name)
	}
}

// create makes the new file name (O_EXCL: never an existing file, never
// through a link) and records it as pending.
func create(name string, perm fs.FileMode) (*os.File, error) {
	pending.mu.Lock()
	defer pending.mu.Unlock()
	if pending.exiting {
		return nil, errExiting
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, err
	}
	if pending.names == nil {
		pending.names = map[string]bool{}
	}
	pending.names[name] = true
	return f, nil
}

// createTemp creates a new file in dir named prefix and a random suffix.
func createTemp(dir, prefix string, perm fs.FileMode) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := create(name, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, errors.New("could not choose a temporary file name")
}

// removeTemp removes a pending file and forgets it.
func removeTemp(name string) error {
	forget(name)
	return os.Remove(name)
}

// forget stops tracking a file that is complete (renamed into place, or
// kept), so RemovePending leaves it alone.
func forget(name string) {
	pending.mu.Lock()
	delete(pending.names, name)
	pending.mu.Unlock()
}
