package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
)

// A new store whose file another connection holds locked (a process
// that made it a moment before and is still switching it to WAL, or
// migrating it) is opened when the lock goes, not refused with
// SQLITE_BUSY.
func TestOpenWaitsForALockedNewStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	db, err := sql.Open("sqlite", sqliteDSN(path, "_pragma=busy_timeout(5000)"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "PRAGMA user_version = 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		t.Fatal(err)
	}
	var v int
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&v); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(500 * time.Millisecond)
		conn.ExecContext(ctx, "COMMIT")
		conn.Close()
	}()
	start := time.Now()
	s, err := Open(ctx, history.Address{Kind: history.KindSQLite, Path: path})
	if err != nil {
		t.Fatalf("after %v: %v", time.Since(start).Round(time.Millisecond), err)
	}
	s.Close()
}

// retryBusy runs again what failed with SQLITE_BUSY, up to its limit,
// and nothing else.
func TestRetryBusy(t *testing.T) {
	ctx := context.Background()
	busy := errors.New("database is locked (5) (SQLITE_BUSY)")
	calls := 0
	err := retryBusy(ctx, time.Minute, func() error {
		calls++
		if calls < 3 {
			return busy
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Errorf("busy twice: %v after %d calls, want nil after 3", err, calls)
	}
	calls = 0
	other := errors.New("no such table")
	if err := retryBusy(ctx, time.Minute, func() error { calls++; return other }); err != other || calls != 1 {
		t.Errorf("another error: %v after %d calls, want it at once", err, calls)
	}
	calls = 0
	if err := retryBusy(ctx, 50*time.Millisecond, func() error { calls++; return busy }); err != busy || calls < 2 {
		t.Errorf("busy throughout: %v after %d calls, want busy after a few", err, calls)
	}
}
