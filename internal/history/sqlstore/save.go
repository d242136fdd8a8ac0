package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/result"
)

// Linking this package gives the program's commands their storage
// (history.Storage): their --store then opens the kinds of store the
// program registered, and names the package to import for the others.
func init() { history.RegisterStorage(storage{}) }

// storage is the history.Storage of the SQL store.
type storage struct{}

func (storage) Check(ctx context.Context, a history.Address) error {
	s, err := Open(ctx, a)
	if err != nil {
		return err
	}
	return s.Close()
}

func (storage) Save(ctx context.Context, a history.Address, r *result.Result, src history.Source) (string, bool, error) {
	rec, added, err := Save(ctx, a, r, src)
	return rec.Machine.ID, added, err
}

// Save stores r, measured from src, in the store at a: what --store on
// run, gotest and exec does after the result is written. added is false
// when the store held it already.
func Save(ctx context.Context, a history.Address, r *result.Result, src history.Source) (rec Record, added bool, err error) {
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
