package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
		if _, err := checkSQLite(ctx, path); err != nil {
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

// openSQLiteRead opens the history in the existing file at path for
// reading: it never creates the file, and leaves nothing beside it (see
// readDSN), so a read of a file the user may not write, or one on
// read-only media, works and changes nothing. A store of an older schema
// is upgraded first (openSQLite): its points are derived by that write.
func openSQLiteRead(ctx context.Context, path string) (Store, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, &MissingError{Store: path}
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	v, err := checkSQLite(ctx, path)
	if err != nil {
		return nil, err
	}
	if v < SchemaVersion {
		return openSQLite(ctx, path)
	}
	db, err := sql.Open("sqlite", readDSN(path))
	if err != nil {
		return nil, err
	}
	return &sqlStore{db: db, d: sqliteDialect, show: path}, nil
}

// MissingError is a read of a store that does not exist: a read never
// creates one (a mistyped path would otherwise become an empty history).
type MissingError struct{ Store string }

func (e *MissingError) Error() string {
	return e.Store + ": no such store (a read creates none: history import or --store on a run makes it)"
}

// readDSN is the address of the file at path for connections that only
// read. SQLite in WAL mode makes a -wal and a -shm file beside the
// database on the first open, and only a connection that may write
// removes them when it closes: a read-only one leaves them, owned by the
// reader with the database's mode (a 0444 -shm then fails every later
// writer with "attempt to write a readonly database"). So:
//   - a -wal file is there: a writer is at work (or one was stopped), and
//     the reader joins it read-only (mode=ro) to see what it wrote;
//   - the reader may write the file and its directory: it opens them
//     read-write with every statement refused (query_only), so that its
//     close removes what its open made;
//   - else (another user's file, read-only media): immutable, which reads
//     the file as it is, with no lock and no file beside it.
func readDSN(path string) string {
	q := "_pragma=busy_timeout(" + fmt.Sprint(busyTimeoutMs) + ")"
	switch {
	case exists(path + "-wal"):
		return sqliteDSN(path, "mode=ro&"+q)
	case writable(path) && writable(filepath.Dir(path)):
		return sqliteDSN(path, "mode=rw&_pragma=query_only(1)&"+q)
	}
	return sqliteDSN(path, "mode=ro&immutable=1")
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// checkSQLite reads the existing file at path (readDSN: it leaves nothing
// beside it, also when the file is refused) and says why it cannot be used
// as a history, if it cannot; else it returns its schema version (0 for an
// empty database).
func checkSQLite(ctx context.Context, path string) (int, error) {
	db, err := sql.Open("sqlite", readDSN(path))
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var meta, tables int
	err = db.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE name = 'benchy_meta'), count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&meta, &tables)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", path, sqliteError(err))
	}
	if meta == 0 {
		if tables > 0 {
			return 0, fmt.Errorf("%s: a SQLite database of something else, not a benchy history (left as it is)", path)
		}
		return 0, nil
	}
	v, err := readVersion(ctx, db)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", path, err)
	}
	if v > SchemaVersion {
		return 0, newerError(path, v)
	}
	return v, nil
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

// ensureDir makes the directory of a SQLite file when it is missing (the
// default store's on a first run).
func ensureDir(path string) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	return os.MkdirAll(dir, 0o755)
}
