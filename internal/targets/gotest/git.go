package gotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/history"
)

// Worktree is a revision of the user's repository checked out in a
// temporary git worktree: the old side of `gotest --against`. The user's
// own tree, index, stash and configuration are never touched; only git's
// list of worktrees changes, and Remove puts it back.
type Worktree struct {
	Repo   string // the top of the user's repository
	Dir    string // the worktree
	Prefix string // the user's directory within the repository ("" at the top)
	Rev    string // the revision as given
	Commit string // what it names
	// Missing are the revision's submodules that are not checked out in
	// the worktree, each with why: benchy checks a submodule out from the
	// user's own clone of it, and there was none, or it lacks the commit.
	Missing []string
}

// AddWorktree checks out rev of the repository that holds dir into
// worktree (which must not exist), with the submodules the user has
// checked out. Not a repository, an empty, option-like or unknown
// revision, and one that is not a commit are usage errors.
func AddWorktree(ch *Children, dir, rev, worktree string) (*Worktree, error) {
	if strings.TrimSpace(rev) == "" {
		return nil, usagef("--against %q: give a revision to compare with (HEAD, a branch, a tag or a commit)", rev)
	}
	top, err := git(ch, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, stopOr(err, usagef("--against %s: %s is not in a git repository (%s)", rev, dir, err))
	}
	prefix, err := git(ch, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	commit, err := resolve(ch, top, "--against", rev)
	if err != nil {
		return nil, err
	}
	if _, err := git(ch, top, "worktree", "add", "--quiet", "--detach", worktree, commit); err != nil {
		if errors.Is(err, context.Canceled) {
			// git removes what it made on SIGINT; after a SIGKILL its
			// record is left: the directory goes, and prune drops it.
			os.RemoveAll(worktree)
			git(&Children{}, top, "worktree", "prune")
		}
		return nil, err
	}
	w := &Worktree{Repo: top, Dir: worktree, Prefix: prefix, Rev: rev, Commit: commit}
	if err := w.checkoutSubmodules(ch); err != nil {
		w.Remove()
		return nil, err
	}
	return w, nil
}

// resolve returns the commit rev names, as git names revisions (HEAD~2,
// v1.2.0, :/message): the object first, then the commit it peels to (a
// suffix on rev itself would be read as part of a :/message). what names
// rev in a usage error ("--against", "GOOD").
func resolve(ch *Children, top, what, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") || strings.TrimSpace(rev) == "" {
		return "", usagef("%s %s: not a revision", what, rev)
	}
	obj, err := git(ch, top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev)
	if err != nil {
		return "", stopOr(err, usagef("%s %s: no such revision in %s", what, rev, top))
	}
	commit, err := git(ch, top, "rev-parse", "--verify", "--quiet", "--end-of-options", obj+"^{commit}")
	if err != nil {
		// rev-parse takes a full hash as it is written, object or not: a
		// commit of another clone (a stored result's) is named so.
		kind, kerr := git(ch, top, "cat-file", "-t", obj)
		if kerr != nil || kind == "" {
			return "", stopOr(err, usagef("%s %s: no object %s in the repository %s (a commit of another clone, or not fetched yet?)", what, rev, obj, top))
		}
		return "", stopOr(err, usagef("%s %s: names a %s, not a commit", what, rev, kind))
	}
	return commit, nil
}

// FirstParents resolves good and bad in the repository that holds dir and
// returns good and the commits after it up to bad, oldest first, along
// bad's first parents (git rev-list --first-parent good..bad): a merge is
// one commit of that line, the commits it brought in are not walked. An
// unknown revision, a good that is not an ancestor of bad, and one that
// is not on bad's first-parent line, are usage errors.
func FirstParents(ch *Children, dir, good, bad string) (bisect.Commit, []bisect.Commit, error) {
	top, err := git(ch, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return bisect.Commit{}, nil, stopOr(err, usagef("%s is not in a git repository (%s)", dir, err))
	}
	g, err := resolve(ch, top, "GOOD", good)
	if err != nil {
		return bisect.Commit{}, nil, err
	}
	b, err := resolve(ch, top, "BAD", bad)
	if err != nil {
		return bisect.Commit{}, nil, err
	}
	if _, err := git(ch, top, "merge-base", "--is-ancestor", g, b); err != nil {
		return bisect.Commit{}, nil, stopOr(err, usagef("GOOD %s is not an ancestor of BAD %s: give the older, fast commit first", good, bad))
	}
	const format = "--format=%H%x00%s%x00%aI"
	gc, err := git(ch, top, "show", "-s", format, g)
	if err != nil {
		return bisect.Commit{}, nil, err
	}
	out, err := git(ch, top, "rev-list", "--first-parent", "--reverse", format, "--no-commit-header", g+".."+b)
	if err != nil {
		return bisect.Commit{}, nil, err
	}
	var cs []bisect.Commit
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			cs = append(cs, parseCommit(l))
		}
	}
	if len(cs) == 0 {
		return bisect.Commit{}, nil, usagef("GOOD %s and BAD %s are the same commit: nothing between them", good, bad)
	}
	// GOOD brought in by a merge is an ancestor of BAD off its first
	// parents: the list then starts at a commit that lacks GOOD (A-B-M-D
	// with M merging A-G, G..D is B M D), and the walk would measure
	// commits older than GOOD as if they came after it. GOOD is on the
	// line exactly when it is the first parent of the oldest commit listed.
	first, err := git(ch, top, "rev-parse", "--verify", "--quiet", cs[0].Hash+"^1")
	if errors.Is(err, context.Canceled) {
		return bisect.Commit{}, nil, err
	}
	if first != g {
		instead := "a commit that git rev-list --first-parent BAD lists"
		if first != "" {
			instead = history.Short(first) + ", the newest commit of that line GOOD descends from"
		}
		return bisect.Commit{}, nil, usagef("GOOD %s is not on BAD %s's first-parent line (a merge brought it in): give a GOOD on that line, such as %s", good, bad, instead)
	}
	return parseCommit(gc), cs, nil
}

