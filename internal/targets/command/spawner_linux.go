package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/result"
)

// NewSpawner starts the helper process that forks the runs: benchy
// re-executed through /proc/self/exe with spawnerEnv set, which
// MaybeServe, called first thing in main, turns into the helper. Call it
// before the harness pins anything (the helper inherits the caller's
// affinity), and Close the spawner at the end; if benchy dies, the helper
// sees its requests pipe close, ends the run in progress and exits.
//
// The error says why the helper did not start; NewLocalSpawner still
// works then, with benchy's own RSS at each fork as the floor of
// max-rss-kb.
func NewSpawner() (*Spawner, error) {
	c, err := startHelper()
	if err != nil {
		return nil, err
	}
	return &Spawner{sys: spawnerSys{helper: c}}, nil
}

// NewLocalSpawner returns a spawner that forks the runs from benchy's
// own pinned thread: no helper process, but a run's max-rss-kb is never
// below benchy's own peak RSS (see Spawner).
func NewLocalSpawner() *Spawner { return &Spawner{} }

// spawnerSys is Linux's part of a Spawner: the helper's client, or, for a
// local spawner, the session of the thread that forks.
type spawnerSys struct {
	helper *client
	sess   *session
	cur    atomic.Pointer[session] // sess, for abort, which another goroutine calls
}

func (s *spawnerSys) local() bool { return s.helper == nil }

func (s *spawnerSys) open() (result.CounterReport, int64, error) {
	if s.helper == nil {
		sess := s.localSession()
		return sess.report, sess.floorKB(), nil
	}
	rep, err := s.helper.call(context.Background(), request{Op: opOpen, CPUs: threadCPUs()})
	if err != nil {
		return result.CounterReport{}, 0, err
	}
	if rep.Report == nil {
		return result.CounterReport{}, 0, errors.New("spawner: open: no counters report")
	}
	return *rep.Report, rep.FloorKB, nil
}

func (s *spawnerSys) exec(ctx context.Context, j Job) (Result, error) {
	if s.helper == nil {
		return s.localSession().run(ctx, j)
	}
	rep, err := s.helper.call(ctx, request{Op: opRun, CPUs: threadCPUs(), Job: &j})
	switch {
	case err != nil:
		return Result{}, err
	case rep.Stopped:
		return Result{}, context.Canceled // the helper stopped it when ctx was
	case rep.Result == nil:
		return Result{}, errors.New("spawner: run: no result")
	}
	return *rep.Result, nil
}

// localSession is the session of the calling thread: perf counts the
// children of the thread it was opened on.
func (s *spawnerSys) localSession() *session {
	if s.sess != nil && s.sess.tid == unix.Gettid() {
		return s.sess
	}
	if s.sess != nil {
		s.sess.close()
	}
	s.sess = newSession(1, 2)
	s.cur.Store(s.sess)
	return s.sess
}

// abort kills the run in progress of a local spawner. The helper needs
// nothing: when benchy exits, its requests pipe closes, and it ends the
// run in progress itself.
func (s *spawnerSys) abort() {
	if sess := s.cur.Load(); sess != nil {
		sess.abort()
	}
}

func (s *spawnerSys) close() error {
	if s.sess != nil {
		s.sess.close()
		s.sess = nil
	}
	if s.helper != nil {
		return s.helper.close()
	}
	return nil
}

// threadCPUs is the calling thread's affinity: the helper forks from a
// thread with the same.
func threadCPUs() []int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil
	}
	var cpus []int
	for cpu := 0; len(cpus) < set.Count(); cpu++ {
		if set.IsSet(cpu) {
			cpus = append(cpus, cpu)
		}
	}
	return cpus
}

// helloTimeout bounds the wait for a helper that never answers (a main
// that does not call MaybeServe and does not exit either).
const helloTimeout = 30 * time.Second

