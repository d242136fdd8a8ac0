// Package outfile writes benchy's output files (--out, --samples-file).
//
// A benchmark run can take many minutes, so everything that could stop the
// result from being written is checked before measuring (Check), one file
// named twice is refused (Same), and if the final write fails anyway the
// bytes are kept somewhere else rather than lost (WriteOrKeep).
//
// A regular file is replaced atomically: a temporary file in the same
// directory is written, synced and renamed over it, so a reader sees the old
// file or the whole new one, never half of it. Anything else a path may
// name — this process's own standard output, a pipe, a terminal — is written
// in place through a descriptor: renaming over it would replace the device,
// and truncating it would lose what the shell already wrote there.
//
// In a sticky, world-writable directory such as /tmp, other users can plant
// links and files at a name benchy is about to write. Because benchy follows
// links itself (to replace the file a link names rather than the link), it
// must apply the rules the kernel applies when it follows them
// (fs.protected_symlinks, fs.protected_regular, fs.protected_fifos), and it
// applies them whatever those settings are, to every user including root.
package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Options change what Check accepts.
type Options struct {
	// Replace allows replacing a read-only file (--force), as the shell's
	// >| overrides noclobber. Without it such a file is refused, as the
	// shell's > would refuse it: a rename would replace it silently even
	// though its owner marked it read-only.
	Replace bool
}

// kind is how a destination is written.
type kind int

const (
	// kindFile is a regular file, existing or not: replaced atomically.
	kindFile kind = iota
	// kindFD is one of this process's own descriptors (/dev/stdout,
	// /dev/fd/N, /proc/self/fd/N): written through the descriptor, so its
	// offset and append mode are the ones the shell set up.
	kindFD
	// kindInPlace is a pipe, terminal or other device: opened without
	// truncating and written in place.
	kindInPlace
)

// Dest is an output path that Check found writable.
type Dest struct {
	flag, path string // as the user gave them, for messages
	opts       Options
	kind       kind
	target     string      // the file written, links resolved (absolute)
	fd         int         // for kindFD
	fi         fs.FileInfo // what target is now; nil if it does not exist yet
	ident      string      // for a file that does not exist yet: its canonical path
	magic      bool        // target is a /proc link: written in place, through the kernel
}

// Check resolves path and checks that it can be written, before anything is
// measured, so a run is not wasted on a result that cannot be saved. The
// error is an *Error whose message is one line naming the flag, the path and
// why; the CLI reports it as a usage error. Check never opens a pipe: opening
// and closing it would end its reader's input.
func Check(flag, path string, opts Options) (*Dest, error) {
	d, err := resolve(flag, path, opts)
	if err != nil {
		return nil, err
	}
	if d.kind == kindFile {
		if err := probe(d.target); err != nil {
			return nil, d.fail(because("cannot write there: "+explain(err).Error(), err))
		}
	}
	return d, nil
}

// Write writes the whole output through write: atomically for a regular
// file, in place for anything else. The path is resolved again first, since
// what it names may have changed while measuring (a link planted in /tmp, the
// file made read-only); a failure is an *Error saying "could not write".
func (d *Dest) Write(write func(io.Writer) error) error {
	cur := d
	if d.kind != kindFD {
		fresh, err := resolve(d.flag, d.path, d.opts)
		if err != nil {
			return asWriteError(d, err)
		}
		cur = fresh
	}
	var err error
	switch cur.kind {
	case kindFD:
		err = writeFD(cur.fd, write)
	case kindInPlace:
		err = writeInPlace(cur.target, cur.fi, cur.magic, write)
	default:
		err = writeAtomic(cur.target, cur.fi, write)
	}
	if err != nil {
		return asWriteError(d, err)
	}
	return nil
}

// Same reports whether a and b are the same file, however they are named
// (a link, a hard link, /dev/stdout and /proc/self/fd/1), so that
// --out F --samples-file F is refused before measuring instead of one
// output silently replacing the other. Files are compared by device and
// inode; two paths that do not exist yet by their canonical paths.
func Same(a, b *Dest) bool {
	switch {
	case a == nil || b == nil:
		return false
	case a.fi != nil && b.fi != nil:
		return os.SameFile(a.fi, b.fi)
	case a.fi == nil && b.fi == nil:
		return a.ident == b.ident
	}
	return false
}

// Error is the one-line error of Check, Write and WriteOrKeep.
type Error struct {
	Flag string // the flag that named the path, e.g. "--out"; may be empty
	Path string // the path as the user gave it
	Err  error  // why, without the path
	Kept string // where WriteOrKeep put the bytes instead, or ""

	write bool // from writing (not from checking)
}

func (e *Error) Error() string {
	if e.write {
		msg := "could not write " + e.Path + ": " + e.Err.Error()
		if e.Kept != "" {
			msg += "; the result is in " + e.Kept
		}
		return msg
	}
	if e.Flag == "" {
		return e.Path + ": " + e.Err.Error()
	}
	return e.Flag + " " + e.Path + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// fail makes a Check error for d.
func (d *Dest) fail(why error) *Error {
	return &Error{Flag: d.flag, Path: d.path, Err: why}
}

// asWriteError turns err into a write *Error for d.
func asWriteError(d *Dest, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		c := *e
		c.write = true
		return &c
	}
	return &Error{Flag: d.flag, Path: d.path, Err: explain(err), write: true}
}

// reason is an error with a message of our own that still unwraps to the
// system error behind it, so errors.Is(err, syscall.ENXIO) keeps working.
type reason struct {
	msg string
	err error
}

func (r *reason) Error() string { return r.msg }
func (r *reason) Unwrap() error { return r.err }

func because(msg string, err error) error { return &reason{msg, err} }

// explain drops file names from a system error (the temporary file's name
// would only confuse: the message already names what the user typed) and
// words a link loop so it is recognised as one.
func explain(err error) error {
	var r *reason
	if errors.As(err, &r) {
		return err
	}
	if errors.Is(err, syscall.ELOOP) {
		return because("symbolic links loop (too many levels of links)", err)
	}
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	case errors.As(err, &se):
		return se.Err
	}
	return err
}
