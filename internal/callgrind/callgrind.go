// Package callgrind counts the instructions a program executes by running
// it under valgrind's callgrind, and reads callgrind's output. A count
// does not depend on what else the machine does, so it compares runs made
// on different days or machines where time cannot; it is a second basis
// beside time, never a replacement (a cache miss or a slow clock costs
// time and no instruction).
package callgrind

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/benchy-dev/benchy/internal/procgroup"
	"github.com/benchy-dev/benchy/internal/units"
)

// ErrMissing is returned when valgrind is not on PATH.
var ErrMissing = errors.New("--measure instructions counts under valgrind's callgrind, and valgrind is not installed (apt-get install valgrind)")

// A TimeoutError is a run still going at Options.Timeout, killed then.
type TimeoutError struct {
	Program string
	After   time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s under valgrind was still running after %v, and was killed", e.Program, e.After)
}

// Error is a program that valgrind could not run to the end, in one line.
type Error struct {
	Program string
	Msg     string
}

func (e *Error) Error() string { return e.Program + " under valgrind: " + e.Msg }

// Path is valgrind's path on PATH, or ErrMissing.
func Path() (string, error) {
	p, err := exec.LookPath("valgrind")
	if err != nil {
		return "", ErrMissing
	}
	return p, nil
}

// Command is a program to count, as a target describes it.
type Command struct {
	Argv   []string
	Dir    string
	Env    []string // nil for benchy's own
	Symbol string   // the function counted, for the record; "" for the whole program
	// MarkStart and MarkEnd are the marks (see Options); Dumps is how
	// many times the program reaches MarkEnd (0: not checked).
	MarkStart, MarkEnd string
	Dumps              int
	// PerRun says the program is one op whatever the n asked (a whole
	// program, run by exec): each run is a sample of one op.
	PerRun bool
	// Children counts the programs it starts too (sh -c, a pipeline).
	Children bool
	// Stdin is the file the program reads; "" for /dev/null.
	Stdin string
}

// Options say how a program is run under callgrind.
type Options struct {
	// MarkStart and MarkEnd are the symbols of two functions the program calls
	// around the work to count, on one thread (patterns with * allowed):
	// callgrind zeroes the costs when Start is entered and writes the
	// costs of the thread that enters MarkEnd. The last such dump is the
	// count. Empty counts the whole program.
	//
	// Marks rather than --toggle-collect on the measured function:
	// toggle-collect follows calls and returns, and Go's switches to the
	// system stack (a malloc refilling its cache) look like returns to
	// it, so code that allocates lost counts, different from run to run.
	// Counting one thread leaves out the runtime's other threads
	// (sysmon, whose work grows with the wall time).
	MarkStart, MarkEnd string
	// CacheSim adds callgrind's cache simulation (L1 and last-level
	// misses), which the estimated cycles need; it makes runs slower.
	CacheSim bool
	// Children counts every program it starts too, each in a file of its
	// own, summed: a whole command line (sh -c, a pipeline) is counted.
	Children bool
	Dir      string   // the program's working directory; "" for benchy's
	Env      []string // the program's environment; nil for benchy's
	Stdin    string   // the file the program reads; "" for /dev/null
	// Timeout, when not 0, kills a run still going after it (a program
	// that never returns under valgrind must not hang a CI job).
	Timeout time.Duration
	// Start starts the command (on a thread kept off the measured CPU,
	// say); nil is exec.Cmd.Start.
	Start func(*exec.Cmd) error
}

// Run is one run of a program under callgrind.
type Run struct {
	*Profile
	Wall time.Duration // the whole run, valgrind's start included
	// CPU is the CPU time (user and system) valgrind and the program
	// used: unlike the wall time, it does not grow when other tasks share
	// the CPU, so calibration goes by it.
	CPU time.Duration
}

