//go:build !unix

package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// Outside Unix there are no owners, sticky directories or /dev/fd to
// consider: these are the plain versions of sys_unix.go.

func fileOwner(fs.FileInfo) (uid, gid uint32, ok bool) { return 0, 0, false }

func selfUID() uint32 { return 0 }

func canWrite(string) error { return nil }

func ownFD(string) (int, bool) { return 0, false }

func checkFD(int) (fs.FileInfo, error) { return nil, errors.ErrUnsupported }

func writeFD(int, func(io.Writer) error) error { return errors.ErrUnsupported }

func openInPlace(path string, _ fs.FileInfo, _ bool) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
}

func keepOwner(*os.File, fs.FileInfo) {}

// beforeRename clears the read-only attribute of a file being replaced
// with --force: Windows refuses to rename over a read-only file.
func beforeRename(target string, old fs.FileInfo) {
	if old != nil && old.Mode().Perm()&0o200 == 0 {
		os.Chmod(target, 0o666)
	}
}

func syncDir(string) {}
