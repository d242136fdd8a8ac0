package history

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
	saved := openers[KindSQLite]
	delete(openers, KindSQLite)
	openersMu.Unlock()
	defer register(KindSQLite, saved)
	path := filepath.Join(t.TempDir(), "sub", "h.db")
	s, err := Open(context.Background(), Address{Kind: KindSQLite, Path: path})
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