// Env is the environment a Go program needs under valgrind 3.19, added to
// env: asynchronous preemption off (its signals trip an assertion in
// callgrind's signal handling), and on amd64 RDTSCP off (Go's
// runtime.cputicks uses it where the CPU has it, and valgrind 3.19 does not
// decode it: the program dies of SIGILL). Both change what the runtime
// does, not what the measured code does. An existing GODEBUG is kept, its
// own settings last so they win.
func Env(env []string) []string {
	debug := "asyncpreemptoff=1"
	if runtime.GOARCH == "amd64" {
		debug += ",cpu.rdtscp=off"
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
			if v != "" {
				debug += "," + v
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GODEBUG="+debug)
}

// Args are valgrind's arguments for o, writing the output file out and
// its own messages to log, then the program's.
//
// Valgrind runs one thread at a time, and by default hands the CPU back
// to the thread that just ran: a Go program at GOMAXPROCS 2 or more
// whose goroutine waits with runtime.Gosched for another thread (as
// runtime.GC does for the sweepers, before every benchmark's run) spun
// for 45 s to 3 minutes and 6-31 billion instructions where the same run
// took half a second. --fair-sched gives the threads turns; "try" keeps
// the default where valgrind cannot.
func (o Options) Args(out, log string, argv []string) []string {
	args := []string{"--tool=callgrind", "--fair-sched=try", "--callgrind-out-file=" + out, "--log-file=" + log}
	if o.Children {
		args = append(args, "--trace-children=yes")
	} else {
		// A program that starts others counts itself only.
		args = append(args, "--trace-children=no")
	}
	if o.MarkEnd != "" {
		args = append(args, "--separate-threads=yes", "--zero-before="+o.MarkStart, "--dump-before="+o.MarkEnd)
	}
	if o.CacheSim {
		args = append(args, "--cache-sim=yes")
	}
	return append(append(args, "--"), argv...)
}

// Count runs argv under callgrind and returns its totals. The output file
// and valgrind's log are written to a temporary directory, removed after.
// A program that exits non-zero, or that valgrind cannot run, is an
// *Error in one line; valgrind missing is ErrMissing; a run still going
// at o.Timeout is a *TimeoutError. Valgrind leads a process group of its
// own: a stop or the timeout kills the group, and what the program left
// running in it when it exited is killed and is an *Error (its work is
// not in the count), so nothing a counted run starts outlives it. A
// cancelled ctx kills the group too, and the error is ctx's
// (context.Canceled).
func Count(ctx context.Context, argv []string, o Options) (*Run, error) {
	vg, err := Path()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "benchy-callgrind-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out, log := filepath.Join(dir, "callgrind.out.%p"), filepath.Join(dir, "valgrind.log.%p")
	if o.MarkEnd != "" {
		out = filepath.Join(dir, "callgrind.out") // one process, its dumps callgrind.out.K-TT
	}
	cmd := exec.Command(vg, o.Args(out, log, argv)...)
	cmd.Dir = o.Dir
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = Env(env)
	// The program's output goes to a file, not a pipe: Wait would wait for
	// a pipe until every process holding it ended, leftovers included.
	output, err := os.Create(filepath.Join(dir, "output"))
	if err != nil {
		return nil, err
	}
	defer output.Close()
	cmd.Stdout, cmd.Stderr = output, output
	if o.Stdin != "" {
		in, err := os.Open(o.Stdin)
		if err != nil {
			return nil, err
		}
		defer in.Close()
		cmd.Stdin = in
	}
	end, err := o.run(ctx, cmd)
	if err != nil {
		return nil, err
	}
	return o.read(ctx, end, dir, filepath.Base(argv[0]), output)
}

// An ending is how a run under valgrind ended.
type ending struct {
	err    error  // Wait's
	killed string // why benchy killed the group ("stop", "timeout"), "" when it did not
	left   int    // the processes the program left running, killed after it was reaped
	wall   time.Duration
	state  *os.ProcessState
}

// run starts cmd as the leader of a process group of its own and waits
// for it, killing the group when ctx is cancelled or at o.Timeout.
func (o Options) run(ctx context.Context, cmd *exec.Cmd) (ending, error) {
	ownGroup(cmd)
	start := o.Start
	if start == nil {
		start = (*exec.Cmd).Start
	}
	began := time.Now()
	if err := start(cmd); err != nil {
		return ending{}, fmt.Errorf("starting valgrind: %w", err)
	}
	var timeout <-chan time.Time
	if o.Timeout > 0 {
		t := time.NewTimer(o.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	done := make(chan struct{})
	killed := make(chan string, 1) // why the group was killed, "" when it was not
	go func() {
		select {
		case <-ctx.Done():
			procgroup.Signal(cmd.Process.Pid, syscall.SIGKILL)
			killed <- "stop"
		case <-timeout:
			procgroup.Signal(cmd.Process.Pid, syscall.SIGKILL)
			killed <- "timeout"
		case <-done:
			killed <- ""
		}
	}()
	err := cmd.Wait()
	close(done)
	wall := time.Since(began)
	left := procgroup.KillLeftovers(cmd.Process.Pid)
	return ending{err: err, killed: <-killed, left: left, wall: wall, state: cmd.ProcessState}, nil
}

// read judges how the run of prog ended and reads the counts it left in
// dir: a stop, the timeout, a failure (with what valgrind's log and the
// program's output say of it) and leftovers are errors.
func (o Options) read(ctx context.Context, end ending, dir, prog string, output *os.File) (*Run, error) {
	switch end.killed {
	case "stop":
		return nil, ctx.Err()
	case "timeout":
		return nil, &TimeoutError{Program: prog, After: o.Timeout}
	}
	logText := readAll(dir, "valgrind.log.")
	if end.err != nil {
		return nil, &Error{Program: prog, Msg: why(end.err, logText, tail(output, maxOutputTail))}
	}
	if end.left > 0 {
		return nil, &Error{Program: prog, Msg: fmt.Sprintf("it left %s running when it exited, which benchy killed: their work is not in the count (wait for what the program starts)",
			units.Count(end.left, "process"))}
	}
	parse := parseDir
	if o.MarkEnd != "" {
		parse = parseLastDump
	}
	p, err := parse(dir)
	if err != nil {
		return nil, &Error{Program: prog, Msg: err.Error() + ": " + firstMessage(logText)}
	}
	cpu := end.state.UserTime() + end.state.SystemTime()
	return &Run{Profile: p, Wall: end.wall, CPU: cpu}, nil
}

// maxOutputTail bounds what is read of a failed program's output for its
// last line: a program may print without end.
const maxOutputTail = 64 << 10

// tail is the last n bytes of f at most.
func tail(f *os.File, n int64) string {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return ""
	}
	b := make([]byte, min(size, n))
	m, _ := f.ReadAt(b, size-int64(len(b)))
	return string(b[:m])
}

// readAll is the files of dir whose names start with prefix, one after
// another, in name order.
func readAll(dir, prefix string) string {
	names, _ := filepath.Glob(filepath.Join(dir, prefix+"*"))
	var b strings.Builder
	for _, n := range names {
		data, _ := os.ReadFile(n)
		b.Write(data)
	}
	return b.String()
}

// dumpFile is the name of a dump that reaching End wrote: the dump's
// number, then the thread's.
var dumpFile = regexp.MustCompile(`^callgrind\.out\.(\d+)-(\d+)$`)

// parseLastDump reads the last dump the End mark wrote (the highest
// number; one file per thread, summed, though one thread ends the count)
// and says how many dumps there were.
func parseLastDump(dir string) (*Profile, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	last, dumps := 0, map[int]bool{}
	for _, e := range entries {
		if m := dumpFile.FindStringSubmatch(e.Name()); m != nil {
			k, _ := strconv.Atoi(m[1])
			dumps[k] = true
			last = max(last, k)
		}
	}
	if last == 0 {
		return nil, errors.New("the program never reached the end of the count (its end mark was not called)")
	}
	var sum *Profile
	for _, e := range entries {
		m := dumpFile.FindStringSubmatch(e.Name())
		if m == nil || m[1] != strconv.Itoa(last) {
			continue
		}
		p, err := parseFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		sum = add(sum, p)
	}
	sum.Dumps = len(dumps)
	return sum, nil
}

func parseFile(path string) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f)
}

// add adds p's totals to sum's (sum nil: p).
func add(sum, p *Profile) *Profile {
	if sum == nil {
		return p
	}
	for _, ev := range p.Events {
		if !slices.Contains(sum.Events, ev) {
			sum.Events = append(sum.Events, ev)
		}
		sum.Totals[ev] += p.Totals[ev]
	}
	return sum
}

// parseDir reads every callgrind output file in dir (one per process
// counted) and sums their totals; the first file's creator, command and
// caches are the profile's.
func parseDir(dir string) (*Profile, error) {
	names, _ := filepath.Glob(filepath.Join(dir, "callgrind.out.*"))
	if len(names) == 0 {
		return nil, errors.New("callgrind wrote no output file")
	}
	var sum *Profile
	for _, n := range names {
		p, err := parseFile(n)
		if err != nil {
			return nil, err
		}
		sum = add(sum, p)
	}
	return sum, nil
}

// valgrindPrefix is the "==1234== " before each line of valgrind's log.
var valgrindPrefix = regexp.MustCompile(`^==\d+==\s?`)

// why is one line saying why a run under valgrind failed: what valgrind
// said when it was valgrind (an instruction it does not know, its own
// assertion), else how the program ended and its last line of output.
func why(err error, log, output string) string {
	lines := logLines(log)
	for i, l := range lines {
		switch {
		case strings.Contains(l, "Unrecognised instruction"):
			where := ""
			if i+1 < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i+1]), "at ") {
				where = " (" + strings.TrimSpace(lines[i+1]) + ")"
			}
			return "valgrind does not know an instruction the program runs" + where + ": " + l
		case strings.Contains(l, "Assertion") && strings.Contains(l, "failed"),
			strings.Contains(l, "the 'impossible' happened"):
			return "valgrind failed (its own assertion; a Go program needs GODEBUG=asyncpreemptoff=1, which benchy sets): " + l
		}
	}
	last := lastLine(output)
	if last == "" {
		return fmt.Sprintf("the program ended with %v", err)
	}
	return fmt.Sprintf("the program ended with %v: %s", err, last)
}

// logLines are the lines of valgrind's log without their pid prefix.
func logLines(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		l = strings.TrimSpace(valgrindPrefix.ReplaceAllString(l, ""))
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// firstMessage is the first line of valgrind's log past its banner.
func firstMessage(log string) string {
	for _, l := range logLines(log) {
		if strings.HasPrefix(l, "Callgrind,") || strings.HasPrefix(l, "Copyright") || strings.HasPrefix(l, "Using Valgrind") ||
			strings.HasPrefix(l, "Command:") || strings.HasPrefix(l, "For interactive control") {
			continue
		}
		return l
	}
	return "valgrind said nothing"
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			if len(l) > 200 {
				l = l[:200] + "…"
			}
			return l
		}
	}
	return ""
}
