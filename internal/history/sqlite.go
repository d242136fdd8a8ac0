package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// busyTimeoutMs is how long a writer waits for another's lock before it
// fails: four CI jobs importing into one file at once take turns.
const busyTimeoutMs = 30000

// sqliteDialect is SQLite's SQL.
var sqliteDialect = dialect{blob: "BLOB", rebind: questionMarks}

// openSQLite opens the history in the file at path, creating it (and its
// directory) when missing. An existing file is first read without
// writing: a file that is not SQLite, a database that is not a benchy
// history, and a history of a newer schema are refused unchanged.
func openSQLite(ctx context.Context, path string) (Store, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file", path)
	case err == nil:
		if err := checkSQLite(ctx, path); err != nil {
			return nil, err
		}
	case errors.Is(err, os.ErrNotExist):
		if err := ensureDir(path); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	default:
		return nil, err
	}
	// _txlock=immediate takes the write lock when a transaction begins,
	// so two writers wait for each other (busy_timeout) instead of one
	// failing when it upgrades a read lock.
	db, err := sql.Open("sqlite", sqliteDSN(path, "_pragma=busy_timeout("+fmt.Sprint(busyTimeoutMs)+")&_pragma=foreign_keys(1)&_txlock=immediate"))
	if err != nil {
		return nil, err
	}
	// WAL lets readers go on while one process writes. The mode is kept
	// in the file, so it is set once here rather than on every
	// connection; it and the migration are retried on SQLITE_BUSY, which
	// the busy timeout does not always cover: two processes switching a
	// new file to WAL at once both hold a read lock and want the
	// exclusive one, and SQLite fails one of them at once rather than
	// let them wait for each other.
	err = retryBusy(ctx, busyTimeoutMs*time.Millisecond, func() error {
		_, err := db.ExecContext(ctx, `PRAGMA journal_mode=WAL`)
		return err
	})
	if err == nil {
		err = retryBusy(ctx, busyTimeoutMs*time.Millisecond, func() error { return migrate(ctx, db, sqliteDialect, path) })
	}
	if err != nil {
		db.Close()
		return nil, wrap(path, sqliteError(err))
	}
	return &sqlStore{db: db, d: sqliteDialect, show: path}, nil
}

// retryBusy runs f until it returns anything but SQLITE_BUSY, for at most
// limit (then its last error), waiting a little longer each time.
func retryBusy(ctx context.Context, limit time.Duration, f func() error) error {
	deadline := time.Now().Add(limit)
	wait := 5 * time.Millisecond
	for {
		err := f()
		if !isBusy(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

// isBusy says whether err is SQLite's SQLITE_BUSY (or SQLITE_LOCKED):
// another connection holds the lock it needed.
func isBusy(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked") || strings.Contains(msg, "SQLITE_LOCKED")
}

// checkSQLite reads the existing file at path read-only and says why it
// cannot be used as a history, if it cannot.
func checkSQLite(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", sqliteDSN(path, "mode=ro&_pragma=busy_timeout("+fmt.Sprint(busyTimeoutMs)+")"))
	if err != nil {
		return err
	}
	defer db.Close()
	var meta, tables int
	err = db.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE name = 'benchy_meta'), count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&meta, &tables)
	if err != nil {
		return fmt.Errorf("%s: %v", path, sqliteError(err))
	}
	if meta == 0 {
		if tables > 0 {
			return fmt.Errorf("%s: a SQLite database of something else, not a benchy history (left as it is)", path)
		}
		return nil
	}
	v, err := readVersion(ctx, db)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if v > SchemaVersion {
		return newerError(path, v)
	}
	return nil
}

// sqliteDSN is a file: URI of path with the query q; the characters a URI
// gives meaning to are escaped, so any file name works.
func sqliteDSN(path, q string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + r.Replace(path) + "?" + q
}

// sqliteError says in words what SQLite's codes mean for a store.
func sqliteError(err error) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "file is not a database"), strings.Contains(msg, "SQLITE_NOTADB"):
		return errors.New("not a SQLite database (is it a result file? give it to history import)")
	case strings.Contains(msg, "unable to open database file"), strings.Contains(msg, "SQLITE_CANTOPEN"):
		return errors.New("cannot be opened (is its directory writable?)")
	}
	return err
}
