package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
)

// writeFileAtomic writes a file so a reader sees either the old file or the
// whole new one, never a half-written one: write a temporary file in the
// same directory, sync it, then rename it over the target. A symbolic link
// is followed (the file it names is replaced, not the link), and a target
// that is not a regular file (/dev/stdout, a pipe) is written in place:
// renaming over it would replace the device.
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	target, err := resolveTarget(path)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	pendingTemp.Store(&name)
	defer func() {
		pendingTemp.Store(nil)
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	// A replaced file keeps its permissions (a private result stays
	// private); a new one is readable by all, as a file os.Create makes.
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}

// pendingTemp is the temporary file being written, if any, so an exit in
// the middle of writing (a second Ctrl-C) can remove it.
var pendingTemp atomic.Pointer[string]

// removePendingTemp removes the temporary file being written, if any.
func removePendingTemp() {
	if name := pendingTemp.Swap(nil); name != nil {
		os.Remove(*name)
	}
}

// resolveTarget follows a symbolic link to the file it names (which may
// not exist yet); other paths are returned as they are.
func resolveTarget(path string) (string, error) {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return path, nil
	}
	if target, err := filepath.EvalSymlinks(path); err == nil {
		return target, nil
	}
	// The link names a file that does not exist yet: create that one.
	target, err := os.Readlink(path)
	if err != nil {
		return "", fmt.Errorf("%s: %v", path, unwrapPath(err))
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return target, nil
}

// checkWritable fails when path cannot be written, before anything is
// measured: by creating and removing a temporary file beside it, or, for an
// existing target that is not a regular file, by opening it for writing.
func checkWritable(flag, path string) error {
	if path == "" {
		return nil
	}
	target, err := resolveTarget(path)
	if err != nil {
		return Usagef("%s %v", flag, err)
	}
	if fi, err := os.Stat(target); err == nil {
		switch {
		case fi.IsDir():
			return Usagef("%s %s: is a directory", flag, path)
		case !fi.Mode().IsRegular():
			// Ask, don't open: opening a named pipe and closing it would
			// end its reader before the result is written.
			if err := canWrite(target); err != nil {
				return Usagef("%s %s: cannot write there: %v", flag, path, err)
			}
			return nil
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".check*")
	if err != nil {
		return Usagef("%s %s: cannot write there: %v", flag, path, unwrapPath(err))
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// unwrapPath drops the temporary file's name from an error, so the message
// names what the user typed.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
