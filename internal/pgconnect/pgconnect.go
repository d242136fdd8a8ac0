// Package pgconnect opens PostgreSQL through pgx's database/sql adapter
// with run-time parameters set in every session: the SQL store's
// PostgresConnector (sqlstore), apart from it so that only a program that
// asks for a PostgreSQL store (store/postgres) links pgx.
package pgconnect

import (
	"database/sql"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Open opens a pool for dsn, each session with params where dsn does not
// set them itself.
func Open(dsn string, params map[string]string) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	for k, v := range params {
		if _, ok := cfg.RuntimeParams[k]; !ok {
			cfg.RuntimeParams[k] = v
		}
	}
	return stdlib.OpenDB(*cfg), nil
}
