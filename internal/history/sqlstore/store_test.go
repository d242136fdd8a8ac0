package sqlstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/historytest"
	"github.com/benchy-dev/benchy/internal/result"
)

// kinds opens a new empty store of each kind; PostgreSQL is skipped, with
// the reason, where no server can be started.
var kinds = []struct {
	name string
	addr func(t *testing.T) history.Address
}{
	{"sqlite", func(t *testing.T) history.Address {
		return history.Address{Kind: history.KindSQLite, Path: filepath.Join(t.TempDir(), "sub", "history.db")}
	}},
	{"postgres", func(t *testing.T) history.Address { return history.Address{Kind: history.KindPostgres, DSN: pgDSN(t)} }},
}

func open(t *testing.T, a history.Address) Store {
	t.Helper()
	s, err := Open(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A result is stored once however often it is added, also after its file
// was re-encoded; its points come back with their commit and machine.
func TestStoreAddOnce(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, k.addr(t))
			r := loadFixture(t)
			rec := record(t, r, historytest.Source(1))
			added, err := s.Add(ctx, []Record{rec, rec})
			if err != nil {
				t.Fatal(err)
			}
			if !added[0] || added[1] {
				t.Errorf("added %v, want [true false]", added)
			}
			// The same result, indented otherwise and with another commit
			// given, is the same result.
			var b bytes.Buffer
			result.Encode(&b, r)
			back, err := result.Decode(strings.NewReader(strings.ReplaceAll(b.String(), "  ", "\t")))
			if err != nil {
				t.Fatal(err)
			}
			again := record(t, back, historytest.Source(2))
			if again.Hash != rec.Hash {
				t.Fatalf("hash changed on a round trip: %s, %s", rec.Hash, again.Hash)
			}
			if added, err := s.Add(ctx, []Record{again}); err != nil || added[0] {
				t.Errorf("re-import: added %v, %v", added, err)
			}
			rows, _, err := s.Rows(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(rec.Points) || len(rows) == 0 {
				t.Fatalf("%d rows, want the record's %d points", len(rows), len(rec.Points))
			}
			for _, row := range rows {
				if row.Source.Commit != historytest.Hash(1) || row.Machine != rec.Machine.ID || row.Hash != rec.Hash || !row.Source.Time.Equal(historytest.Source(1).Time) {
					t.Fatalf("row %+v: want commit 1, machine %s", row, rec.Machine.ID)
				}
			}
			ms, err := s.Machines(ctx)
			if err != nil || len(ms) != 1 || ms[0].ID != rec.Machine.ID || len(ms[0].Facts) != len(rec.Machine.Facts) {
				t.Errorf("machines %+v, %v", ms, err)
			}
			if other, _, err := s.Rows(ctx, "nosuchmachine"); err != nil || len(other) != 0 {
				t.Errorf("rows of another machine: %d, %v", len(other), err)
			}
		})
	}
}

// Four importers at once on a store that does not exist yet, each with
// its own connection and results, all land, and the one result they
// share lands once.
func TestStoreConcurrentImports(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			a := k.addr(t)
			shared := record(t, loadFixture(t), historytest.Source(0))
			// The store does not exist yet: the four make it at once.
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			for j := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s, err := Open(ctx, a)
					if err != nil {
						errs <- err
						return
					}
					defer s.Close()
					for i := range 5 {
						recs := []Record{record(t, scaled(t, 1+float64(j*5+i+1)/100, j*5+i), historytest.Source(j*5+i+1)), shared}
						if _, err := s.Add(ctx, recs); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			rows, _, err := open(t, a).Rows(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			hashes := map[string]bool{}
			for _, r := range rows {
				hashes[r.Hash] = true
			}
			if len(hashes) != 21 {
				t.Errorf("%d results stored, want 20 and the shared one", len(hashes))
			}
		})
	}
}

// A transaction that fails part way leaves the store as it was: the
// first record of the batch is not stored either.
func TestStoreAddAllOrNothing(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t, k.addr(t))
			good := record(t, loadFixture(t), historytest.Source(1))
			bad := record(t, scaled(t, 2, 1), historytest.Source(2))
			bad.Points = append(bad.Points, bad.Points[0]) // a duplicate key fails the insert
			if _, err := s.Add(ctx, []Record{good, bad}); err == nil {
				t.Fatal("a failing batch was stored")
			}
			if rows, _, err := s.Rows(ctx, ""); err != nil || len(rows) != 0 {
				t.Errorf("after a failed batch: %d rows, %v; want none", len(rows), err)
			}
		})
	}
}