// client talks to the helper: JSON requests on one pipe, replies on the
// other, one call at a time, but for the stop request sent during a run.
type client struct {
	cmd    *exec.Cmd
	req    *os.File
	enc    *json.Encoder
	dec    *json.Decoder
	stderr *tailWriter
	wmu    sync.Mutex
	nextID uint64
}

func startHelper() (*client, error) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start the spawner: %w", err)
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fmt.Errorf("start the spawner: %w", err)
	}
	c := &client{req: reqW, enc: json.NewEncoder(reqW), dec: json.NewDecoder(repR), stderr: &tailWriter{}}
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"benchy-spawner"}
	cmd.Env = append(os.Environ(), spawnerEnv+"="+protocol)
	// fds 3 and 4 are the pipes, 5 and 6 the output runs show.
	cmd.ExtraFiles = []*os.File{reqR, repW, os.Stdout, os.Stderr}
	cmd.Stderr = c.stderr
	// Its own process group: a terminal's Ctrl-C reaches benchy, which
	// stops the run, and not the helper, which would die mid-run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	reqR.Close()
	repW.Close()
	if err != nil {
		reqW.Close()
		repR.Close()
		return nil, fmt.Errorf("start the spawner: %w", err)
	}
	c.cmd = cmd
	hello := make(chan error, 1)
	go func() {
		var r reply
		if err := c.dec.Decode(&r); err != nil {
			hello <- err
			return
		}
		if r.Err != "" {
			hello <- errors.New(r.Err)
			return
		}
		hello <- nil
	}()
	select {
	case err = <-hello:
	case <-time.After(helloTimeout):
		err = fmt.Errorf("no answer in %v", helloTimeout)
	}
	if err != nil {
		cmd.Process.Kill()
		c.close()
		return nil, fmt.Errorf("the spawner did not start (is command.MaybeServe called first in main?): %v%s", err, c.stderr.last())
	}
	return c, nil
}

func (c *client) send(r request) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.enc.Encode(r)
}

// call sends r and waits for its reply. While a run is waited for, the
// cancellation of ctx sends the stop request for it.
func (c *client) call(ctx context.Context, r request) (reply, error) {
	c.nextID++
	r.ID = c.nextID
	if err := c.send(r); err != nil {
		return reply{}, c.gone(err)
	}
	if stop := ctx.Done(); stop != nil {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-stop:
				c.send(request{ID: r.ID, Op: opStop})
			case <-done:
			}
		}()
	}
	for {
		var rep reply
		if err := c.dec.Decode(&rep); err != nil {
			return reply{}, c.gone(err)
		}
		if rep.ID != r.ID {
			continue // the late reply of a call that failed
		}
		if rep.Err != "" && !rep.Stopped {
			return rep, errors.New(rep.Err)
		}
		return rep, nil
	}
}

// gone is the error of a helper that stopped answering.
func (c *client) gone(err error) error {
	return fmt.Errorf("the spawner process is gone: %v%s", err, c.stderr.last())
}

func (c *client) close() error {
	c.req.Close() // the helper sees EOF, ends any run and exits
	if c.cmd == nil {
		return nil
	}
	err := c.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return fmt.Errorf("the spawner process exited with %v%s", ee, c.stderr.last())
	}
	return err
}

// tailWriter keeps the last size bytes written to it (2048 when size is
// 0): the helper's stderr, for the error when it dies, and a run's.
type tailWriter struct {
	mu   sync.Mutex
	size int
	buf  []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	size := w.size
	if size == 0 {
		size = 2048
	}
	w.buf = append(w.buf, p...)
	if n := len(w.buf) - size; n > 0 {
		w.buf = append(w.buf[:0], w.buf[n:]...)
	}
	return len(p), nil
}

// bytes is a copy of what it kept.
func (w *tailWriter) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]byte(nil), w.buf...)
}

// last is "; its stderr: ..." with the last line written, or "".
func (w *tailWriter) last() string {
	lines := lastLines(w.bytes(), 1)
	if len(lines) == 0 {
		return ""
	}
	return "; its stderr: " + strings.Join(lines, " ")
}
