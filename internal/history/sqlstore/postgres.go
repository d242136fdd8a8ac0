package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/redact"
)

// postgresDialect is PostgreSQL's SQL. A migration takes a lock of the
// transaction first (any number of CI runners may open a new database at
// once); 0x62656e6368 is "bench".
var postgresDialect = dialect{blob: "BYTEA", rebind: dollars, lock: `SELECT pg_advisory_xact_lock(423341581160)`}

// connectTimeout bounds reaching the server: a store that cannot be
// reached fails the command rather than hang a CI job.
const connectTimeout = 20 * time.Second

// statementTimeout bounds each statement of a session, unless the
// connection string sets statement_timeout itself: a table another
// session holds locked fails the command rather than hang it (and a CI
// job) forever. A migration of a large store is the longest statement
// benchy sends.
var statementTimeout = time.Minute

// PostgresConnector opens a pool of connections to the database dsn
// names, each session with the run-time parameters params where dsn does
// not set them itself. store/postgres gives pgx's (pgconnect), so the
// store links no driver (RegisterPostgres).
type PostgresConnector func(dsn string, params map[string]string) (*sql.DB, error)

// openPostgres opens the history in the PostgreSQL database a names,
// creating its tables (benchy_*) or upgrading them. A newer schema is
// refused before anything is written. With read, a database without the
// tables is a *MissingError, and every transaction is read-only (an older
// schema is still upgraded, in a session of its own).
func openPostgres(ctx context.Context, a history.Address, read bool, connect PostgresConnector) (Store, error) {
	params := map[string]string{"statement_timeout": fmt.Sprint(statementTimeout.Milliseconds())}
	if read {
		params["default_transaction_read_only"] = "on"
	}
	db, err := connect(a.DSN, params)
	if err != nil {
		return nil, pgError(a, "", err)
	}
	cctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := db.PingContext(cctx); err != nil {
		db.Close()
		return nil, pgError(a, "cannot connect: ", err)
	}
	var exists bool
	if err := db.QueryRowContext(ctx, `SELECT to_regclass('benchy_meta') IS NOT NULL`).Scan(&exists); err != nil {
		db.Close()
		return nil, pgError(a, "", err)
	}
	v := 0
	if exists {
		if v, err = readVersion(ctx, db); err != nil {
			db.Close()
			return nil, pgError(a, "", err)
		}
		if v > SchemaVersion {
			db.Close()
			return nil, newerError(a.Show(), v)
		}
	}
	if read && !exists {
		db.Close()
		return nil, &MissingError{Store: a.Show()}
	}
	if read && v < SchemaVersion {
		db.Close()
		return openPostgres(ctx, a, false, connect)
	}
	if read {
		return &sqlStore{db: db, d: postgresDialect, show: a.Show()}, nil
	}
	if err := migrate(ctx, db, postgresDialect, a.Show()); err != nil {
		db.Close()
		return nil, wrap(a.Show(), err)
	}
	return &sqlStore{db: db, d: postgresDialect, show: a.Show()}, nil
}

// pgError names the store in err without its secrets, and masks those the
// driver's message may quote (pgx quotes a connection string it cannot
// read, with a redaction of its own that guesses on malformed ones).
func pgError(a history.Address, what string, err error) error {
	return fmt.Errorf("%s: %s%s", a.Show(), what, redact.String(err.Error()))
}
