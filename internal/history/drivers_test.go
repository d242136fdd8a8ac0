package history

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	// The history links no driver; its tests take both, as benchy does.
	_ "github.com/benchy-dev/benchy/store/postgres"
	_ "github.com/benchy-dev/benchy/store/sqlite"
)

// Each kind of store names the driver its package registers: a program
// that imports the package Open names can open the store.
func TestDriversRegisteredByTheirPackages(t *testing.T) {
	for _, kind := range []string{KindSQLite, KindPostgres} {
		d, ok := drivers[kind]
		if !ok {
			t.Errorf("%s: no driver named", kind)
			continue
		}
		if !slices.Contains(sql.Drivers(), d.name) {
			t.Errorf("%s: importing %s registered no %q driver (registered: %v)", kind, d.pkg, d.name, sql.Drivers())
		}
	}
}

// Without its driver, Open refuses the store with the package to import,
// and creates nothing.
func TestOpenWithoutDriver(t *testing.T) {
	saved := drivers[KindSQLite]
	drivers[KindSQLite] = struct{ name, what, pkg string }{"no-such-driver", "SQLite", saved.pkg}
	defer func() { drivers[KindSQLite] = saved }()
	path := filepath.Join(t.TempDir(), "sub", "h.db")
	s, err := Open(context.Background(), Address{Kind: KindSQLite, Path: path})
	if err == nil {
		s.Close()
		t.Fatal("opened a store without its driver")
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, `import _ "github.com/benchy-dev/benchy/store/sqlite"`) {
		t.Errorf("error %q: want the store and the package to import", msg)
	}
	if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: %v, want nothing created", filepath.Dir(path), err)
	}
}
