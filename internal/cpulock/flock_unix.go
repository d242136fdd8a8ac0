//go:build unix

package cpulock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// openLock opens (creating) the lock file name in the lock directory:
// read-only, not through a link, and without blocking, so a FIFO or a
// device in its place cannot hang benchy; then checks it is a regular file
// of ours.
func openLock(name string) (*os.File, error) {
	dir, dfd, err := lockDir()
	if err != nil {
		return nil, err
	}
	defer unix.Close(dfd)
	path := filepath.Join(dir, name)
	fd, err := unix.Openat(dfd, name, unix.O_RDONLY|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o600)
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("%s is a link", path)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	if err := ours(path, &st, unix.S_IFREG, "a regular file"); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// lockDir is the directory of the lock files and a descriptor of it (to
// close): RuntimeDir/benchy when RuntimeDir is set and usable, else
// TempDir/benchy-<uid>.
func lockDir() (string, int, error) {
	if RuntimeDir != "" && filepath.IsAbs(RuntimeDir) {
		if fd, err := openDir(RuntimeDir, false); err == nil {
			unix.Close(fd)
			dir := filepath.Join(RuntimeDir, "benchy")
			if fd, err := openDir(dir, true); err == nil {
				return dir, fd, nil
			}
		}
	}
	dir := filepath.Join(TempDir, "benchy-"+strconv.Itoa(os.Getuid()))
	fd, err := openDir(dir, true)
	return dir, fd, err
}

// openDir opens dir, a directory of ours and not a link; create says to
// create it 0700 when it is missing, and to make it 0700 when others may
// read or write it. A directory someone else owns is refused, never
// used: it is not ours to change.
func openDir(dir string, create bool) (int, error) {
	if create {
		if err := unix.Mkdir(dir, 0o700); err != nil && !errors.Is(err, unix.EEXIST) {
			return -1, &os.PathError{Op: "mkdir", Path: dir, Err: err}
		}
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return -1, fmt.Errorf("lock directory %s is a link or not a directory", dir)
		}
		return -1, &os.PathError{Op: "open", Path: dir, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, &os.PathError{Op: "stat", Path: dir, Err: err}
	}
	if err := ours(dir, &st, unix.S_IFDIR, "a directory"); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if uint32(st.Mode)&0o077 != 0 {
		if !create {
			unix.Close(fd)
			return -1, fmt.Errorf("%s is open to other users (mode %#o)", dir, uint32(st.Mode)&0o777)
		}
		if err := unix.Fchmod(fd, 0o700); err != nil {
			unix.Close(fd)
			return -1, &os.PathError{Op: "chmod", Path: dir, Err: err}
		}
	}
	return fd, nil
}

// ours checks that st, the status of path, is of the kind wanted (an
// S_IFMT value, named what) and owned by this user.
func ours(path string, st *unix.Stat_t, kind uint32, what string) error {
	if uint32(st.Mode)&unix.S_IFMT != kind {
		return fmt.Errorf("%s is not %s", path, what)
	}
	if uid := os.Getuid(); int(st.Uid) != uid {
		return fmt.Errorf("%s is owned by uid %d, not by this user (uid %d)", path, st.Uid, uid)
	}
	return nil
}

func tryFlock(f *os.File) (bool, error) {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
