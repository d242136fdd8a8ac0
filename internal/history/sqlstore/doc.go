// Package sqlstore is the history's store: SQLite or PostgreSQL through
// database/sql (the public packages store/sqlite and store/postgres
// register each kind, with its driver), the schema and its migrations, the
// records stored (a result's hash, its gzipped body, the machine's
// identity and the points derived from it), saving a result, reading the
// rows back, and the suspects a check re-measures. It is apart from the
// series and their steps (package history) so that a program that stores
// nothing links no SQL, SHA-256 or gzip: linking it registers the
// history.Storage that --store uses.
package sqlstore
