// Package sqlite lets a program built on benchy keep its results in a
// SQLite file: `run --store FILE.db`. Import it for its side effect, as a
// database/sql driver is imported:
//
//	import (
//		"github.com/benchy-dev/benchy"
//		_ "github.com/benchy-dev/benchy/store/sqlite"
//	)
//
// A program that does not import it links neither SQLite nor the history's
// SQL (SQLite alone was more than half the size of such a program); asked
// for a SQLite store, it says which package to import and exits 2. The
// driver is modernc.org/sqlite, pure Go, so the program still builds
// without cgo for macOS and Windows.
package sqlite

import (
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver the store opens

	"github.com/benchy-dev/benchy/internal/history/sqlstore"
)

func init() { sqlstore.RegisterSQLite() }
