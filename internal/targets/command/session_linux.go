package command

import (
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
)

// killGrace is how long a run stopped with SIGTERM has to exit before it
// gets SIGKILL: enough to clean up, short enough for Ctrl-C.
const killGrace = time.Second

// session forks runs from the thread it was opened on, whose affinity
// they inherit and whose inherited perf events count them.
type session struct {
	tid            int
	perf           *childCounters
	report         result.CounterReport
	env            []string
	stdout, stderr int // the fds of shown output
	devnull        *os.File

	mu   sync.Mutex
	live *killer // the killer of the run in progress; nil between runs
}

// newSession opens the perf events on the calling thread.
func newSession(stdout, stderr int) *session {
	s := &session{tid: unix.Gettid(), env: os.Environ(), stdout: stdout, stderr: stderr}
	s.report = result.CounterReport{Opened: []string{}}
	s.perf = openChildCounters(&s.report)
	addRusage(&s.report, s.perf.has(taskClock))
	s.devnull, _ = os.OpenFile(os.DevNull, os.O_RDWR, 0)
	return s
}

func (s *session) close() {
	s.perf.close()
	if s.devnull != nil {
		s.devnull.Close()
	}
}

// run starts j, waits for it, and measures it. Wall time runs from just
// before the fork to the moment waitid sees the child exit; the child is
// then a zombie, whose /proc files still say where it ran, until wait4
// reaps it and returns its rusage.
func (s *session) run(j Job, stop <-chan struct{}) (Result, error) {
	if s.devnull == nil {
		return Result{}, fmt.Errorf("open %s", os.DevNull)
	}
	if harness.Stopped(stop) {
		return Result{}, ErrStopped
	}
	files, tl, closeFiles, err := s.files(j)
	if err != nil {
		return Result{}, err
	}
	defer closeFiles()
	if tl != nil {
		defer tl.close()
	}
	k := &killer{}
	done := make(chan struct{})
	defer close(done)
	go k.watch(stop, done)
	s.setLive(k)
	defer s.setLive(nil)

	floor := rssFloor()
	before := s.perf.read()
	attr := &syscall.ProcAttr{Env: s.env, Files: files, Sys: &syscall.SysProcAttr{Setpgid: true}}
	start := time.Now()
	pid, err := syscall.ForkExec(j.Path, j.Args, attr)
	if err != nil {
		return Result{}, fmt.Errorf("start %s: %w", result.Printable(j.Path), err)
	}
	k.started(pid)
	var info unix.Siginfo
	for {
		err = unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err != unix.EINTR {
			break
		}
	}
	wall := time.Since(start)
	if err != nil {
		return Result{}, fmt.Errorf("wait for %s: %w", result.Printable(j.Path), err)
	}
	r := Result{Wall: wall, CPU: -1}
	r.CPU, r.AllowedCPUs = zombieCPU(pid)
	var ws unix.WaitStatus
	var ru unix.Rusage
	if err := k.reap(pid, &ws, &ru); err != nil {
		return Result{}, fmt.Errorf("reap %s: %w", result.Printable(j.Path), err)
	}
	if !j.LeaveRunning {
		r.Left = killLeftovers(pid) // before the stderr tail is read: they may hold its pipe
	}
	if k.signaled() {
		return Result{}, ErrStopped
	}
	r.Counters = s.perf.delta(before, s.perf.read())
	rusageCounts(&ru, r.Counters)
	if floor > 0 {
		r.Counters[CounterRSSFloor] = floor
	}
	switch {
	case ws.Exited():
		r.Status.Code = ws.ExitStatus()
	case ws.Signaled():
		r.Status.Signal = unix.SignalName(ws.Signal())
		if r.Status.Signal == "" {
			r.Status.Signal = fmt.Sprintf("signal %d", ws.Signal())
		}
	}
	if tl != nil && !r.Status.OK() {
		closeFiles() // our copy of the pipe's write end: the reader sees EOF
		r.Stderr = tl.lines()
	}
	return r, nil
}

func (s *session) setLive(k *killer) {
	s.mu.Lock()
	s.live = k
	s.mu.Unlock()
}

// abort kills the run in progress, if any, at once (SIGKILL to its
// process group): for a benchy that exits without waiting for it.
func (s *session) abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live != nil {
		s.live.abort()
	}
}

