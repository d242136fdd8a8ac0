package history

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"
)

// Source is the code a result measured: its commit, whether the tree had
// changes not in that commit, the branch, and the commit's time.
type Source struct {
	Commit string    `json:"commit"`
	Dirty  bool      `json:"dirty,omitempty"`
	Branch string    `json:"branch,omitempty"`
	Time   time.Time `json:"commit_time,omitzero"` // committer time; zero when unknown
}

// gitTimeout bounds each git command: a store must not hang on a
// repository on a stalled network file system.
const gitTimeout = 10 * time.Second

// GitSource is the source of the code in dir: HEAD of its git work tree,
// dirty when `git status` shows a change to a tracked file, the branch
// (empty for a detached HEAD), and HEAD's committer time.
func GitSource(dir string) (Source, error) {
	return gitSourceAt(dir, "HEAD")
}

// GitCommit resolves rev (a hash, a branch, HEAD~3) to its commit in the
// repository of dir, with the commit's time; it is never dirty, and the
// branch is rev's when rev names one.
func GitCommit(dir, rev string) (Source, error) {
	s, err := gitSourceAt(dir, rev)
	s.Dirty = false
	return s, err
}

func gitSourceAt(dir, rev string) (Source, error) {
	if strings.HasPrefix(rev, "-") || rev == "" {
		return Source{}, fmt.Errorf("%q is not a revision", rev)
	}
	out, err := git(dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return Source{}, fmt.Errorf("git: %s is not a commit in %s: %v", rev, dir, err)
	}
	s := Source{Commit: out}
	if t, err := git(dir, "show", "-s", "--format=%cI", s.Commit); err == nil {
		s.Time, _ = time.Parse(time.RFC3339, t)
	}
	if rev == "HEAD" {
		s.Branch, _ = git(dir, "symbolic-ref", "--quiet", "--short", "HEAD")
		st, err := git(dir, "status", "--porcelain", "--untracked-files=no")
		s.Dirty = err != nil || st != ""
	} else if b, err := git(dir, "rev-parse", "--verify", "--quiet", "--abbrev-ref", rev); err == nil && b != "" && b != "HEAD" && !strings.HasPrefix(s.Commit, b) {
		s.Branch = b
	}
	return s, nil
}

func git(dir string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return "", errors.New(strings.TrimSpace(strings.SplitN(string(ee.Stderr), "\n", 2)[0]))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// BuildSource is the source this program was built from, from the build
// information the go command stamps (vcs.revision, vcs.modified,
// vcs.time); false when the binary carries none (go run, -buildvcs=false,
// a build outside a repository).
func BuildSource() (Source, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Source{}, false
	}
	var s Source
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			s.Commit = kv.Value
		case "vcs.modified":
			s.Dirty = kv.Value == "true"
		case "vcs.time":
			s.Time, _ = time.Parse(time.RFC3339, kv.Value)
		}
	}
	return s, s.Commit != ""
}

// SourceOf is the code a command measured in dir: for a program that
// measures itself (run), the commit it was built from when the go command
// stamped one, else the git work tree of dir; for gotest and exec, which
// build or run what is in dir, its git work tree.
func SourceOf(command, dir string) (Source, error) {
	if command == "run" {
		if s, ok := BuildSource(); ok {
			return s, nil
		}
	}
	return GitSource(dir)
}
