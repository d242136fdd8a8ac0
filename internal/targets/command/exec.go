package command

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// Counter names a run records besides the harness.Counter* ones it shares
// with in-process targets (task-clock, cpu-migrations, cycles,
// instructions, voluntary-cs, involuntary-cs, minor-faults). All come from
// the run's own process tree: wait4's rusage covers the child and every
// descendant it waited for.
const (
	// CounterUserNs and CounterSysNs are the child's CPU time in user
	// space and in the kernel (wait4 ru_utime and ru_stime), in ns. The
	// kernel splits its precise runtime between the two by tick samples,
	// so the split is approximate and the sum is not.
	CounterUserNs = "user-ns"
	CounterSysNs  = "sys-ns"
	// CounterMaxRSS is the peak resident set of the child in KiB (wait4
	// ru_maxrss). It is never below the RSS of the process that forked
	// the child (see Spawner): the starter's few pages where there is
	// one, else a Go process's MiB, which CounterRSSFloor records.
	CounterMaxRSS = "max-rss-kb"
	// CounterRSSFloor is that floor for a run forked without the starter,
	// in KiB: the RSS of the process that forked it, read just before the
	// fork (so within a few pages of what the kernel counts). A max-rss-kb
	// at or near it says only that the run's peak was no higher.
	CounterRSSFloor = "rss-floor-kb"
	// CounterMajorFaults counts page faults that read from disk (wait4
	// ru_majflt); the minor ones are result.CounterMinorFaults.
	CounterMajorFaults = "major-faults"
)

// Executor starts runs of programs and waits for them. Target uses one,
// so the order of its runs is tested with FakeExecutor and measured with
// a Spawner.
type Executor interface {
	// Open is called by every target's Open, on the harness's thread
	// (pinned to the measured CPU), before any run; it says what every
	// run will count.
	Open() (result.CounterReport, error)
	// Exec runs j to its end on the thread Open was called on. A run
	// that exits non-zero or dies of a signal is not an error: its
	// Result.Status says so. The error is for a run that could not be
	// started or measured, and wraps context.Canceled when ctx was
	// cancelled and the run was ended (or not started) for it.
	Exec(ctx context.Context, j Job) (Result, error)
}

// Job is one run of a program.
type Job struct {
	// Line is the command line as the user wrote it, for messages.
	Line string `json:"line"`
	// Path is the program to execute (resolved: see Resolve) and Args its
	// argument vector, Args[0] included.
	Path string   `json:"path"`
	Args []string `json:"args"`
	// Input is the file read as standard input; "" means /dev/null.
	Input string `json:"input,omitempty"`
	// ShowOutput gives the run benchy's own stdout and stderr; otherwise
	// stdout is discarded and stderr too, but for its last lines.
	ShowOutput bool `json:"show_output,omitempty"`
	// LeaveRunning leaves what the run started in the background running
	// after it exits: a --setup may start a server the runs use, which
	// the --cleanup stops. Otherwise what is left in the run's process
	// group is killed as the run ends (Result.Left).
	LeaveRunning bool `json:"leave_running,omitempty"`
}

// Result is what one run measured.
type Result struct {
	// Wall is the time from just before the fork to the child's exit.
	Wall time.Duration `json:"wall"`
	// CPU is the CPU the child last ran on; -1 when unknown. AllowedCPUs
	// is the child's affinity in the kernel's list format ("2", "0-3").
	CPU         int    `json:"cpu"`
	AllowedCPUs string `json:"allowed_cpus,omitempty"`
	// Counters holds the run's counts by name (see the Counter*
	// constants and the harness's).
	Counters map[string]int64 `json:"counters,omitempty"`
	Status   Status           `json:"status"`
	// Stderr holds the last lines of the run's stderr when it was not
	// shown (see Job.ShowOutput).
	Stderr []string `json:"stderr,omitempty"`
	// Left is how many processes the run left running in its process
	// group when it exited, which were killed then (see Job.LeaveRunning).
	Left int `json:"left,omitempty"`
}

// Status is how a run ended: an exit code, or the signal that killed it.
type Status struct {
	Code   int    `json:"code,omitempty"`
	Signal string `json:"signal,omitempty"` // "SIGKILL"; "" when it exited
}

// OK reports whether the run exited with status 0.
func (s Status) OK() bool { return s.Code == 0 && s.Signal == "" }

// String is "exit 3" or "signal SIGKILL" (the form result.Sample.Status
// records), and "exit 0" for success.
func (s Status) String() string {
	if s.Signal != "" {
		return "signal " + s.Signal
	}
	return fmt.Sprintf("exit %d", s.Code)
}

// RunError is a run that failed: it exited non-zero or died of a signal.
// Without Config.IgnoreFailure a failed run of the command fails the
// target; a failed setup, prepare or cleanup always does.
type RunError struct {
	Target string // the target's name
	Hook   string // "setup", "prepare" or "cleanup"; "" for the command itself
	Line   string // the hook's command line (hooks only), as Shown
	Run    int    // 1-based number of the command's run (warm-ups included); 0 for setup and cleanup
	Status Status
	Stderr []string // last lines of its stderr, when not shown
}

func (e *RunError) Error() string {
	var b strings.Builder
	switch e.Hook {
	case "":
		fmt.Fprintf(&b, "run %d of %s", e.Run, e.Target)
	case "prepare":
		fmt.Fprintf(&b, "prepare (%s) before run %d of %s", e.Line, e.Run, e.Target)
	default:
		fmt.Fprintf(&b, "%s (%s) of %s", e.Hook, e.Line, e.Target)
	}
	if e.Status.Signal != "" {
		fmt.Fprintf(&b, " was killed by %s", e.Status.Signal)
	} else {
		fmt.Fprintf(&b, " exited with status %d", e.Status.Code)
	}
	if n := len(e.Stderr); n > 0 {
		b.WriteString(": " + e.Stderr[n-1])
	}
	return b.String()
}

// lastLines returns the last n non-empty lines of b, each cut to 300
// bytes, made valid UTF-8 and printable (a program's colours and other
// escape sequences are written out, not sent to benchy's terminal), for
// an error message.
func lastLines(b []byte, n int) []string {
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if len(l) > 300 {
			l = l[:300] + "..."
		}
		lines = append(lines, result.Printable(strings.ToValidUTF8(l, "?")))
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}
