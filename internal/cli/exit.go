package cli

import (
	"errors"
	"fmt"
	"strings"
)

// Exit codes, mapped from errors in exactly one place (exitCode).
const (
	ExitOK          = 0   // success
	ExitFailed      = 1   // the run failed, or a comparison found a regression
	ExitUsage       = 2   // bad usage or input
	ExitStrict      = 3   // --strict and a finding of the selected severity
	ExitCannotJudge = 4   // --fail-on-regression could not judge: rerun on a quieter machine
	ExitInterrupted = 130 // interrupted (128 + SIGINT)
)

// UsageError is bad usage or input: one line, exit 2, nothing measured.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// ExitError carries a specific exit code; its message (if any) was already
// printed or is printed as is.
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string { return e.Msg }

// exitCode maps an error returned by a command to the process exit code.
func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var ue *UsageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return ExitUsage
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitFailed
}

// isCobraUsage recognises the usage errors cobra makes itself (an unknown
// command, a wrong number of arguments), which carry no type to match.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, prefix := range []string{"unknown command", "accepts ", "requires at least", "requires at most", "invalid argument"} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}
