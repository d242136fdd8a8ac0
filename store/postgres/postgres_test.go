package postgres_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/sqlstore"
	_ "github.com/benchy-dev/benchy/store/postgres"
)

// Importing the package is what lets a program open a PostgreSQL store:
// with no server at the address, the error is the connection's, not a
// missing store package.
func TestImportRegistersPostgres(t *testing.T) {
	dsn := "postgres://benchy@/benchy?host=" + filepath.Join(t.TempDir(), "no-server")
	s, err := sqlstore.Open(context.Background(), history.Address{Kind: history.KindPostgres, DSN: dsn})
	if err == nil {
		s.Close()
		t.Fatal("opened a store where no server listens")
	}
	if strings.Contains(err.Error(), "has no PostgreSQL store") || !strings.Contains(err.Error(), "cannot connect") {
		t.Errorf("error %q: want a connection's", err)
	}
}
