package sqlstore

import (
	"os"
	"testing"

	"github.com/benchy-dev/benchy/internal/history/pgtest"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(envRead); path != "" {
		os.Exit(readAsChild(path, os.Stdout))
	}
	code := m.Run()
	pgtest.Stop()
	os.Exit(code)
}

// pgDSN is the address of a new, empty database on the tests' server.
func pgDSN(t testing.TB) string { return pgtest.DSN(t) }
