package history

import (
	"context"
	"errors"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// Save stores r, measured from src, in the store at a: what --store on
// run, gotest and exec does after the result is written. added is false
// when the store held it already.
func Save(ctx context.Context, a Address, r *result.Result, src Source) (rec Record, added bool, err error) {
	if src.Commit == "" {
		return Record{}, false, errors.New("no commit known for the measured code")
	}
	rec, err = NewRecord(r, src, time.Time{})
	if err != nil {
		return Record{}, false, err
	}
	s, err := Open(ctx, a)
	if err != nil {
		return Record{}, false, err
	}
	defer s.Close()
	ok, err := s.Add(ctx, []Record{rec})
	if err != nil {
		return Record{}, false, err
	}
	return rec, ok[0], nil
}

// SourceOf is the code a command measured in dir: for a program that
// measures itself (run), the commit it was built from when the go command
// stamped one, else the git work tree of dir; for gotest and exec, which
// build or run what is in dir, its git work tree.
func SourceOf(command, dir string) (Source, error) {
	if command == "run" {
		if s, ok := BuildSource(); ok {
			return s, nil
		}
	}
	return GitSource(dir)
}
