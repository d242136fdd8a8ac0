package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/benchy-dev/benchy/internal/redact"
)

// postgresDialect is PostgreSQL's SQL. A migration takes a lock of the
// transaction first (any number of CI runners may open a new database at
// once); 0x62656e6368 is "bench".
var postgresDialect = dialect{blob: "BYTEA", rebind: dollars, lock: `SELECT pg_advisory_xact_lock(423341581160)`}

// connectTimeout bounds reaching the server: a store that cannot be
// reached fails the command rather than hang a CI job.
const connectTimeout = 20 * time.Second

// openPostgres opens the history in the PostgreSQL database a names,
// creating its tables (benchy_*) or upgrading them. A newer schema is
// refused before anything is written.
func openPostgres(ctx context.Context, a Address) (Store, error) {
	db, err := sql.Open("pgx", a.DSN)
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
	if exists {
		v, err := readVersion(ctx, db)
		if err != nil {
			db.Close()
			return nil, pgError(a, "", err)
		}
		if v > SchemaVersion {
			db.Close()
			return nil, newerError(a.Show(), v)
		}
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
func pgError(a Address, what string, err error) error {
	return fmt.Errorf("%s: %s%s", a.Show(), what, redact.String(err.Error()))
}
