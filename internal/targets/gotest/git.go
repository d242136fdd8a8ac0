package gotest

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
)

// Worktree is a revision of the user's repository checked out in a
// temporary git worktree: the old side of `gotest --against`. The user's
// own tree, index and stash are never touched; only git's list of
// worktrees changes, and Remove puts it back.
type Worktree struct {
	Repo   string // the top of the user's repository
	Dir    string // the worktree
	Prefix string // the user's directory within the repository ("" at the top)
	Rev    string // the revision as given
	Commit string // what it names
}

// AddWorktree checks out rev of the repository that holds dir into
// worktree (which must not exist). Not a repository and an unknown
// revision are usage errors.
func AddWorktree(dir, rev, worktree string) (*Worktree, error) {
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, usagef("--against %s: %s is not in a git repository (%s)", rev, dir, err)
	}
	prefix, err := git(dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(rev, "-") {
		return nil, usagef("--against %s: not a revision", rev)
	}
	commit, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, usagef("--against %s: no such revision in %s", rev, top)
	}
	if _, err := git(top, "worktree", "add", "--quiet", "--detach", worktree, commit); err != nil {
		return nil, err
	}
	return &Worktree{Repo: top, Dir: worktree, Prefix: prefix, Rev: rev, Commit: commit}, nil
}

// Short is the commit's first 12 hex digits, as a person quotes it.
func (w *Worktree) Short() string { return w.Commit[:min(12, len(w.Commit))] }

// Path is where the user's directory is in the worktree.
func (w *Worktree) Path() string { return filepath.Join(w.Dir, filepath.FromSlash(w.Prefix)) }

// Remove deletes the worktree and git's record of it.
func (w *Worktree) Remove() error {
	_, err := git(w.Repo, "worktree", "remove", "--force", w.Dir)
	if _, perr := git(w.Repo, "worktree", "prune"); err == nil {
		err = perr
	}
	return err
}

// git runs git in dir and returns its output, trimmed; the error is its
// first line of complaint.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", &gitError{args: args, msg: firstLine(stderr.String(), err)}
	}
	return strings.TrimSpace(string(out)), nil
}

type gitError struct {
	args []string
	msg  string
}

func (e *gitError) Error() string {
	return "git " + strings.Join(e.args, " ") + ": " + strings.TrimPrefix(e.msg, "fatal: ")
}
