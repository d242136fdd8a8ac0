package command

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"syscall"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
)

// spawnerEnv marks a process started as the helper; its value is the
// protocol, so a helper from another build of benchy is not mistaken for
// one (the binary is the same file, but be safe).
const (
	spawnerEnv = "BENCHY_COMMAND_SPAWNER"
	protocol   = "1"
)

// The requests: open a session on the caller's CPUs, run a job in it, or
// stop the run of a given request.
const (
	opOpen = "open"
	opRun  = "run"
	opStop = "stop"
)

type request struct {
	ID   uint64 `json:"id"`
	Op   string `json:"op"`
	CPUs []int  `json:"cpus,omitempty"` // the caller's affinity: the helper forks from the same
	Job  *Job   `json:"job,omitempty"`
}

type reply struct {
	ID      uint64                `json:"id"`
	Err     string                `json:"err,omitempty"`
	Stopped bool                  `json:"stopped,omitempty"` // the run was ended by a stop
	Result  *Result               `json:"result,omitempty"`
	Report  *result.CounterReport `json:"report,omitempty"`
	FloorKB int64                 `json:"floor_kb,omitempty"`
}

// MaybeServe turns this process into the spawner helper when NewSpawner
// started it, and never returns then; otherwise it returns at once. Call
// it first thing in main, before anything allocates: what the helper
// holds is the floor of every run's max-rss-kb (see Spawner).
func MaybeServe() {
	if os.Getenv(spawnerEnv) != protocol {
		return
	}
	os.Unsetenv(spawnerEnv) // the runs must not see it
	os.Exit(serve())
}

// server is the helper: a reader of requests, and the loop that runs
// them on a thread pinned like the caller's.
type server struct {
	enc            *json.Encoder
	stdout, stderr int // where runs that show their output write

	allocMark uint64 // heap bytes allocated at the last collection

	mu   sync.Mutex
	runs map[uint64]context.CancelFunc // the stop of each run not yet done
}

// pending is a request on its way to the loop, with the context its stop
// request cancels.
type pending struct {
	req request
	ctx context.Context
}

func serve() int {
	for fd := 3; fd <= 6; fd++ {
		syscall.CloseOnExec(fd) // the runs get 0, 1 and 2 only
	}
	s := &server{enc: json.NewEncoder(os.NewFile(4, "replies")), stdout: 5, stderr: 6,
		runs: map[uint64]context.CancelFunc{}}
	if err := s.enc.Encode(reply{}); err != nil {
		return 1
	}
	jobs := make(chan pending)
	go s.read(json.NewDecoder(os.NewFile(3, "requests")), jobs)
	s.loop(jobs)
	return 0
}

// read hands requests to the loop and stops runs, until benchy closes
// the pipe or dies; then it stops the run in progress, so no child
// outlives benchy by more than the grace period.
func (s *server) read(dec *json.Decoder, jobs chan<- pending) {
	for {
		var r request
		if err := dec.Decode(&r); err != nil {
			break
		}
		if r.Op == opStop {
			s.stop(r.ID)
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		p := pending{req: r, ctx: ctx}
		s.mu.Lock()
		s.runs[r.ID] = cancel
		s.mu.Unlock()
		jobs <- p
	}
	s.mu.Lock()
	for id, cancel := range s.runs {
		cancel()
		delete(s.runs, id)
	}
	s.mu.Unlock()
	close(jobs)
}

// stop cancels the context of request id; a stop for a run already done
// is ignored.
func (s *server) stop(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cancel, ok := s.runs[id]; ok {
		cancel()
		delete(s.runs, id)
	}
}

// done forgets request id, releasing its context: its run ended, so a
// late stop does nothing.
func (s *server) done(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cancel, ok := s.runs[id]; ok {
		cancel()
		delete(s.runs, id)
	}
}

// loop serves requests in sessions: each on a thread pinned to the
// requests' CPUs with the helper's other threads kept off them
// (harness.Pinned), ending when a request asks for other CPUs.
func (s *server) loop(jobs <-chan pending) {
	next, ok := <-jobs
	for ok {
		cpus := next.req.CPUs
		handled := false
		err := onCPUs(cpus, func() error {
			sess := newSession(s.stdout, s.stderr)
			defer sess.close()
			for {
				s.handle(sess, next)
				handled = true
				if next, ok = <-jobs; !ok || !slices.Equal(next.req.CPUs, cpus) {
					return nil
				}
				handled = false
			}
		})
		if err != nil && !handled {
			s.done(next.req.ID)
			s.enc.Encode(reply{ID: next.req.ID, Err: "spawner: " + err.Error()})
			next, ok = <-jobs
		}
	}
}

// onCPUs runs f pinned to the one CPU of cpus, or just locked to its
// thread when the caller was not pinned.
func onCPUs(cpus []int, f func() error) error {
	if len(cpus) == 1 {
		return harness.Pinned(cpus[0], true, f)
	}
	return harness.Locked(f)
}

// collectEvery is how much the helper may allocate before it collects,
// between runs: far below the 4 MiB at which Go would collect on its own,
// possibly during a run, and small enough that the heap adds little to
// the RSS a run inherits.
const collectEvery = 1 << 20

// collect runs a collection, after a reply and before the next request,
// when the helper allocated collectEvery since the last.
func (s *server) collect() {
	m := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(m)
	if m[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if now := m[0].Value.Uint64(); now-s.allocMark >= collectEvery {
		debug.FreeOSMemory()
		s.allocMark = now
	}
}

func (s *server) handle(sess *session, p pending) {
	switch p.req.Op {
	case opOpen:
		rep := sess.report
		s.done(p.req.ID)
		s.enc.Encode(reply{ID: p.req.ID, Report: &rep, FloorKB: sess.floorKB()})
	case opRun:
		if p.req.Job == nil {
			s.done(p.req.ID)
			s.enc.Encode(reply{ID: p.req.ID, Err: "spawner: run without a job"})
			return
		}
		res, err := sess.run(p.ctx, *p.req.Job)
		s.done(p.req.ID)
		r := reply{ID: p.req.ID, Result: &res}
		if err != nil {
			r = reply{ID: p.req.ID, Err: err.Error(), Stopped: errors.Is(err, context.Canceled)}
		}
		s.enc.Encode(r)
		s.collect()
	default:
		s.done(p.req.ID)
		s.enc.Encode(reply{ID: p.req.ID, Err: fmt.Sprintf("spawner: unknown request %q", p.req.Op)})
	}
}
