package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/result"
)

// StoreHelp is the help of every --store flag.
const StoreHelp = "the history store: a SQLite `FILE` or postgres://… (default $BENCHY_STORE, else $XDG_DATA_HOME/benchy/history.db)"

// StoreResult stores r after a command that measured (run, gotest, exec)
// wrote it, at src, the commit it measured (OutputOptions.checkSource);
// it says on stderr what it did. A failure is exit 1: the result was
// written, only not stored.
func StoreResult(addr history.Address, src history.Source, r *result.Result, stderr io.Writer) error {
	machine, added, err := history.SaveResult(context.Background(), addr, r, src)
	if err != nil {
		return &FailedError{Msg: "--store " + addr.Show() + ": not stored: " + OneLine(err.Error())}
	}
	what := "stored in"
	if !added {
		what = "already in"
	}
	dirty := ""
	if src.Dirty {
		dirty = " (the tree has uncommitted changes: kept out of the series)"
	}
	fmt.Fprintf(stderr, "benchy: %s %s as commit %s on machine %s%s\n", what, addr.Show(), history.Short(src.Commit), machine, dirty)
	return nil
}

// CheckStore resolves and opens --store before anything is measured, so
// that a store that cannot be used fails at once (exit 2).
func CheckStore(flag string) (history.Address, error) {
	a, err := history.Resolve(flag, os.Getenv)
	if err != nil {
		return a, &UsageError{Msg: "--store: " + err.Error()}
	}
	if err := history.CheckStore(context.Background(), a); err != nil {
		return a, &UsageError{Msg: "--store " + OneLine(err.Error())}
	}
	return a, nil
}
