// Package history keeps results across commits and reads them back: the
// store (SQLite or PostgreSQL through database/sql; the public store
// packages register each kind), the records and points stored, the series
// of a benchmark on a machine, their steps and the suspects to confirm,
// and the source a result measured (its git commit, or the build's).
package history
