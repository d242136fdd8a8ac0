package gotest

import (
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The temporary directories of benchy gotest are <temp>/benchy-gotest-*,
// and the worktree of --against is old-tree in one of them: by that place
// a later benchy recognises a worktree left by one that was killed.
const (
	workDirPrefix = "benchy-gotest-"
	oldTreeName   = "old-tree"
	newTreeName   = "new-tree" // the new side's, when it is a revision too
	// commitTreePrefix starts the worktree of each commit benchy bisect
	// builds: commit-<hash>.
	commitTreePrefix = "commit-"
)

// WorkDir is the temporary directory of one gotest run: the rewritten
// test files, the binaries, the worktree of --against. It is locked
// (flock) while the run lasts, so a later run tells the directory of a
// benchy that was killed (SIGKILL, a crash) from that of one still running:
// the lock ends with the process, however it ends.
type WorkDir struct {
	Path string
	lock io.Closer
}

// NewWorkDir makes and locks a new temporary directory.
func NewWorkDir() (*WorkDir, error) {
	dir, err := os.MkdirTemp("", workDirPrefix)
	if err != nil {
		return nil, err
	}
	lock, err := lockDir(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &WorkDir{Path: dir, lock: lock}, nil
}

// Worktree is where the worktree of --against goes.
func (d *WorkDir) Worktree() string { return filepath.Join(d.Path, oldTreeName) }

// NewWorktree is where the worktree of the new side goes when it is a
// revision as well (history check --confirm).
func (d *WorkDir) NewWorktree() string { return filepath.Join(d.Path, newTreeName) }

// CommitWorktree is where the worktree of commit goes when a run builds
// many (benchy bisect: one a commit, each built once).
func (d *WorkDir) CommitWorktree(commit string) string {
	return filepath.Join(d.Path, commitTreePrefix+commit)
}

// Remove deletes the directory, then lets go of its lock.
func (d *WorkDir) Remove() error {
	err := os.RemoveAll(d.Path)
	if d.lock != nil {
		d.lock.Close()
	}
	return err
}

// staleWorkDir reports whether worktree is an --against worktree of a
// benchy gotest that no longer runs: <temp>/benchy-gotest-*/old-tree (or
// new-tree, the new side of history check --confirm, or commit-<hash>,
// one of benchy bisect), its directory held by no lock (or gone). It
// returns the directory.
func staleWorkDir(worktree string) (string, bool) {
	dir := filepath.Dir(worktree)
	base := filepath.Base(worktree)
	ours := base == oldTreeName || base == newTreeName || strings.HasPrefix(base, commitTreePrefix)
	if !ours || !strings.HasPrefix(filepath.Base(dir), workDirPrefix) ||
		!sameDir(filepath.Dir(dir), os.TempDir()) {
		return "", false
	}
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return dir, true
	}
	return dir, !dirLocked(dir)
}

// sameDir reports whether a and b are one directory, symbolic links
// followed (git may record a path through them or not).
func sameDir(a, b string) bool {
	if ra, err := filepath.EvalSymlinks(a); err == nil {
		a = ra
	}
	if rb, err := filepath.EvalSymlinks(b); err == nil {
		b = rb
	}
	return filepath.Clean(a) == filepath.Clean(b)
}
