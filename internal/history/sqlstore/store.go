package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/result"
)

// Store keeps results and reads them back as points. Both stores hold
// the same schema (schema.go) through database/sql; they differ in how a
// connection is made and in a few words of SQL (dialect).
type Store interface {
	// Add stores the records in one transaction: all of them or, on an
	// error, none. added[i] is false for a record already stored (the
	// same hash), which is left as it was.
	Add(ctx context.Context, recs []Record) (added []bool, err error)
	// Rows are the stored points, those of one machine when machine is
	// not empty, in the order of their commit's time then the time
	// measured. A row holding a value no run produces is left out, and
	// skipped says which and why: anyone with access to the database
	// can write one, and one bad row must neither hide a series' step
	// nor stop every other series being judged.
	Rows(ctx context.Context, machine string) (rows []history.Row, skipped []error, err error)
	// Machines are the stored machine identities.
	Machines(ctx context.Context) ([]Machine, error)
	// Result is the stored result of the given hash (a Row's Hash).
	Result(ctx context.Context, hash string) (*result.Result, error)
	// Show is the store's address as messages name it.
	Show() string
	Close() error
}

// dialect is what differs in the SQL of the two stores.
type dialect struct {
	blob   string              // the type of bytes
	lock   string              // taken first in a migration; "" when the transaction is the lock
	rebind func(string) string // ? placeholders to the dialect's
}

// sqlStore is the store over a database/sql handle.
type sqlStore struct {
	db   *sql.DB
	d    dialect
	show string
}

// The kinds of store a program can open are registered by the public
// packages store/sqlite and store/postgres, each with the database/sql
// driver it needs, as database/sql drivers are. This package links
// neither driver, and only they (and benchy's own command) link it: a
// program that never asks for a store carries no driver and no SQL
// (SQLite alone was most of a user's program). An opener is told whether
// the store is opened to read it only (OpenRead).
var (
	openersMu sync.Mutex
	openers   = map[string]func(ctx context.Context, a history.Address, read bool) (Store, error){}
)

// RegisterSQLite lets Open open SQLite stores; store/sqlite calls it,
// having linked the "sqlite" driver.
func RegisterSQLite() {
	register(history.KindSQLite, func(ctx context.Context, a history.Address, read bool) (Store, error) {
		if read {
			return openSQLiteRead(ctx, a.Path)
		}
		return openSQLite(ctx, a.Path)
	})
}

// RegisterPostgres lets Open open PostgreSQL stores through connect;
// store/postgres calls it with pgx's.
func RegisterPostgres(connect PostgresConnector) {
	register(history.KindPostgres, func(ctx context.Context, a history.Address, read bool) (Store, error) {
		return openPostgres(ctx, a, read, connect)
	})
}

func register(kind string, open func(context.Context, history.Address, bool) (Store, error)) {
	openersMu.Lock()
	defer openersMu.Unlock()
	openers[kind] = open
}

// Open opens (and creates, or upgrades) the store at a, to write it. A
// program that has not registered the kind of store is told which package
// to import.
func Open(ctx context.Context, a history.Address) (Store, error) {
	return openKind(ctx, a, false)
}

// OpenRead opens the existing store at a to read it (history show and
// check): a store that does not exist is a *MissingError, never created,
// and the store is left as it was (only one of an older schema is
// upgraded, as Open does).
func OpenRead(ctx context.Context, a history.Address) (Store, error) {
	return openKind(ctx, a, true)
}

func openKind(ctx context.Context, a history.Address, read bool) (Store, error) {
	openersMu.Lock()
	open := openers[a.Kind]
	openersMu.Unlock()
	if open != nil {
		return open(ctx, a, read)
	}
	return nil, history.NotLinked(a)
}

func (s *sqlStore) Show() string { return s.show }
func (s *sqlStore) Close() error { return s.db.Close() }

func (s *sqlStore) Add(ctx context.Context, recs []Record) ([]bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	added := make([]bool, len(recs))
	for i, r := range recs {
		facts, err := json.Marshal(r.Machine.Facts)
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO benchy_machines (id, facts) VALUES (?, ?) ON CONFLICT (id) DO NOTHING`), r.Machine.ID, string(facts)); err != nil {
			return nil, err
		}
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO benchy_results
			(hash, machine, commit_rev, dirty, branch, commit_time, measured, imported, tool, package, settings, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`),
			r.Hash, r.Machine.ID, r.Source.Commit, boolInt(r.Source.Dirty), r.Source.Branch, unixNano(r.Source.Time),
			unixNano(r.Measured), time.Now().UnixNano(), r.Tool, r.Package, string(r.Settings), r.Body)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			continue // stored before
		}
		if err := insertPoints(ctx, tx, s.d, r.Hash, r.Points); err != nil {
			return nil, err
		}
		added[i] = true
	}
	return added, tx.Commit()
}

