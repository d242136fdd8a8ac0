package history

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// This package's tests link no store: --store names the package that
// registers each kind, and refuses a kind no package registers.
func TestNoStorage(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		a    Address
		want string
	}{
		{Address{Kind: KindSQLite, Path: "/nowhere/h.db"}, `/nowhere/h.db: this program has no SQLite store: import _ "github.com/benchy-dev/benchy/store/sqlite" in its main package`},
		{Address{Kind: KindPostgres, DSN: "postgres://ci:secret@db/bench"}, `postgres://ci:xxxxx@db/bench: this program has no PostgreSQL store: import _ "github.com/benchy-dev/benchy/store/postgres" in its main package`},
		{Address{Kind: "mysql"}, `unknown store kind "mysql"`},
	} {
		if err := CheckStore(ctx, c.a); err == nil || err.Error() != c.want {
			t.Errorf("CheckStore(%+v): %v, want %s", c.a, err, c.want)
		}
		if _, _, err := SaveResult(ctx, c.a, &result.Result{}, Source{Commit: "c"}); err == nil || err.Error() != c.want {
			t.Errorf("SaveResult(%+v): %v, want %s", c.a, err, c.want)
		}
	}
}

// fakeStorage records what it is asked.
type fakeStorage struct{ calls []string }

func (f *fakeStorage) Check(_ context.Context, a Address) error {
	f.calls = append(f.calls, "check "+a.Path)
	return errors.New("checked")
}

func (f *fakeStorage) Save(_ context.Context, a Address, r *result.Result, src Source) (string, bool, error) {
	f.calls = append(f.calls, "save "+a.Path+" "+r.Tool+" "+src.Commit)
	return "m1", true, nil
}

// A registered storage gets the commands' checks and saves as they are.
func TestRegisteredStorage(t *testing.T) {
	f := &fakeStorage{}
	RegisterStorage(f)
	defer RegisterStorage(nil)
	ctx := context.Background()
	a := Address{Kind: KindSQLite, Path: "h.db"}
	if err := CheckStore(ctx, a); err == nil || err.Error() != "checked" {
		t.Errorf("CheckStore: %v, want the storage's error", err)
	}
	machine, added, err := SaveResult(ctx, a, &result.Result{Tool: "benchy run"}, Source{Commit: "c1"})
	if machine != "m1" || !added || err != nil {
		t.Errorf("SaveResult: %q, %v, %v; want the storage's answer", machine, added, err)
	}
	if got := strings.Join(f.calls, "; "); got != "check h.db; save h.db benchy run c1" {
		t.Errorf("calls %q", got)
	}
}
