package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/procgroup"
	"github.com/benchy-dev/benchy/internal/result"
)

// killGrace is how long a run stopped with SIGTERM has to exit before it
// gets SIGKILL: enough to clean up, short enough for Ctrl-C.
const killGrace = time.Second

// session forks runs from the thread it was opened on, whose affinity
// they inherit and whose inherited perf events count them, through the
// starter where there is one.
type session struct {
	tid            int
	perf           *childCounters
	report         result.CounterReport
	env            []string
	stdout, stderr int // the fds of shown output
	devnull        *os.File
	starter        *starter // nil: runs are forked directly

	mu   sync.Mutex
	live *killer // the killer of the run in progress; nil between runs
}

// newSession opens the perf events on the calling thread.
func newSession(stdout, stderr int) *session {
	s := &session{tid: unix.Gettid(), env: os.Environ(), stdout: stdout, stderr: stderr}
	s.report = result.CounterReport{Opened: []string{}}
	s.perf = openChildCounters(&s.report)
	s.devnull, _ = os.OpenFile(os.DevNull, os.O_RDWR, 0)
	why := s.useStarter()
	addRusage(&s.report, s.perf.has(taskClock), why)
	return s
}

// useStarter gives the session a starter, after a run through it of a
// program that cannot be executed ("") has shown that the kernel runs
// it and it reports; it returns why there is none otherwise.
func (s *session) useStarter() (why string) {
	if s.devnull == nil {
		// The trial run's stdin and output: without them the starter
		// cannot be tried, and is not trusted untried.
		return "the starter was not tried: " + os.DevNull + " could not be opened"
	}
	st, err := newStarter()
	if err != nil {
		return err.Error()
	}
	s.starter = st
	fd := s.devnull.Fd()
	attr := &syscall.ProcAttr{Env: s.env, Files: []uintptr{fd, fd, fd}, Sys: &syscall.SysProcAttr{Setpgid: true}}
	k := &killer{}
	var pid, leader int
	if pid, leader, err = s.start(Job{Path: "", Args: []string{""}}, attr, k); pid > 0 {
		k.reap(pid, leader, nil, nil)
	}
	if err == nil {
		err = errors.New("it started a program that cannot be executed")
	}
	if !errors.Is(err, unix.ENOENT) || errors.Is(err, errStarter) {
		st.close()
		s.starter = nil
		return fmt.Sprintf("the starter did not work: %v", err)
	}
	return ""
}

func (s *session) close() {
	s.perf.close()
	if s.devnull != nil {
		s.devnull.Close()
	}
	if s.starter != nil {
		s.starter.close()
	}
}

// floorKB is the least max-rss-kb a run started now can report, in KiB
// (see rssFloor); 0 when the starter starts the runs, whose few pages
// are all a run inherits.
func (s *session) floorKB() int64 {
	if s.starter != nil {
		return 0
	}
	return rssFloor()
}

// start forks j and records its process group in k. pid is the run's;
// leader is the process whose pid names the run's group: the starter,
// or the run itself. Both are to be reaped (killer.reap), the run first;
// a run whose execve failed has exited, and pid is > 0 with the error.
func (s *session) start(j Job, attr *syscall.ProcAttr, k *killer) (pid, leader int, err error) {
	if s.starter == nil {
		pid, err := syscall.ForkExec(j.Path, j.Args, attr)
		if err != nil {
			return 0, 0, err
		}
		k.started(pid)
		return pid, pid, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return 0, 0, fmt.Errorf("%w: a pipe for its report: %v", errStarter, err)
	}
	defer r.Close()
	a := *attr
	a.Files = append(slices.Clip(attr.Files), w.Fd()) // fd 3
	leader, err = syscall.ForkExec(s.starter.path, s.starter.argv(j), &a)
	w.Close()
	if err != nil {
		return 0, 0, fmt.Errorf("%w: %v", errStarter, err)
	}
	k.started(leader)
	// The report ends when the starter exits (the run's execve closed
	// its copy of the pipe, or the run exited when it failed).
	report, err := io.ReadAll(r)
	if err == nil {
		pid, err = parseStart(report)
	}
	if err != nil && pid == 0 {
		k.reapGroup(leader)
		return 0, 0, err
	}
	return pid, leader, err
}

// run starts j, waits for it, and measures it. Wall time runs from just
// before the fork to the moment waitid sees the child exit; the child is
// then a zombie, whose /proc files still say where it ran, until wait4
// reaps it and returns its rusage.
func (s *session) run(ctx context.Context, j Job) (Result, error) {
	if s.devnull == nil {
		return Result{}, fmt.Errorf("open %s", os.DevNull)
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
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
	go k.watch(ctx, done)
	s.setLive(k)
	defer s.setLive(nil)

	floor := s.floorKB()
	before := s.perf.read()
	attr := &syscall.ProcAttr{Env: s.env, Files: files, Sys: &syscall.SysProcAttr{Setpgid: true}}
	start := time.Now()
	pid, leader, err := s.start(j, attr, k)
	if err != nil {
		if pid > 0 {
			k.reap(pid, leader, nil, nil)
		}
		if k.signaled() {
			return Result{}, context.Canceled
		}
		return Result{}, fmt.Errorf("start %s: %w", result.Printable(j.Path), err)
	}
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
	if err := k.reap(pid, leader, &ws, &ru); err != nil {
		return Result{}, fmt.Errorf("reap %s: %w", result.Printable(j.Path), err)
	}
	if !j.LeaveRunning {
		r.Left = procgroup.KillLeftovers(leader) // before the stderr tail is read: they may hold its pipe
	}
	if k.signaled() {
		return Result{}, context.Canceled
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

// killer stops a run when its context is cancelled: SIGTERM to the run's
// process group, SIGKILL after killGrace. It never signals after the
// reap, when the process group's number may belong to someone else.
type killer struct {
	mu      sync.Mutex
	pid     int // the group's number: 0 before the start, -1 after the reap
	stopped bool
	aborted bool // kill at once (abort), the start not yet recorded included
	sent    bool
}

func (k *killer) watch(ctx context.Context, done <-chan struct{}) {
	select {
	case <-done:
		return
	case <-ctx.Done():
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

// started records the run's process group (the pid of its leader); a
// stop or an abort that came first is carried out now. The child runs before its parent gets here, so an abort
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
		procgroup.Signal(k.pid, sig)
		k.sent = true
	}
}

func (k *killer) signaled() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.sent
}

// reap waits for the run, then for the leader of its group when that is
// another process (the starter), under the lock signal takes: the
// group's number stays the run's until both are reaped.
func (k *killer) reap(pid, leader int, ws *unix.WaitStatus, ru *unix.Rusage) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.pid = -1
	err := wait4(pid, ws, ru)
	if leader != pid {
		wait4(leader, nil, nil)
	}
	return err
}

// reapGroup reaps every child of this process in group pgid: the
// starter, and the run when a kill ended the starter between its clone
// and its report, which the run got too (there is no pid to wait for).
func (k *killer) reapGroup(pgid int) {
	k.mu.Lock()
	k.pid = -1
	k.mu.Unlock()
	// A run the starter made before it failed to report would keep the
	// wait below blocked with nothing left to kill it: the group goes
	// first. Its number is not reused while the starter is an unreaped
	// zombie. The lock is not held across the wait.
	procgroup.Signal(pgid, unix.SIGKILL)
	for wait4(-pgid, nil, nil) == nil {
	}
}

// wait4 reaps pid, again when a signal interrupts the wait.
func wait4(pid int, ws *unix.WaitStatus, ru *unix.Rusage) error {
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
