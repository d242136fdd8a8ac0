package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/history"
)

// SchemaVersion is the version of the store's tables that this benchy
// writes. A store of an older version is upgraded when opened; one of a
// newer version is refused and left as it is.
const SchemaVersion = 2

// A migration takes a store from version-1 to version: its statements,
// then fill (when not nil) with the store's rows, in the same transaction.
type migration struct {
	version int
	stmts   []string
	fill    func(ctx context.Context, tx *sql.Tx, d dialect) error
}

// migrations, in order. {blob} is the dialect's type of bytes. The
// points (version 2) are derived from the stored results, so they are a
// migration of their own: a later change of how a point is derived adds a
// migration that fills them again from the bodies.
var migrations = []migration{
	{version: 1, stmts: []string{
		`CREATE TABLE benchy_machines (
			id TEXT PRIMARY KEY,
			facts TEXT NOT NULL
		)`,
		`CREATE TABLE benchy_results (
			hash TEXT PRIMARY KEY,
			machine TEXT NOT NULL REFERENCES benchy_machines(id),
			commit_rev TEXT NOT NULL,
			dirty INTEGER NOT NULL,
			branch TEXT NOT NULL,
			commit_time BIGINT NOT NULL,
			measured BIGINT NOT NULL,
			imported BIGINT NOT NULL,
			tool TEXT NOT NULL,
			package TEXT NOT NULL,
			settings TEXT NOT NULL,
			body {blob} NOT NULL
		)`,
		`CREATE INDEX benchy_results_machine ON benchy_results(machine, commit_time, measured)`,
	}},
	{version: 2, stmts: []string{
		`CREATE TABLE benchy_points (
			result TEXT NOT NULL REFERENCES benchy_results(hash),
			benchmark TEXT NOT NULL,
			basis TEXT NOT NULL,
			median DOUBLE PRECISION NOT NULL,
			lo DOUBLE PRECISION NOT NULL,
			hi DOUBLE PRECISION NOT NULL,
			n INTEGER NOT NULL,
			clock_hz DOUBLE PRECISION NOT NULL,
			codes TEXT NOT NULL,
			PRIMARY KEY (result, benchmark, basis)
		)`,
	}, fill: refillPoints},
}

// NewerError is the error of a store whose schema is newer than this
// benchy's: it is not read, and not changed.
type NewerError struct {
	Store   string
	Version int
}

func (e *NewerError) Error() string {
	return fmt.Sprintf("%s has history schema %d, newer than this benchy's %d: upgrade benchy (the store was not changed)", e.Store, e.Version, SchemaVersion)
}

func newerError(show string, v int) error { return &NewerError{Store: show, Version: v} }

// wrap prefixes err with the store's name, unless it names it already.
func wrap(show string, err error) error {
	var ne *NewerError
	if errors.As(err, &ne) {
		return err
	}
	return fmt.Errorf("%s: %v", show, err)
}

// readVersion is the store's schema version, 0 when it has no meta table.
func readVersion(ctx context.Context, q querier) (int, error) {
	var s string
	err := q.QueryRowContext(ctx, `SELECT value FROM benchy_meta WHERE key = 'schema'`).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("schema version %q is not a number", s)
	}
	return v, nil
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// migrate brings the store up to SchemaVersion in one transaction, taken
// so that two processes opening a new store at once migrate it once: the
// second waits, then finds it done. It refuses a newer store before
// changing anything.
func migrate(ctx context.Context, db *sql.DB, d dialect, show string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if d.lock != "" {
		if _, err := tx.ExecContext(ctx, d.lock); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS benchy_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`); err != nil {
		return err
	}
	v, err := readVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v > SchemaVersion {
		return newerError(show, v)
	}
	if v == SchemaVersion {
		return tx.Rollback() // nothing to do: leave no write behind
	}
	for _, m := range migrations[v:] {
		for _, s := range m.stmts {
			if _, err := tx.ExecContext(ctx, strings.ReplaceAll(s, "{blob}", d.blob)); err != nil {
				return fmt.Errorf("migrate to schema %d: %v", m.version, err)
			}
		}
		if m.fill != nil {
			if err := m.fill(ctx, tx, d); err != nil {
				return fmt.Errorf("migrate to schema %d: %v", m.version, err)
			}
		}
	}
	up := d.rebind(`INSERT INTO benchy_meta (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`)
	if _, err := tx.ExecContext(ctx, up, strconv.Itoa(SchemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// refillPoints derives the points of every stored result from its body.
func refillPoints(ctx context.Context, tx *sql.Tx, d dialect) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM benchy_points`); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT hash, body FROM benchy_results`)
	if err != nil {
		return err
	}
	type body struct {
		hash string
		b    []byte
	}
	var bodies []body
	for rows.Next() {
		var b body
		if err := rows.Scan(&b.hash, &b.b); err != nil {
			rows.Close()
			return err
		}
		bodies = append(bodies, b)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, b := range bodies {
		r, err := DecodeBody(b.b)
		if err != nil {
			return fmt.Errorf("result %s: %v", history.Short(b.hash), err)
		}
		if err := insertPoints(ctx, tx, d, b.hash, Points(r)); err != nil {
			return err
		}
	}
	return nil
}