// A store of schema 1 (no points) is upgraded when opened, its points
// derived from the stored results; a store of a newer schema is refused
// with one line, and not changed.
func TestStoreMigrations(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			a := k.addr(t)
			db, d := rawDB(t, a)
			old := migrations
			migrations = migrations[:1]
			err := migrate(ctx, db, d, "test")
			migrations = old
			if err != nil {
				t.Fatal(err)
			}
			rec := record(t, loadFixture(t), historytest.Source(1))
			if _, err := db.ExecContext(ctx, d.rebind(`INSERT INTO benchy_machines (id, facts) VALUES (?, '[]')`), rec.Machine.ID); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, d.rebind(`INSERT INTO benchy_results VALUES (?, ?, ?, 0, 'main', 0, 1, 1, 'benchy', '', '{}', ?)`), rec.Hash, rec.Machine.ID, rec.Source.Commit, rec.Body); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, d.rebind(`UPDATE benchy_meta SET value = '1' WHERE key = 'schema'`)); err != nil {
				t.Fatal(err)
			}
			s := open(t, a)
			rows, _, err := s.Rows(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != len(rec.Points) {
				t.Errorf("upgraded store: %d points, want %d", len(rows), len(rec.Points))
			}
			if v, err := readVersion(ctx, db); err != nil || v != SchemaVersion {
				t.Errorf("version %d, %v after the upgrade", v, err)
			}
			s.Close()

			if _, err := db.ExecContext(ctx, `UPDATE benchy_meta SET value = '99' WHERE key = 'schema'`); err != nil {
				t.Fatal(err)
			}
			before := fingerprint(t, a, db)
			_, err = Open(ctx, a)
			var ne *NewerError
			if !errors.As(err, &ne) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "schema 99") {
				t.Fatalf("newer store: %v, want one line naming schema 99", err)
			}
			if after := fingerprint(t, a, db); after != before {
				t.Errorf("a refused store changed:\n%s\n%s", before, after)
			}
		})
	}
}

// rawDB is a plain connection to a's database, closed after the test.
func rawDB(t *testing.T, a history.Address) (*sql.DB, dialect) {
	t.Helper()
	var db *sql.DB
	var err error
	d := postgresDialect
	if a.Kind == history.KindSQLite {
		os.MkdirAll(filepath.Dir(a.Path), 0o755)
		db, err = sql.Open("sqlite", sqliteDSN(a.Path, "_pragma=busy_timeout(5000)"))
		d = sqliteDialect
	} else {
		db, err = sql.Open("pgx", a.DSN)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, d
}

// fingerprint is what a store holds: the bytes of a SQLite file, the
// rows and tables of a PostgreSQL database.
func fingerprint(t *testing.T, a history.Address, db *sql.DB) string {
	t.Helper()
	if a.Kind == history.KindSQLite {
		b, err := os.ReadFile(a.Path)
		if err != nil {
			t.Fatal(err)
		}
		wal, _ := os.ReadFile(a.Path + "-wal") // a write in WAL mode lands here first
		return fmtSum(b) + fmtSum(wal)
	}
	var s string
	err := db.QueryRow(`SELECT string_agg(table_name, ',' ORDER BY table_name) || ';' ||
		(SELECT string_agg(key || '=' || value, ',') FROM benchy_meta) || ';' ||
		(SELECT count(*) FROM benchy_points)::text FROM information_schema.tables WHERE table_schema = 'public'`).Scan(&s)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func fmtSum(b []byte) string {
	sum := sha256.Sum256(b)
	return string(sum[:])
}

// Files that are not a benchy history are refused and left alone: a
// result file, another program's SQLite database, a directory.
func TestSQLiteRefusesOthers(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	res := filepath.Join(dir, "result.json")
	data, _ := os.ReadFile(fixture)
	os.WriteFile(res, data, 0o644)
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE notes (x TEXT)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	otherBytes, _ := os.ReadFile(other)
	for path, want := range map[string]string{res: "not a SQLite database", other: "not a benchy history", dir: "not a regular file"} {
		_, err := Open(ctx, history.Address{Kind: history.KindSQLite, Path: path})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", filepath.Base(path), err, want)
		}
	}
	if b, _ := os.ReadFile(res); !bytes.Equal(b, data) {
		t.Error("the result file was changed")
	}
	if b, _ := os.ReadFile(other); !bytes.Equal(b, otherBytes) {
		t.Error("the other database was changed")
	}
}

// A file name with the characters a URI gives meaning to is a file name.
func TestSQLiteOddPath(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a?b#c%d.db")
	s := open(t, history.Address{Kind: history.KindSQLite, Path: p})
	if _, err := s.Add(context.Background(), []Record{record(t, loadFixture(t), historytest.Source(1))}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("the store is not at %s: %v", p, err)
	}
}