// files opens the run's stdin, stdout and stderr: the input or
// /dev/null; the shown output or /dev/null; the shown output or a pipe
// whose last lines are kept.
func (s *session) files(j Job) ([]uintptr, *tail, func(), error) {
	var toClose []*os.File
	once := sync.Once{}
	closeAll := func() {
		once.Do(func() {
			for _, f := range toClose {
				f.Close()
			}
		})
	}
	in := s.devnull
	if j.Input != "" {
		f, err := openInput(j.Input)
		if err != nil {
			return nil, nil, nil, err
		}
		toClose = append(toClose, f)
		if err := unix.SetNonblock(int(f.Fd()), false); err != nil {
			closeAll()
			return nil, nil, nil, fmt.Errorf("--input %s: %w", result.Printable(j.Input), err)
		}
		in = f
	}
	if j.ShowOutput {
		return []uintptr{in.Fd(), uintptr(s.stdout), uintptr(s.stderr)}, nil, closeAll, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		closeAll()
		return nil, nil, nil, fmt.Errorf("a pipe for stderr: %w", err)
	}
	toClose = append(toClose, w)
	return []uintptr{in.Fd(), s.devnull.Fd(), w.Fd()}, startTail(r), closeAll, nil
}

// killer stops a run when the stop channel closes: SIGTERM to the run's
// process group, SIGKILL after killGrace. It never signals after the
// reap, when the process group's number may belong to someone else.
type killer struct {
	mu      sync.Mutex
	pid     int // 0 before the start, -1 after the reap
	stopped bool
	aborted bool // kill at once (abort), the start not yet recorded included
	sent    bool
}

func (k *killer) watch(stop <-chan struct{}, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-stop:
	}
	k.mu.Lock()
	k.stopped = true
	k.mu.Unlock()
	k.signal(unix.SIGTERM)
	t := time.NewTimer(killGrace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		k.signal(unix.SIGKILL)
	}
}

// started records the child; a stop or an abort that came first is
// carried out now. The child runs before its parent gets here, so an abort
// can land between the fork and this (it did under two CPU hogs, and the
// run went on for its whole minute).
func (k *killer) started(pid int) {
	k.mu.Lock()
	k.pid = pid
	stopped, aborted := k.stopped, k.aborted
	k.mu.Unlock()
	switch {
	case aborted:
		k.signal(unix.SIGKILL)
	case stopped:
		k.signal(unix.SIGTERM)
	}
}

// abort kills the run at once, or as soon as it has started.
func (k *killer) abort() {
	k.mu.Lock()
	k.aborted = true
	k.mu.Unlock()
	k.signal(unix.SIGKILL)
}

func (k *killer) signal(sig unix.Signal) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.pid > 0 {
		unix.Kill(-k.pid, sig)
		k.sent = true
	}
}

func (k *killer) signaled() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.sent
}

// reap waits for the zombie, under the lock signal takes.
func (k *killer) reap(pid int, ws *unix.WaitStatus, ru *unix.Rusage) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.pid = -1
	for {
		_, err := unix.Wait4(pid, ws, 0, ru)
		if err != unix.EINTR {
			return err
		}
	}
}

// tail keeps the last bytes of a run's stderr.
type tail struct {
	r    *os.File
	w    tailWriter
	done chan struct{}
}

// tailBytes is how much of stderr is kept: ten lines of a long message.
const tailBytes = 4096

func startTail(r *os.File) *tail {
	t := &tail{r: r, w: tailWriter{size: tailBytes}, done: make(chan struct{})}
	go func() {
		defer close(t.done)
		io.Copy(&t.w, r)
	}()
	return t
}

// tailDrain bounds the wait for stderr's end after the run exited: a
// process it left behind may hold the pipe open.
const tailDrain = 100 * time.Millisecond

// lines returns the last ten lines of stderr, once every writer closed
// the pipe or tailDrain passed.
func (t *tail) lines() []string {
	t.r.SetReadDeadline(time.Now().Add(tailDrain))
	<-t.done
	return lastLines(t.w.bytes(), 10)
}

// close closes the pipe, which ends the reader if lines did not.
func (t *tail) close() { t.r.Close() }
