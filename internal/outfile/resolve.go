package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks is how many symbolic links resolve follows before calling it a
// loop: Linux's own limit (MAXSYMLINKS).
const maxLinks = 40

// resolve finds what path names, following symbolic links one at a time so
// that each one can be checked against the sticky-directory rules: the
// kernel would check a link it follows, but a link benchy reads and then
// opens the target of is never followed by the kernel, so the check is ours
// to make. It does not touch the file system beyond looking.
func resolve(flag, path string, opts Options) (*Dest, error) {
	d := &Dest{flag: flag, path: path, opts: opts}
	if path == "" {
		return nil, d.fail(errors.New("no file named"))
	}
	cur, viaLink := path, false
	for hops := 0; ; hops++ {
		if fd, ok := ownFD(cur); ok {
			return d.descriptor(fd)
		}
		fi, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return d.newFile(cur)
		case err != nil:
			return nil, d.fail(explain(err))
		case fi.Mode()&fs.ModeSymlink == 0:
			return d.existing(cur, fi, viaLink)
		case hops == maxLinks:
			return nil, d.fail(explain(syscall.ELOOP))
		}
		next, err := readLink(cur, fi)
		if err != nil {
			return nil, d.fail(err)
		}
		if procFD(cur) || !filepath.IsAbs(next) && strings.HasPrefix(abs(cur), "/proc/") {
			// Another process's descriptor is written in place, like
			// our own, never renamed over; and a /proc link such as
			// /proc/PID/fd/N may read as "pipe:[1234]", which only the
			// kernel can follow.
			fi, err := os.Stat(cur)
			if err != nil {
				return nil, d.fail(explain(err))
			}
			d.magic = true
			return d.existing(cur, fi, true)
		}
		cur, viaLink = linkTarget(cur, next), true
	}
}

// readLink is what the link cur (fi) reads, if the sticky-directory
// rules let benchy follow it (linkTarget is the path it names).
func readLink(cur string, fi fs.FileInfo) (string, error) {
	if err := checkSticky(filepath.Dir(cur), fi); err != nil {
		return "", err
	}
	next, err := os.Readlink(cur)
	if err != nil {
		return "", explain(err)
	}
	return next, nil
}

// linkTarget is the path the link cur, reading next, names: a relative
// next is relative to where the link really is, as the kernel resolves
// it, not to the name it was reached by.
func linkTarget(cur, next string) string {
	if filepath.IsAbs(next) {
		return next
	}
	dir := filepath.Dir(cur)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return filepath.Join(dir, next)
}

// descriptor is a path naming this process's descriptor fd.
func (d *Dest) descriptor(fd int) (*Dest, error) {
	fi, err := checkFD(fd)
	if err != nil {
		return nil, d.fail(err)
	}
	d.kind, d.fd, d.fi, d.target = kindFD, fd, fi, d.path
	return d, nil
}

// newFile is a regular file that does not exist yet. Its identity for Same
// is its canonical path: the directory with links resolved.
func (d *Dest) newFile(target string) (*Dest, error) {
	d.kind, d.target = kindFile, abs(target)
	d.ident = d.target
	if dir, err := filepath.EvalSymlinks(filepath.Dir(d.target)); err == nil {
		d.ident = filepath.Join(dir, filepath.Base(d.target))
	}
	return d, nil
}

// existing is a path that names something other than a link.
func (d *Dest) existing(target string, fi fs.FileInfo, viaLink bool) (*Dest, error) {
	d.target, d.fi = abs(target), fi
	m := fi.Mode()
	switch {
	case m.IsDir() && viaLink:
		return nil, d.fail(errors.New("is a symbolic link to a directory"))
	case m.IsDir():
		return nil, d.fail(errors.New("is a directory"))
	case m&fs.ModeSocket != 0:
		return nil, d.fail(errors.New("is a socket: benchy cannot write to it"))
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0:
		return nil, d.fail(errors.New("is a block device: benchy will not write a result onto a disk"))
	}
	if err := checkSticky(filepath.Dir(d.target), fi); err != nil {
		return nil, d.fail(err)
	}
	if !m.IsRegular() || d.magic {
		// Ask, don't open: opening a named pipe and closing it would
		// end its reader's input before the result is written.
		if err := canWrite(d.target); err != nil {
			return nil, d.fail(because("cannot write there: "+explain(err).Error(), err))
		}
		d.kind = kindInPlace
		return d, nil
	}
	// A rename replaces a read-only file without asking, where the shell's
	// > would refuse to write it: refuse too, unless --force.
	if !d.opts.Replace {
		if uid, _, ok := fileOwner(fi); ok && uid != selfUID() {
			if canWrite(d.target) != nil {
				return nil, d.fail(fmt.Errorf("is not writable by you (owned by uid %d); use --force to replace it", uid))
			}
		} else if m.Perm()&0o200 == 0 {
			return nil, d.fail(errors.New("is read-only; use --force to replace it"))
		}
	}
	d.kind = kindFile
	return d, nil
}

// checkSticky applies allowedInSticky to fi, found in dir. When an owner
// cannot be known (Windows, or the directory vanished) there is nothing to
// decide: the kernel reports what it refuses when the file is written.
func checkSticky(dir string, fi fs.FileInfo) error {
	uid, _, ok := fileOwner(fi)
	if !ok {
		return nil
	}
	dfi, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	duid, _, ok := fileOwner(dfi)
	if !ok {
		return nil
	}
	return allowedInSticky(dfi.Mode(), duid, uid, selfUID(), fi.Mode().Type())
}

// probe creates and removes a file beside target: the surest way to know,
// before measuring, that the directory is writable and searchable (and not
// on a read-only file system) for the rename that will replace target.
func probe(target string) error {
	f, err := createTemp(filepath.Dir(target), "."+filepath.Base(target)+".benchy-check-", 0o600)
	if err != nil {
		return err
	}
	f.Close()
	return removeTemp(f.Name())
}

// procFD reports whether path is /proc/PID/fd/N: some process's open
// descriptor.
func procFD(path string) bool {
	parts := strings.Split(abs(path), "/")
	return len(parts) == 5 && parts[1] == "proc" && parts[3] == "fd"
}

// abs makes path absolute (and clean) where it can.
func abs(path string) string {
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return filepath.Clean(path)
}
