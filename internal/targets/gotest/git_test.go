//go:build unix

package gotest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// gitRepo makes a repository of one commit ("init") with a tag, in a
// temporary directory; TMPDIR is one of the test's own, so that benchy's
// temporary directories are the test's.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("TMPDIR", t.TempDir())
	for k, v := range map[string]string{"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
		"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": "/dev/null"} {
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	run(t, dir, "git", "init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "git", "add", ".")
	run(t, dir, "git", "commit", "-q", "-m", "init")
	run(t, dir, "git", "tag", "-a", "-m", "v1", "v1")
	return dir
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Revisions are resolved as git resolves them (":/message" included, a
// tag peeled to its commit); an empty, option-like, unknown or non-commit
// revision is a usage error that says which.
func TestResolve(t *testing.T) {
	notUnderRace(t)
	dir := gitRepo(t)
	head := strings.TrimSpace(run(t, dir, "git", "rev-parse", "HEAD"))
	var ch Children
	for _, rev := range []string{"HEAD", ":/init", "v1", "HEAD~0", head[:7]} {
		if got, err := resolve(&ch, dir, "--against", rev); err != nil || got != head {
			t.Errorf("%s: %q, %v; want %s", rev, got, err, head)
		}
	}
	for rev, want := range map[string]string{
		"--output=x": "not a revision", "-": "not a revision", "nosuch": "no such revision",
		":/no such message": "no such revision", "HEAD^{tree}": "names a tree, not a commit",
		strings.Repeat("ab", 20): "no object " + strings.Repeat("ab", 20) + " in the repository " + dir,
	} {
		_, err := resolve(&ch, dir, "--against", rev)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want a usage error with %q", rev, err, want)
		}
	}
	for _, rev := range []string{"", " "} {
		_, err := AddWorktree(&ch, dir, rev, filepath.Join(t.TempDir(), "wt"))
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "give a revision") {
			t.Errorf("%q: %v", rev, err)
		}
	}
}

func worktrees(t *testing.T, dir string) []string {
	t.Helper()
	var paths []string
	for _, l := range strings.Split(run(t, dir, "git", "worktree", "list", "--porcelain"), "\n") {
		if p, ok := strings.CutPrefix(l, "worktree "); ok {
			paths = append(paths, p)
		}
	}
	return paths
}

// The worktrees benchy left when it was killed are removed, those of a
// benchy still running (its directory locked) are kept, and no other
// worktree is touched, even one whose directory is gone.
func TestRemoveStaleWorktrees(t *testing.T) {
	notUnderRace(t)
	dir := gitRepo(t)
	var ch Children
	add := func() (*WorkDir, *Worktree) {
		wd, err := NewWorkDir()
		if err != nil {
			t.Fatal(err)
		}
		wt, err := AddWorktree(&ch, dir, "HEAD", wd.Worktree())
		if err != nil {
			t.Fatal(err)
		}
		return wd, wt
	}
	killed, _ := add()
	killed.lock.Close() // as the kernel does when the process dies
	// A killed bisect's worktree of a commit, beside its old-tree.
	bisected := killed.CommitWorktree("0123abcd")
	if _, err := AddWorktree(&ch, dir, "HEAD", bisected); err != nil {
		t.Fatal(err)
	}
	gone, _ := add()
	gone.lock.Close()
	os.RemoveAll(gone.Path) // a reboot emptied the temporary directory
	live, _ := add()
	defer live.Remove()
	// The user's own worktrees: one beside the repository, and one in
	// the temporary directory whose name is not benchy's.
	mine := filepath.Join(t.TempDir(), "mine")
	run(t, dir, "git", "worktree", "add", "-q", "--detach", mine)
	other := filepath.Join(os.TempDir(), "benchy-gotest-mine")
	run(t, dir, "git", "worktree", "add", "-q", "--detach", other)

	removed, err := RemoveStaleWorktrees(&ch, dir)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(removed)
	want := []string{killed.Worktree(), bisected, gone.Worktree()}
	slices.Sort(want)
	if !slices.Equal(removed, want) {
		t.Errorf("removed %q, want %q", removed, want)
	}
	left := worktrees(t, dir)
	for _, p := range []string{dir, live.Worktree(), mine, other} {
		if !slices.ContainsFunc(left, func(l string) bool { return sameDir(l, p) }) {
			t.Errorf("%s was removed", p)
		}
	}
	if len(left) != 4 {
		t.Errorf("worktrees left: %q", left)
	}
	if _, err := os.Stat(killed.Path); !os.IsNotExist(err) {
		t.Errorf("the killed run's directory is still there: %v", err)
	}
	if removed, err := RemoveStaleWorktrees(&ch, t.TempDir()); err != nil || len(removed) > 0 {
		t.Errorf("outside a repository: %q, %v", removed, err)
	}
}

// The revision's submodules are checked out in the worktree from the
// user's own clones, without touching their configuration; one the user
// has not checked out is named in Missing.
func TestWorktreeSubmodules(t *testing.T) {
	notUnderRace(t)
	dep := gitRepo(t)
	dir := gitRepo(t)
	run(t, dir, "git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", dep, "sub/dep")
	run(t, dir, "git", "-c", "protocol.file.allow=always", "submodule", "add", "-q", dep, "sub/unused")
	run(t, dir, "git", "commit", "-q", "-m", "submodules")
	run(t, dir, "git", "submodule", "deinit", "-q", "-f", "sub/unused")
	config, err := os.ReadFile(filepath.Join(dir, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	var ch Children
	wd, err := NewWorkDir()
	if err != nil {
		t.Fatal(err)
	}
	defer wd.Remove()
	wt, err := AddWorktree(&ch, dir, "HEAD", wd.Worktree())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(wt.Dir, "sub", "dep", "a.txt")); err != nil {
		t.Errorf("the submodule is not checked out in the worktree: %v", err)
	}
	if len(wt.Missing) != 1 || !strings.HasPrefix(wt.Missing[0], "sub/unused (not checked out in your tree)") {
		t.Errorf("missing %q, want sub/unused", wt.Missing)
	}
	if err := wt.Remove(); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); string(after) != string(config) {
		t.Errorf("the configuration changed:\n%s\nwas\n%s", after, config)
	}
	if left := worktrees(t, dir); len(left) != 1 {
		t.Errorf("worktrees left: %q", left)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "worktrees")); !os.IsNotExist(err) {
		t.Errorf("git's records of the worktree are left: %v", err)
	}

	// A revision whose submodule commit the user's clone has not fetched.
	if err := os.WriteFile(filepath.Join(dep, "b.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t, dep, "git", "add", ".")
	run(t, dep, "git", "commit", "-q", "-m", "b")
	b := strings.TrimSpace(run(t, dep, "git", "rev-parse", "HEAD"))
	run(t, dir, "git", "update-index", "--cacheinfo", "160000,"+b+",sub/dep")
	run(t, dir, "git", "commit", "-q", "-m", "dep at b")
	wd2, err := NewWorkDir()
	if err != nil {
		t.Fatal(err)
	}
	defer wd2.Remove()
	wt, err = AddWorktree(&ch, dir, "HEAD", wd2.Worktree())
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Remove()
	if len(wt.Missing) != 2 || !strings.HasPrefix(wt.Missing[0], "sub/dep (not checked out from your clone: ") {
		t.Errorf("missing %q, want sub/dep's commit", wt.Missing)
	}
}

// The commits between GOOD and BAD along BAD's first parents, oldest
// first: a merge is one commit of the line, the branch it brought in is
// not walked. Unknown revisions, GOOD not an ancestor of BAD, GOOD off
// BAD's first-parent line, and the same commit twice are usage errors
// that say which.
func TestFirstParents(t *testing.T) {
	notUnderRace(t)
	dir := gitRepo(t)
	commit := func(msg string) string {
		run(t, dir, "git", "commit", "-q", "--allow-empty", "-m", msg)
		return strings.TrimSpace(run(t, dir, "git", "rev-parse", "HEAD"))
	}
	good := strings.TrimSpace(run(t, dir, "git", "rev-parse", "HEAD"))
	one := commit("one")
	run(t, dir, "git", "checkout", "-q", "-b", "side")
	commit("side one")
	side := commit("side two")
	run(t, dir, "git", "checkout", "-q", "-")
	two := commit("two")
	run(t, dir, "git", "merge", "-q", "--no-ff", "-m", "merge side", "side")
	merge := strings.TrimSpace(run(t, dir, "git", "rev-parse", "HEAD"))
	three := commit("three")

	var ch Children
	g, cs, err := FirstParents(&ch, dir, "v1", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	var got, subjects []string
	for _, c := range cs {
		got, subjects = append(got, c.Hash), append(subjects, c.Subject)
		if c.AuthorDate.IsZero() {
			t.Errorf("%s: no author date", c.Subject)
		}
	}
	if g.Hash != good || g.Subject != "init" || !slices.Equal(got, []string{one, two, merge, three}) ||
		!slices.Equal(subjects, []string{"one", "two", "merge side", "three"}) {
		t.Errorf("GOOD %+v, commits %v %v; want init, then one, two, the merge, three", g, got, subjects)
	}
	for _, tt := range []struct{ good, bad, want string }{
		{"nosuch", "HEAD", "GOOD nosuch: no such revision"},
		{"v1", "nosuch", "BAD nosuch: no such revision"},
		{"HEAD", "v1", "GOOD HEAD is not an ancestor of BAD v1"},
		{side, two, "is not an ancestor"},
		// side is an ancestor of HEAD through the merge only: side..HEAD
		// would start at two, which lacks side's commits.
		{side, "HEAD", "GOOD " + side + " is not on BAD HEAD's first-parent line (a merge brought it in): give a GOOD on that line, such as " + one[:12]},
		{"HEAD", "HEAD", "the same commit"},
		{"-x", "HEAD", "GOOD -x: not a revision"},
	} {
		_, _, err := FirstParents(&ch, dir, tt.good, tt.bad)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %s: %v, want a usage error with %q", tt.good, tt.bad, err, tt.want)
		}
	}
}
