package history

import (
	"context"
	"fmt"
	"sync"

	"github.com/benchy-dev/benchy/internal/result"
)

// Storage is what a command that measures (run, gotest, exec) does with
// the store of --store: open it before anything is measured, so that a
// store that cannot be used fails at once, and save the result after.
//
// It is a hook, as database/sql drivers are: the SQL store
// (internal/history/sqlstore), with database/sql, the hashing of records
// and the compression of stored results, registers it when it is linked,
// which a program asks for by importing store/sqlite or store/postgres
// (benchy's own command imports both). A program built on the public
// package that imports neither links none of it.
type Storage interface {
	// Check opens (creates, or upgrades) the store at a and closes it.
	Check(ctx context.Context, a Address) error
	// Save stores r, measured from src, in the store at a. machine is
	// the identity of the machine it was stored under; added is false
	// when the store held it already.
	Save(ctx context.Context, a Address, r *result.Result, src Source) (machine string, added bool, err error)
}

var (
	storageMu sync.Mutex
	storage   Storage
)

// RegisterStorage makes s the program's storage; sqlstore calls it.
func RegisterStorage(s Storage) {
	storageMu.Lock()
	defer storageMu.Unlock()
	storage = s
}

func registered() Storage {
	storageMu.Lock()
	defer storageMu.Unlock()
	return storage
}

// CheckStore opens the store at a and closes it; without a storage, it
// says which package to import.
func CheckStore(ctx context.Context, a Address) error {
	s := registered()
	if s == nil {
		return NotLinked(a)
	}
	return s.Check(ctx, a)
}

// SaveResult stores r, measured from src, in the store at a (Storage.Save);
// without a storage, it says which package to import.
func SaveResult(ctx context.Context, a Address, r *result.Result, src Source) (machine string, added bool, err error) {
	s := registered()
	if s == nil {
		return "", false, NotLinked(a)
	}
	return s.Save(ctx, a, r, src)
}

// storePackages name the package that registers each kind of store, for
// the message of a program that has not imported it.
var storePackages = map[string]struct{ what, pkg string }{
	KindSQLite:   {"SQLite", "github.com/benchy-dev/benchy/store/sqlite"},
	KindPostgres: {"PostgreSQL", "github.com/benchy-dev/benchy/store/postgres"},
}

// NotLinked is the error of a store whose kind this program cannot open:
// it names the package to import.
func NotLinked(a Address) error {
	if p, ok := storePackages[a.Kind]; ok {
		return fmt.Errorf("%s: this program has no %s store: import _ %q in its main package", a.Show(), p.what, p.pkg)
	}
	return fmt.Errorf("unknown store kind %q", a.Kind)
}
