package sqlstore

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/historytest"
)

// pw is the password of these tests: it must appear nowhere.
const pw = "PWSECRET"

// A connection that fails names the server without its password.
func TestConnectErrorHidesPassword(t *testing.T) {
	a, err := history.ParseAddress("postgres://ci:" + pw + "@/bench?host=" + filepath.Join(t.TempDir(), "nosocket") + "&password=" + pw + "&connect_timeout=5")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(context.Background(), a)
	if err == nil || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "cannot connect") {
		t.Errorf("Open: %v, want a connection error without the password", err)
	}
}

// A result whose command line holds a store's password (written by a
// program that did not mask it) is stored without it, in both stores.
func TestStoredBodyHidesPassword(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			a := k.addr(t)
			if a.Kind == history.KindPostgres {
				// The tests' server trusts its users: the password is
				// accepted and ignored.
				a.DSN = strings.Replace(a.DSN, "postgres@", "postgres:"+pw+"@", 1) + "&password=" + pw
			}
			r := loadFixture(t)
			r.Command = []string{"benchy", "run", "--store", a.DSN, "--store=postgres://u:" + pw + "@h/db"}
			rec, _, err := Save(context.Background(), a, r, historytest.Source(1))
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(rec.Body))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(zr)
			if strings.Contains(string(body), pw) || !strings.Contains(string(body), "xxxxx") {
				t.Errorf("the stored body shows the password, or no masked command")
			}
			s := open(t, a)
			back, err := s.Result(context.Background(), rec.Hash)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(strings.Join(back.Command, " "), pw) || strings.Contains(s.Show(), pw) {
				t.Errorf("command %q, store %s: the password shows", back.Command, s.Show())
			}
		})
	}
}
