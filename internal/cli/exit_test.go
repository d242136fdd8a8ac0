package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
)

// Each kind of error has its exit code, found through any wrapping; an
// error of no kind is a failure, whatever its message says.
func TestExitCode(t *testing.T) {
	for _, tt := range []struct {
		name string
		err  error
		code int
	}{
		{"nil", nil, ExitOK},
		{"no kind", errors.New("read old.json: no such file"), ExitFailed},
		{"no kind, a usage-like message", errors.New("invalid argument \"x\""), ExitFailed},
		{"usage", Usagef("--cpu 99: no such CPU"), ExitUsage},
		{"usage, wrapped", fmt.Errorf("run: %w", Usagef("--cpu 99: no such CPU")), ExitUsage},
		{"failed", &FailedError{Msg: "1 experiment failed"}, ExitFailed},
		{"slower", &SlowerError{Msg: "2 experiments slower"}, ExitFailed},
		{"strict", &StrictError{Msg: "--strict=error: 1 experiment not believable"}, ExitStrict},
		{"cannot judge", &CannotJudgeError{Msg: "cannot judge"}, ExitCannotJudge},
		{"cannot judge, wrapped", fmt.Errorf("history check: %w", &CannotJudgeError{Msg: "cannot judge"}), ExitCannotJudge},
		{"cannot judge, joined", errors.Join(errors.New("a note"), &CannotJudgeError{Msg: "cannot judge"}), ExitCannotJudge},
		{"interrupted by INT", &InterruptedError{Signal: os.Interrupt}, 130},
		{"terminated", &InterruptedError{Signal: syscall.SIGTERM}, 143},
		{"hung up", fmt.Errorf("bisect: %w", &InterruptedError{Signal: syscall.SIGHUP}), 129},
		{"stopped without a signal", &InterruptedError{Msg: "stopped"}, ExitInterrupted},
	} {
		if got := ExitCode(tt.err); got != tt.code {
			t.Errorf("%s: ExitCode(%v) = %d, want %d", tt.name, tt.err, got, tt.code)
		}
	}
}

// What cobra refuses before a command runs (an unknown command, a wrong
// number of arguments) is bad usage, as a flag error is: exit 2 and one
// line.
func TestCobraErrorsAreUsage(t *testing.T) {
	for _, args := range [][]string{
		{"runn"},
		{"list", "extra"},
		{"history", "import"},
		{"history", "show", "a", "b"},
		{"run", "--no-such-flag"},
	} {
		var stdout, stderr bytes.Buffer
		code := testMain(args, &stdout, &stderr)
		if code != ExitUsage || !strings.HasPrefix(stderr.String(), "benchy: ") || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("benchy %q: exit %d, stderr %q; want exit 2 and one line", args, code, stderr.String())
		}
	}
}