func insertPoints(ctx context.Context, tx *sql.Tx, d dialect, hash string, ps []history.Point) error {
	q := d.rebind(`INSERT INTO benchy_points (result, benchmark, basis, median, lo, hi, n, clock_hz, codes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	for _, p := range ps {
		if _, err := tx.ExecContext(ctx, q, hash, p.Benchmark, p.Basis, p.Median, p.Lo, p.Hi, p.N, p.ClockHz, p.Codes); err != nil {
			return err
		}
	}
	return nil
}

func (s *sqlStore) Rows(ctx context.Context, machine string) ([]history.Row, []error, error) {
	q := `SELECT r.hash, r.machine, r.package, r.commit_rev, r.dirty, r.branch, r.commit_time, r.measured,
			p.benchmark, p.basis, p.median, p.lo, p.hi, p.n, p.clock_hz, p.codes
		FROM benchy_points p JOIN benchy_results r ON r.hash = p.result`
	var args []any
	if machine != "" {
		q += ` WHERE r.machine = ?`
		args = append(args, machine)
	}
	q += ` ORDER BY CASE WHEN r.commit_time = 0 THEN r.measured ELSE r.commit_time END, r.measured, r.hash, p.benchmark, p.basis`
	rows, err := s.db.QueryContext(ctx, s.d.rebind(q), args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []history.Row
	var skipped []error
	for rows.Next() {
		var r history.Row
		var dirty int
		var ct, m int64
		if err := rows.Scan(&r.Hash, &r.Machine, &r.Package, &r.Source.Commit, &dirty, &r.Source.Branch, &ct, &m,
			&r.Benchmark, &r.Basis, &r.Median, &r.Lo, &r.Hi, &r.N, &r.ClockHz, &r.Codes); err != nil {
			return nil, nil, err
		}
		// What a row says reaches a terminal, a page, a script: its
		// text is escaped as a loaded result's is.
		for _, p := range []*string{&r.Hash, &r.Machine, &r.Package, &r.Source.Commit, &r.Source.Branch, &r.Benchmark, &r.Basis, &r.Codes} {
			*p = result.Printable(*p)
		}
		// A store's rows are written by benchy, or by anyone with
		// access to the database: a value no run produces (±Inf, 0) is
		// neither judged nor drawn.
		if err := checkPoint(r.Point); err != nil {
			skipped = append(skipped, fmt.Errorf("result %s: %v", history.Short(r.Hash), err))
			continue
		}
		r.Source.Dirty = dirty != 0
		r.Source.Time = fromUnixNano(ct)
		r.Measured = fromUnixNano(m)
		out = append(out, r)
	}
	return out, skipped, rows.Err()
}

func (s *sqlStore) Machines(ctx context.Context) ([]Machine, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, facts FROM benchy_machines ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Machine
	for rows.Next() {
		var m Machine
		var facts string
		if err := rows.Scan(&m.ID, &facts); err != nil {
			return nil, err
		}
		m.ID = result.Printable(m.ID)
		if err := json.Unmarshal([]byte(facts), &m.Facts); err != nil {
			return nil, fmt.Errorf("machine %s: %v", m.ID, err)
		}
		for i := range m.Facts {
			m.Facts[i].Name, m.Facts[i].Value = result.Printable(m.Facts[i].Name), result.Printable(m.Facts[i].Value)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

func (s *sqlStore) Result(ctx context.Context, hash string) (*result.Result, error) {
	var body []byte
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT body FROM benchy_results WHERE hash = ?`), hash).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no result %s in the store", history.Short(hash))
	}
	if err != nil {
		return nil, err
	}
	return DecodeBody(body)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func unixNano(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromUnixNano(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// questionMarks leaves ? placeholders as they are (SQLite).
func questionMarks(q string) string { return q }

// dollars numbers the ? placeholders $1, $2, … (PostgreSQL). The
// queries hold no ? inside a literal.
func dollars(q string) string {
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}