// parseCommit reads a line of FirstParents' format: hash, subject and
// author date, NUL-separated.
func parseCommit(l string) bisect.Commit {
	f := strings.SplitN(l, "\x00", 3)
	c := bisect.Commit{Hash: f[0]}
	if len(f) == 3 {
		c.Subject = f[1]
		c.AuthorDate, _ = time.Parse(time.RFC3339, f[2])
	}
	return c
}

// checkoutSubmodules checks out the worktree's submodules from the user's
// own clones of them, offline, at the commits the revision records: the
// old side then builds with what the new side has. A submodule the user
// has not checked out stays empty in the worktree too, as in their tree;
// one whose clone lacks the commit is named in Missing. Submodules of
// submodules are not checked out.
func (w *Worktree) checkoutSubmodules(ch *Children) error {
	if _, err := os.Stat(filepath.Join(w.Dir, ".gitmodules")); err != nil {
		return nil
	}
	out, err := git(ch, w.Dir, "config", "--file", ".gitmodules", "--get-regexp", `^submodule\..*\.path$`)
	if errors.Is(err, context.Canceled) {
		return err
	}
	for _, l := range strings.Split(out, "\n") {
		key, path, ok := strings.Cut(l, " ")
		if !ok {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(key, "submodule."), ".path")
		clone := filepath.Join(w.Repo, filepath.FromSlash(path))
		if top, err := git(ch, clone, "rev-parse", "--show-toplevel"); err != nil || !sameDir(top, clone) {
			if errors.Is(err, context.Canceled) {
				return err
			}
			w.Missing = append(w.Missing, path+" (not checked out in your tree)")
			continue
		}
		gitDir, err := git(ch, clone, "rev-parse", "--absolute-git-dir")
		if err == nil {
			// The URL given for this command only: the user's
			// configuration is shared with the worktree and stays.
			_, err = git(ch, w.Dir, "-c", "protocol.file.allow=always", "-c", "submodule."+name+".url="+gitDir,
				"submodule", "update", "--init", "--no-fetch", "--", path)
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
		var ge *gitError
		if errors.As(err, &ge) {
			err = errors.New(ge.reason())
		}
		if err != nil {
			w.Missing = append(w.Missing, fmt.Sprintf("%s (not checked out from your clone: %v)", path, err))
		}
	}
	return nil
}

// Short is the commit's first 12 hex digits, as a person quotes it.
func (w *Worktree) Short() string { return history.Short(w.Commit) }

// Path is where the user's directory is in the worktree.
func (w *Worktree) Path() string { return filepath.Join(w.Dir, filepath.FromSlash(w.Prefix)) }

// Remove deletes the worktree and git's record of it. It runs to its end
// after a stop too.
func (w *Worktree) Remove() error {
	var ch Children
	_, err := git(&ch, w.Repo, "worktree", "remove", "--force", w.Dir)
	if _, perr := git(&ch, w.Repo, "worktree", "prune"); err == nil {
		err = perr
	}
	return err
}

// RemoveStaleWorktrees removes from the repository that holds dir the
// worktrees an earlier gotest --against left behind when it was killed
// (SIGKILL, a crash, a power cut), and returns them: those in a benchy
// gotest temporary directory that no running benchy holds (see WorkDir).
// Outside a repository there are none.
func RemoveStaleWorktrees(ch *Children, dir string) ([]string, error) {
	top, err := git(ch, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, stopOr(err, nil)
	}
	out, err := git(ch, top, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, l := range strings.Split(out, "\n") {
		path, ok := strings.CutPrefix(l, "worktree ")
		if !ok {
			continue
		}
		wd, stale := staleWorkDir(path)
		if !stale {
			continue
		}
		if _, err := os.Stat(path); err == nil {
			if _, err := git(ch, top, "worktree", "remove", "--force", path); errors.Is(err, context.Canceled) {
				return removed, err
			}
		}
		if err := os.RemoveAll(wd); err != nil {
			return removed, err
		}
		removed = append(removed, path)
	}
	if len(removed) > 0 {
		if _, err := git(ch, top, "worktree", "prune"); err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// stopOr is context.Canceled when err is, else instead.
func stopOr(err, instead error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return instead
}

// git runs git in dir and returns its output, trimmed; the error is its
// complaint, or context.Canceled.
func git(ch *Children, dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	// Never a prompt for a password: no one would see it (git runs in a
	// process group of its own, off the terminal).
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := ch.run(cmd); err != nil {
		if errors.Is(err, context.Canceled) {
			return "", err
		}
		return "", &gitError{args: args, msg: complaint(stderr.String(), err)}
	}
	return strings.TrimSpace(stdout.String()), nil
}

// complaint is git's first line of error output ("fatal: ...", "error:
// ..."), past the lines of progress ("Cloning into ..."); else its first.
func complaint(stderr string, err error) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "fatal: ") || strings.HasPrefix(l, "error: ") {
			return l
		}
	}
	return firstLine(stderr, err)
}

type gitError struct {
	args []string
	msg  string
}

func (e *gitError) Error() string {
	return "git " + strings.Join(e.args, " ") + ": " + e.reason()
}

// reason is git's complaint without its "fatal: " or "error: ".
func (e *gitError) reason() string {
	return strings.TrimPrefix(strings.TrimPrefix(e.msg, "fatal: "), "error: ")
}
