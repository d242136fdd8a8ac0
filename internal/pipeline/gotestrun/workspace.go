package gotestrun

import (
	"fmt"
	"io"
	"sync"

	"github.com/benchy-dev/benchy/internal/targets/gotest"
)

// workspace is the temporary directory of gotest or bisect and the git
// worktrees checked out in it, removed together: the worktrees before the
// directory that holds them, on the way out and at a second signal alike.
type workspace struct {
	dir   *gotest.WorkDir
	notes io.Writer // where a worktree that cannot be removed is said

	mu      sync.Mutex // the worktrees: the signal's goroutine removes them too
	wts     []*gotest.Worktree
	cleaned bool
}

// add keeps wt, to be removed with the directory.
func (w *workspace) add(wt *gotest.Worktree) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.wts = append(w.wts, wt)
}

// clean removes every worktree, once, then the temporary directory. A
// worktree git cannot remove is said with the command that removes it.
func (w *workspace) clean() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.cleaned {
		for _, t := range w.wts {
			if err := t.Remove(); err != nil {
				fmt.Fprintf(w.notes, "benchy: could not remove the worktree %s: %v (git worktree remove --force %s)\n", t.Dir, err, t.Dir)
			}
		}
	}
	w.cleaned = true
	w.dir.Remove()
}
