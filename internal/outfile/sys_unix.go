//go:build unix

package outfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// fileOwner is who owns the file fi describes.
func fileOwner(fi fs.FileInfo) (uid, gid uint32, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Uid, st.Gid, true
}

// selfUID is the user files are created and checked as (the kernel uses
// the file-system uid, which is the effective uid).
func selfUID() uint32 { return uint32(os.Geteuid()) }

// canWrite asks the kernel whether this process may write path, without
// opening it: opening a named pipe and closing it would end its reader.
func canWrite(path string) error { return unix.Access(path, unix.W_OK) }

// ownFD reports whether path names one of this process's own descriptors
// (/dev/stdout, /dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N). Such a path
// must be written through the descriptor: reopening it would open the file
// behind it afresh, at offset 0 and without O_APPEND, so
// "benchy --out /dev/stdout >> log" would write over the start of log.
func ownFD(path string) (int, bool) {
	p := abs(path)
	switch p {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
		rest, ok := strings.CutPrefix(p, dir)
		if !ok || rest == "" || len(rest) > 9 || strings.Trim(rest, "0123456789") != "" {
			continue
		}
		n, err := strconv.Atoi(rest)
		return n, err == nil
	}
	return 0, false
}

// checkFD checks that fd is open for writing and says what it is.
func checkFD(fd int) (fs.FileInfo, error) {
	fl, err := unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
	if err != nil {
		return nil, because(fmt.Sprintf("descriptor %d is not open", fd), err)
	}
	if fl&unix.O_ACCMODE == unix.O_RDONLY {
		return nil, because(fmt.Sprintf("descriptor %d is open only for reading", fd), unix.EBADF)
	}
	f, err := dupFD(fd)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// dupFD is a new *os.File sharing fd's open file (its offset and O_APPEND),
// so it can be closed without closing fd, and os.NewFile(fd)'s finalizer
// never closes the process's standard output.
func dupFD(fd int) (*os.File, error) {
	nfd, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(nfd), "/dev/fd/"+strconv.Itoa(fd)), nil
}

// writeFD writes through this process's descriptor fd, where the shell's
// redirection put it: appending if it was opened for appending, after what
// was written before otherwise.
func writeFD(fd int, write func(io.Writer) error) error {
	f, err := dupFD(fd)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// openInPlace opens a pipe or device for writing without truncating it.
// O_NONBLOCK makes opening a FIFO with no reader fail with ENXIO instead of
// waiting forever; the descriptor is made blocking again for the write, so
// a slow reader slows benchy down rather than failing it with EAGAIN.
func openInPlace(path string, fi fs.FileInfo, follow bool) (*os.File, error) {
	flags := unix.O_WRONLY | unix.O_APPEND | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Open(path, flags, 0)
	for err == unix.EINTR {
		fd, err = unix.Open(path, flags, 0)
	}
	if err == unix.ENXIO && fi.Mode()&fs.ModeNamedPipe != 0 {
		return nil, because("no reader on the pipe", err)
	}
	if err != nil {
		return nil, err
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// keepOwner gives the temporary file the replaced file's owner, as the
// shell's > keeps it: "sudo benchy --out ~/r.json" must not leave the user
// a file they cannot write. Only root can do this for another user; for
// anyone else it is a harmless failure.
func keepOwner(f *os.File, old fs.FileInfo) {
	if uid, gid, ok := fileOwner(old); ok {
		f.Chown(int(uid), int(gid))
	}
}

// beforeRename has nothing to do on Unix: rename replaces a read-only file.
func beforeRename(string, fs.FileInfo) {}

// syncDir syncs a directory so a rename in it survives a crash.
func syncDir(dir string) {
	if f, err := os.Open(filepath.Clean(dir)); err == nil {
		f.Sync()
		f.Close()
	}
}
