package cli

import (
	"errors"
	"fmt"
	"os"
)

// Exit codes, mapped from errors in exactly one place (ExitCode).
const (
	ExitOK          = 0   // success
	ExitFailed      = 1   // the run failed, or a comparison found a regression
	ExitUsage       = 2   // bad usage or input
	ExitStrict      = 3   // --strict and a finding of the selected severity
	ExitCannotJudge = 4   // --fail-on-regression could not judge: rerun on a quieter machine
	ExitInterrupted = 130 // interrupted (128 + SIGINT)
)

// The kinds of error a command ends with. Each is made where the outcome
// is known and may be wrapped with %w on its way out; ExitCode alone turns
// a kind into a number, so no error site chooses one. Every kind's message
// is printed as is, on one line.

// UsageError is bad usage or input: one line, exit 2, nothing measured.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef makes a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// FailedError is a command that could not do what it was asked: an
// experiment or a count failed, a file or the store could not be written.
type FailedError struct{ Msg string }

func (e *FailedError) Error() string { return e.Msg }

// SlowerError is a gate that found a slowdown (--fail-on-regression,
// history check, bisect), or an experiment that failed on the side the
// gate judges: the same exit as a failure, which a script already treats
// as "stop here".
type SlowerError struct{ Msg string }

func (e *SlowerError) Error() string { return e.Msg }

// CannotJudgeError is a gate that could not judge (too noisy, too few
// commits): its own code, never 0 or 1, so a script can rerun rather
// than pass or fail on a guess.
type CannotJudgeError struct{ Msg string }

func (e *CannotJudgeError) Error() string { return e.Msg }

// StrictError is --strict and a finding of the selected severity.
type StrictError struct{ Msg string }

func (e *StrictError) Error() string { return e.Msg }

// InterruptedError is a command a stop signal ended. Signal is nil when it
// stopped without one known (its context cancelled without a *StopSignal).
type InterruptedError struct {
	Signal os.Signal
	Msg    string
}

func (e *InterruptedError) Error() string { return e.Msg }

// ExitCode maps an error returned by a command to the process exit code:
// the one place where a kind of error becomes a number. An error of no
// kind (a bug, a read that failed) is a failure.
func ExitCode(err error) int {
	var (
		usage  *UsageError
		failed *FailedError
		slower *SlowerError
		cannot *CannotJudgeError
		strict *StrictError
		stop   *InterruptedError
	)
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &usage):
		return ExitUsage
	case errors.As(err, &stop):
		return signalExit(stop.Signal)
	case errors.As(err, &strict):
		return ExitStrict
	case errors.As(err, &cannot):
		return ExitCannotJudge
	case errors.As(err, &slower), errors.As(err, &failed):
		return ExitFailed
	}
	return ExitFailed
}
