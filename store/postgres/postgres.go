// Package postgres lets a program built on benchy keep its results in a
// PostgreSQL database: `--store postgres://…` (or BENCHY_STORE). Import it
// for its side effect, as a database/sql driver is imported:
//
//	import (
//		"github.com/benchy-dev/benchy"
//		_ "github.com/benchy-dev/benchy/store/postgres"
//	)
//
// A program that does not import it links neither a PostgreSQL driver nor
// the history's SQL; asked for such a store, it says which package to
// import and exits 2. The driver is github.com/jackc/pgx (its database/sql
// adapter).
package postgres

import (
	"github.com/benchy-dev/benchy/internal/history/sqlstore"
	"github.com/benchy-dev/benchy/internal/pgconnect"
)

func init() { sqlstore.RegisterPostgres(pgconnect.Open) }
