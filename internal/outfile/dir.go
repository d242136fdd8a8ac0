package outfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckDir resolves the directory path, where benchy writes files of its
// own choosing (--profile DIR), makes it when it is missing, and checks
// that files can be made in it, before anything is measured. Links are
// followed one at a time under the sticky-directory rules, as Check
// follows them: a link another user planted in /tmp is not followed. It
// returns the directory, absolute and with its links resolved; each file
// in it is then written as Check and Write write one.
func CheckDir(flag, path string) (string, error) {
	d := &Dest{flag: flag, path: path}
	if path == "" {
		return "", d.fail(errors.New("no directory named"))
	}
	cur, made := path, false
	for hops := 0; ; hops++ {
		fi, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !made:
			if err := os.MkdirAll(cur, 0o755); err != nil {
				return "", d.fail(because("cannot make it: "+explain(err).Error(), err))
			}
			made = true
			continue
		case err != nil:
			return "", d.fail(explain(err))
		case fi.IsDir():
			if err := probe(filepath.Join(cur, "dir")); err != nil {
				return "", d.fail(because("cannot write there: "+explain(err).Error(), err))
			}
			return abs(cur), nil
		case fi.Mode()&fs.ModeSymlink == 0:
			return "", d.fail(errors.New("not a directory"))
		case hops == maxLinks:
			return "", d.fail(explain(syscall.ELOOP))
		}
		next, err := readLink(cur, fi)
		if err != nil {
			return "", d.fail(err)
		}
		cur = linkTarget(cur, next)
	}
}
