package gotest

import (
	"context"
	"os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/benchy-dev/benchy/internal/procgroup"
)

// Children runs the commands a gotest run starts to build what it
// measures (go list, go test -c, git), each in a process group of its own.
// So a terminal's Ctrl-C reaches benchy alone, and benchy decides what
// stops: when its context is cancelled, the running command's whole
// group (go test -c's compilers and linker too) gets SIGINT, what a
// terminal would have sent (go and git clean up after it), and SIGKILL
// after stopGrace; it is always waited for. Kill ends every running group
// at once, for a benchy that exits now (a second signal). Should benchy
// die without a word (SIGKILL), a child started here gets SIGINT from the
// kernel. The zero value runs commands that nothing stops.
//
// Children keeps the context of the run it was made for: it is the
// long-lived runner of every command of that run, and the zero value,
// which no context stops, is what cleanup after the run uses.
type Children struct {
	ctx     context.Context
	mu      sync.Mutex
	running map[int]*child // the commands not yet reaped, by pid
}

// child is a running command: the leader of its process group.
type child struct {
	stopped bool // signalled to stop: what is left of its group when it ends is killed
}

// NewChildren returns the children of a run that ctx's cancellation
// stops.
func NewChildren(ctx context.Context) *Children { return &Children{ctx: ctx} }

// stopGrace is how long a stopped command has to end after SIGINT, and
// how long Wait waits for its output once it ended.
const stopGrace = 3 * time.Second

// run runs cmd to its end (as cmd.Run), or until the context is
// cancelled: then it returns context.Canceled, once the command's group
// has ended; nothing the command would have made can be used.
func (c *Children) run(cmd *exec.Cmd) error {
	var stop <-chan struct{} // nil for the zero Children: nothing stops it
	if c.ctx != nil {
		stop = c.ctx.Done()
	}
	select {
	case <-stop:
		return context.Canceled
	default:
	}
	ownGroup(cmd)
	cmd.WaitDelay = stopGrace
	started := make(chan error, 1)
	done := make(chan error, 1)
	go func() {
		// The thread that starts a child stays until the child has
		// ended: its parent-death signal is tied to that thread, and Go
		// ends threads (a goroutine that exits locked to one).
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		pid := cmd.Process.Pid
		c.add(pid)
		started <- nil
		done <- reap(cmd, func() { c.ended(pid) })
	}()
	if err := <-started; err != nil {
		return err
	}
	select {
	case err := <-done:
		return err
	case <-stop:
	}
	pid := cmd.Process.Pid
	c.signal(pid, syscall.SIGINT)
	select {
	case <-done:
	case <-time.After(stopGrace):
		c.signal(pid, syscall.SIGKILL)
		<-done
	}
	return context.Canceled
}

// Kill sends SIGKILL to every running command's group, without waiting.
func (c *Children) Kill() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for pid := range c.running {
		procgroup.Signal(pid, syscall.SIGKILL)
	}
}

func (c *Children) add(pid int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running == nil {
		c.running = map[int]*child{}
	}
	c.running[pid] = &child{}
}

// ended is called once the child has ended and before it is reaped: no
// signal goes to its pid once the pid may be another process's. A child
// that was stopped may leave members of its group behind (a shell's
// background job ignores SIGINT); they are killed now, while the group
// still bears the leader's pid.
func (c *Children) ended(pid int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.running[pid]; k != nil && k.stopped {
		procgroup.Signal(pid, syscall.SIGKILL)
	}
	delete(c.running, pid)
}

// signal signals pid's group if it is still running, and marks it stopped.
func (c *Children) signal(pid int, sig syscall.Signal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k := c.running[pid]; k != nil {
		k.stopped = true
		procgroup.Signal(pid, sig)
	}
}
