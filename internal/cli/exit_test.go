package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/cobra"
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
		{"history", "foo"},
		{"completion", "foo"},
	} {
		var stdout, stderr bytes.Buffer
		code := testMain(args, &stdout, &stderr)
		if code != ExitUsage || !strings.HasPrefix(stderr.String(), "benchy: ") || strings.Count(stderr.String(), "\n") != 1 {
			t.Errorf("benchy %q: exit %d, stderr %q; want exit 2 and one line", args, code, stderr.String())
		}
	}
}

// Every command that groups others refuses an argument naming none of
// them with one line that names them all, at every level (cobra prints
// the help and exits 0 below the root), and prints its help when given
// nothing.
func TestUnknownSubcommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	root := newRootCmd(&GlobalOptions{Stdout: &stdout, Stderr: &stderr})
	root.InitDefaultCompletionCmd()
	var groups []*cobra.Command
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.HasSubCommands() {
			groups = append(groups, c)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	if len(groups) < 2 { // the root, completion (history: toolcmd's TestHistoryUnknownSubcommand)
		t.Fatalf("%d commands with subcommands, want at least 2", len(groups))
	}
	for _, c := range groups {
		path := strings.Fields(c.CommandPath())[1:]
		var names []string
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		stdout.Reset()
		stderr.Reset()
		code := testMain(append(path, "nosuchcommand"), &stdout, &stderr)
		want := fmt.Sprintf("unknown command %q for %q (its commands: %s)\n", "nosuchcommand", c.CommandPath(), strings.Join(names, ", "))
		if code != ExitUsage || stderr.String() != "benchy: "+want || stdout.Len() != 0 {
			t.Errorf("benchy %s: exit %d, stdout %q, stderr %q; want exit 2 and %q", strings.Join(path, " "), code, stdout.String(), stderr.String(), want)
		}
		stdout.Reset()
		stderr.Reset()
		code = testMain(path, &stdout, &stderr)
		if code != ExitOK || !strings.Contains(stdout.String(), c.CommandPath()+" [command]") || stderr.Len() != 0 {
			t.Errorf("benchy %s: exit %d, stdout %q, stderr %q; want exit 0 and its help", strings.Join(path, " "), code, stdout.String(), stderr.String())
		}
	}
}
