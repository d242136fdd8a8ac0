package sqlstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/historytest"
)

// A read of a store that does not exist creates nothing: not the file,
// not its directory, not the tables of an empty PostgreSQL database.
func TestOpenReadNeverCreates(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			a := k.addr(t)
			_, err := OpenRead(context.Background(), a)
			var me *MissingError
			if !errors.As(err, &me) || !strings.Contains(err.Error(), a.Show()) {
				t.Fatalf("OpenRead of no store: %v, want a MissingError naming %s", err, a.Show())
			}
			if a.Kind == history.KindSQLite {
				if _, err := os.Stat(filepath.Dir(a.Path)); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the read made %s (%v)", filepath.Dir(a.Path), err)
				}
				return
			}
			db, _ := rawDB(t, a)
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'`).Scan(&n); err != nil || n != 0 {
				t.Errorf("the read made %d tables (%v)", n, err)
			}
		})
	}
}

// storedFile is a SQLite store in WAL mode holding the fixture, closed,
// with nothing beside it.
func storedFile(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "h.db")
	s, err := Open(context.Background(), history.Address{Kind: history.KindSQLite, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Add(context.Background(), []Record{record(t, loadFixture(t), historytest.Source(1))}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := sidecars(t, path); len(got) > 0 {
		t.Fatalf("a closed store has %v beside it", got)
	}
	return path
}

// sidecars are the files SQLite made beside path.
func sidecars(t *testing.T, path string) []string {
	t.Helper()
	var out []string
	for _, ext := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Lstat(path + ext); err == nil {
			out = append(out, filepath.Base(path+ext))
		}
	}
	return out
}

// A read reads and writes nothing: the file keeps its bytes, no -wal or
// -shm is left beside it, and the store it gives refuses a write.
func TestOpenReadLeavesNothing(t *testing.T) {
	ctx := context.Background()
	path := storedFile(t, t.TempDir())
	before, _ := os.ReadFile(path)
	s, err := OpenRead(ctx, history.Address{Kind: history.KindSQLite, Path: path})
	if err != nil {
		t.Fatal(err)
	}
	rows, _, err := s.Rows(ctx, "")
	if err != nil || len(rows) == 0 {
		t.Fatalf("Rows: %d, %v", len(rows), err)
	}
	if _, err := s.Add(ctx, []Record{record(t, scaled(t, 2, 1), historytest.Source(2))}); err == nil {
		t.Error("a store opened to read took a write")
	}
	s.Close()
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a read changed the file")
	}
	if got := sidecars(t, path); len(got) > 0 {
		t.Errorf("a read left %v", got)
	}
}

// A store in WAL mode whose pages are damaged is refused by a read and by
// a write, and left as it was: its bytes, and nothing made beside it.
func TestRefusedCorruptStoreLeavesNothing(t *testing.T) {
	path := storedFile(t, t.TempDir())
	b, _ := os.ReadFile(path)
	if b[18] != 2 || b[19] != 2 {
		t.Fatalf("the store is not in WAL mode (header %d %d)", b[18], b[19])
	}
	for i := 100; i < len(b); i++ { // the header says WAL and a size; every page after it is noise
		b[i] = byte(i*7 + 3)
	}
	os.WriteFile(path, b, 0o644)
	for name, open := range map[string]func(context.Context, history.Address) (Store, error){"Open": Open, "OpenRead": OpenRead} {
		s, err := open(context.Background(), history.Address{Kind: history.KindSQLite, Path: path})
		if err == nil {
			s.Close()
			t.Errorf("%s: a damaged store was opened", name)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(b, after) {
			t.Errorf("%s: the refused store changed", name)
		}
		if got := sidecars(t, path); len(got) > 0 {
			t.Errorf("%s (%v) left %v", name, err, got)
		}
	}
}

// envRead makes the test binary a reader of the store it names
// (readAsChild), run as another user by TestOpenReadAsAnotherUser.
const envRead = "BENCHY_TEST_READ_STORE"

// readAsChild reads the store at path with OpenRead and says what it
// read: the number of rows, or the error.
func readAsChild(path string, stdout io.Writer) int {
	ctx := context.Background()
	s, err := OpenRead(ctx, history.Address{Kind: history.KindSQLite, Path: path})
	if err != nil {
		fmt.Fprintln(stdout, err)
		return 1
	}
	defer s.Close()
	rows, _, err := s.Rows(ctx, "")
	if err != nil {
		fmt.Fprintln(stdout, err)
		return 1
	}
	fmt.Fprintf(stdout, "%d rows\n", len(rows))
	return 0
}

// A user who may not write the store, nor (second case) its directory,
// as on read-only media, reads it, and leaves nothing beside it: no -shm
// or -wal of their own, which would be made with the database's mode
// (0444) and fail every later writer. Root may write every file, so the
// reader is run as nobody.
func TestOpenReadAsAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run a reader as another user")
	}
	top, err := os.MkdirTemp("", "benchy-read")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	self, _ := os.Executable()
	bin := filepath.Join(top, "history.test")
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(top, 0o755)
	for _, c := range []struct {
		name    string
		dirMode os.FileMode
	}{
		{"the directory writable", 0o777},
		{"the directory read-only", 0o555},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir, err := os.MkdirTemp(top, "store")
			if err != nil {
				t.Fatal(err)
			}
			path := storedFile(t, dir)
			os.Chmod(path, 0o444)
			os.Chmod(dir, c.dirMode)
			before, _ := os.ReadFile(path)
			var out bytes.Buffer
			cmd := exec.Command(bin, "-test.run=^$")
			cmd.Env = append(os.Environ(), envRead+"="+path)
			cmd.Stdout, cmd.Stderr = &out, &out
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
			err = cmd.Run()
			if err != nil || !strings.HasSuffix(out.String(), " rows\n") || strings.HasPrefix(out.String(), "0 ") {
				t.Errorf("the reader: %v\n%s", err, out.String())
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Error("a read changed the file")
			}
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if !slices.Equal(names, []string{"h.db"}) {
				t.Errorf("after the read the directory holds %v, want only h.db", names)
			}
		})
	}
}

// A store opened to read refuses a write, on either kind of store.
func TestOpenReadRefusesWrites(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			ctx := context.Background()
			a := k.addr(t)
			open(t, a).Close()
			s, err := OpenRead(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Add(ctx, []Record{record(t, loadFixture(t), historytest.Source(1))}); err == nil {
				t.Error("a store opened to read took a write")
			}
			if rows, _, err := s.Rows(ctx, ""); err != nil || len(rows) != 0 {
				t.Errorf("Rows after a refused write: %d, %v", len(rows), err)
			}
		})
	}
}

// A table another session holds locked fails a statement after the
// statement timeout, rather than hang the command.
func TestPostgresStatementTimeout(t *testing.T) {
	a := history.Address{Kind: history.KindPostgres, DSN: pgDSN(t)}
	open(t, a).Close()
	old := statementTimeout
	statementTimeout = 300 * time.Millisecond
	t.Cleanup(func() { statementTimeout = old })
	db, _ := rawDB(t, a)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`LOCK TABLE benchy_points IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	s, err := OpenRead(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The guard only ends the test: without a timeout of its own the
	// read waits for the lock until then.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, _, err := s.Rows(ctx, ""); err == nil || !strings.Contains(err.Error(), "statement timeout") {
		t.Errorf("Rows of a locked table: %v, want the statement timeout", err)
	}
}
