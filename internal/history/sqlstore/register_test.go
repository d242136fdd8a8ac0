package sqlstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	// The tests open both kinds of store, as store/sqlite and
	// store/postgres let a program do (which these tests cannot import:
	// they import the history).
	_ "modernc.org/sqlite"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/historytest"
	"github.com/benchy-dev/benchy/internal/pgconnect"
)

func init() {
	RegisterSQLite()
	RegisterPostgres(pgconnect.Open)
}

// A kind of store no package registered is refused with the package to
// import, and nothing is created.
func TestOpenUnregistered(t *testing.T) {
	openersMu.Lock()
	saved := openers[history.KindSQLite]
	delete(openers, history.KindSQLite)
	openersMu.Unlock()
	defer register(history.KindSQLite, saved)
	path := filepath.Join(t.TempDir(), "sub", "h.db")
	s, err := Open(context.Background(), history.Address{Kind: history.KindSQLite, Path: path})
	if err == nil {
		s.Close()
		t.Fatal("opened a store no package registered")
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, `import _ "github.com/benchy-dev/benchy/store/sqlite"`) {
		t.Errorf("error %q: want the store and the package to import", msg)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: %v, want nothing created", filepath.Dir(path), err)
	}
}

// Linking the SQL store gives the commands' --store its storage: the
// check creates the store, and a result saved through the hook is stored
// once, under its machine's identity, in both kinds of store.
func TestStorageRegistered(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			a := k.addr(t)
			if err := history.CheckStore(ctx, a); err != nil {
				t.Fatal(err)
			}
			r := loadFixture(t)
			for i, want := range []bool{true, false} {
				machine, added, err := history.SaveResult(ctx, a, r, historytest.Source(1))
				if err != nil || added != want || machine != Identify(r).ID {
					t.Errorf("save %d: machine %q, added %v, %v; want %q, %v", i+1, machine, added, err, Identify(r).ID, want)
				}
			}
			rows, _, err := open(t, a).Rows(ctx, "")
			if err != nil || len(rows) == 0 || rows[0].Source.Commit != historytest.Hash(1) {
				t.Errorf("rows %v, %v: want the saved result's", rows, err)
			}
		})
	}
}
