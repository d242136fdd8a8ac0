package cli

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// terminal is a pseudo-terminal a test gives benchy as its stderr, so that
// benchy draws its progress line there. A test that stops a run waits for
// the line to say the run got where the test needs it (the busy window,
// some samples), not for a fixed time a loaded machine may not have
// reached it in. The terminal is read until benchy closes it: a full one
// would block benchy's writes.
type terminal struct {
	Slave *os.File // the child's side: its stderr
	mu    sync.Mutex
	out   []byte
	done  chan struct{} // closed when every holder of Slave closed it
}

// newTerminal opens a pseudo-terminal; the test is skipped where there is
// none. Start the child with Slave as its stderr, then call started.
func newTerminal(t *testing.T) *terminal {
	t.Helper()
	master, slave, err := openPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	tm := &terminal{Slave: slave, done: make(chan struct{})}
	go func() {
		defer close(tm.done)
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			tm.mu.Lock()
			tm.out = append(tm.out, b[:n]...)
			tm.mu.Unlock()
			if err != nil {
				return // EIO once the child's side is closed
			}
		}
	}()
	t.Cleanup(func() {
		slave.Close()
		master.Close()
	})
	return tm
}

// started closes the test's copy of the child's side once the child has
// its own, so the reading ends when the child exits.
func (tm *terminal) started() { tm.Slave.Close() }

// startOnTerminal starts cmd with its stderr on a new terminal, as a user
// runs benchy, and returns the terminal; cmd.Stdout is the caller's.
func startOnTerminal(t *testing.T, cmd *exec.Cmd) *terminal {
	t.Helper()
	term := newTerminal(t)
	cmd.Stderr = term.Slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	term.started()
	return term
}

// String is everything written to the terminal so far.
func (tm *terminal) String() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return string(tm.out)
}

// waitFor waits until ok holds of what the terminal shows, for at most two
// minutes (a guard against a hang, not a speed goal); it fails the test
// when the child closes the terminal first.
func (tm *terminal) waitFor(t *testing.T, what string, ok func(string) bool) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); {
		if ok(tm.String()) {
			return
		}
		select {
		case <-tm.done:
			if ok(tm.String()) {
				return
			}
			t.Fatalf("benchy ended before %s:\n%s", what, tm.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
	t.Fatalf("benchy did not reach %s in 2 minutes:\n%s", what, tm.String())
}

var sampleLine = regexp.MustCompile(`sample (\d+) of`)

// sampled holds once the progress line shows that n samples were taken:
// it reads "sample n+1 of" before taking the next.
func sampled(n int) func(string) bool {
	return func(out string) bool {
		m := sampleLine.FindAllStringSubmatch(out, -1)
		if len(m) == 0 {
			return false
		}
		k, _ := strconv.Atoi(m[len(m)-1][1])
		return k > n
	}
}

// showing holds once the terminal shows s.
func showing(s string) func(string) bool {
	return func(out string) bool { return strings.Contains(out, s) }
}
