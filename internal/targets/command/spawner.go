package command

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"sync"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// Spawner is the real Executor: it forks every run from a thread pinned to
// the CPU the harness pinned, so the child inherits the pin, and measures
// it with wait4, perf and /proc. One Spawner serves every target of a
// benchy run; close it at the end.
//
// Peak RSS is why runs are not simply forked by benchy. Go starts
// children with clone(CLONE_VM|CLONE_VFORK), so until execve the child
// runs in its parent's address space, and at execve the kernel records
// that address space's peak RSS as the child's (signal->maxrss, which
// wait4 reports as ru_maxrss). Forked by benchy holding 300 MiB, `true`
// would report 300 MiB. Where there is a starter (amd64), each run is
// started by it, a program of a few hundred bytes, and inherits its few
// pages only: max-rss-kb is the program's own (true: 1 MiB, as
// /usr/bin/time -v says). Elsewhere NewSpawner's helper process, benchy
// itself re-executed (see MaybeServe), forks the runs; just before each
// fork it resets its own peak to its current RSS (clear_refs), so a run's
// peak RSS is exact whenever it is above what the helper holds at the
// fork: its Go runtime and the pages of benchy's binary it has touched,
// about 17 MiB, recorded with every run as CounterRSSFloor.
type Spawner struct {
	sys spawnerSys // the platform's part: the helper or the local forker

	callMu sync.Mutex // one Open or Exec at a time
	mu     sync.Mutex // guards what follows
	opened bool
	cost   time.Duration
	costOK bool
	floor  int64 // KiB: a run's max-rss-kb is never below it
}

// spawnCostRuns is how many runs of an empty program SpawnCost is the
// median of: enough that one slow start does not move it.
const spawnCostRuns = 21

// Open makes every later run fork from the calling thread's CPU (the
// helper pins its forking thread to the same CPU and keeps its own other
// threads off it), and says what runs count. The first Open measures the
// cost of starting a process (SpawnCost) on that CPU.
func (s *Spawner) Open() (result.CounterReport, error) {
	s.callMu.Lock()
	defer s.callMu.Unlock()
	rep, floor, err := s.sys.open()
	if err != nil {
		return result.CounterReport{}, err
	}
	rep = noteFloor(rep, floor, s.sys.local())
	s.mu.Lock()
	first := !s.opened
	s.opened, s.floor = true, floor
	s.mu.Unlock()
	if first {
		cost, ok := s.measureCost()
		s.mu.Lock()
		s.cost, s.costOK = cost, ok
		s.mu.Unlock()
	}
	return rep, nil
}

// Exec runs j from the thread of the last Open.
func (s *Spawner) Exec(ctx context.Context, j Job) (Result, error) {
	s.callMu.Lock()
	defer s.callMu.Unlock()
	return s.sys.exec(ctx, j)
}

// SpawnCost is the median wall time of a run of `true` (no work: the
// fork, exec, dynamic loading and exit every run pays), measured by the
// first Open on the pinned CPU; 0 before it, or when there is no `true`.
// A command whose median is within a few times of it measures mostly the
// starting of a process.
func (s *Spawner) SpawnCost() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.costOK {
		return 0
	}
	return s.cost
}

// RSSFloorKB is the least max-rss-kb a run could report at the last
// Open, in KiB: the RSS of the process that forks the runs (the helper,
// or benchy itself for a local spawner). It drifts as that process runs;
// each run's own is its CounterRSSFloor.
func (s *Spawner) RSSFloorKB() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.floor
}

// Close stops the helper process, if any, and waits for it.
func (s *Spawner) Close() error { return s.sys.close() }

// Abort kills the run in progress, if any, for a benchy about to exit
// without waiting for it (a second Ctrl-C): nothing it started outlives
// benchy. It may be called from any goroutine, during an Exec.
func (s *Spawner) Abort() { s.sys.abort() }

func (s *Spawner) measureCost() (time.Duration, bool) {
	path, err := exec.LookPath("true")
	if err != nil {
		return 0, false
	}
	j := Job{Line: "true", Path: path, Args: []string{"true"}}
	walls := make([]time.Duration, 0, spawnCostRuns)
	for range spawnCostRuns {
		r, err := s.sys.exec(context.Background(), j)
		if err != nil || !r.Status.OK() {
			return 0, false
		}
		walls = append(walls, r.Wall)
	}
	slices.Sort(walls)
	return walls[len(walls)/2], true
}

// noteFloor says in the report what bounds max-rss-kb from below when
// the runs are forked directly (the session's note on CounterRSSFloor
// says why), and leaves the report of runs the starter starts alone.
func noteFloor(rep result.CounterReport, floorKB int64, local bool) result.CounterReport {
	if !slices.Contains(rep.Opened, CounterRSSFloor) {
		return rep
	}
	rep.Notes = maps.Clone(rep.Notes) // the caller's report keeps its own
	who := "the spawner process"
	if local {
		who = "benchy itself (a local spawner: benchy forks the runs)"
	}
	why := ""
	if n := rep.Notes[CounterRSSFloor]; n != "" {
		why = "; " + n
	}
	rep.SetNote(CounterMaxRSS, fmt.Sprintf("peak RSS of the run's process tree (wait4); never below %s, the RSS of %s at the fork (%d KiB at open), which the kernel counts as the run's own at exec", CounterRSSFloor, who, floorKB))
	rep.SetNote(CounterRSSFloor, "RSS of "+who+" when it forked the run: the least max-rss-kb the run can report"+why)
	return rep
}
