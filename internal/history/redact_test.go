package history

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// pw is the password of these tests: it must appear nowhere.
const pw = "PWSECRET"

// An address is shown without its secrets, and one that cannot be read
// is not shown at all: where its password ends cannot be told.
func TestAddressHidesPasswords(t *testing.T) {
	for _, s := range []string{
		"postgres://ci:" + pw + "@db/bench",
		"postgres://ci@db/bench?sslmode=require&password=" + pw,
		"postgresql://db/bench?passfile=/" + pw + "&sslpassword=" + pw,
	} {
		a, err := ParseAddress(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if show := a.Show(); strings.Contains(show, pw) || !strings.Contains(show, "xxxxx") {
			t.Errorf("Show of %q = %q", s, show)
		}
	}
	for _, c := range []struct{ in, err string }{
		{"postgres://ci:pa%ZZss" + pw + "@db/bench", "store postgres://…: not a PostgreSQL URL: a % not followed by two hex digits"},
		{"postgres://ci:p@ss:w/rd" + pw + "@db/bench", "store postgres://…: not a PostgreSQL URL: a port that is not a number"},
		{"postgres://ci:5/w" + pw + "@db/bench", "store postgres://…: not a PostgreSQL URL: an @ after the host"},
		{"postgres://ci:p w" + pw + "@db/bench", "store postgres://…: not a PostgreSQL URL: a character the user name or password must percent-encode"},
		{"mysql://ci:" + pw + "@db/bench", "store mysql://ci:xxxxx@db/bench: unknown scheme"},
		// A PostgreSQL URL without its // is refused, not taken for a
		// file whose directories the password would name; none of it is
		// quoted.
		{"postgres:/ci:" + pw + "@db/bench", "store: a PostgreSQL address without ://"},
		{"postgres:ci:" + pw + "@db", "store: a PostgreSQL address without ://"},
		{"PostgreSQL:" + pw, "store: a PostgreSQL address without ://"},
		// A libpq key=value string is refused, not taken for a file.
		{"host=/tmp dbname=bench password=" + pw, "a key=value connection string"},
		{"bench.db password=" + pw, "a key=value connection string"},
	} {
		_, err := ParseAddress(c.in)
		if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), pw) {
			t.Errorf("%q: %v, want an error with %q, without the password", c.in, err, c.err)
		}
	}
}

// A connection that fails names the server without its password.
func TestConnectErrorHidesPassword(t *testing.T) {
	a, err := ParseAddress("postgres://ci:" + pw + "@/bench?host=" + filepath.Join(t.TempDir(), "nosocket") + "&password=" + pw + "&connect_timeout=5")
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
			if a.Kind == KindPostgres {
				// The tests' server trusts its users: the password is
				// accepted and ignored.
				a.DSN = strings.Replace(a.DSN, "postgres@", "postgres:"+pw+"@", 1) + "&password=" + pw
			}
			r := loadFixture(t)
			r.Command = []string{"benchy", "run", "--store", a.DSN, "--store=postgres://u:" + pw + "@h/db"}
			rec, _, err := Save(context.Background(), a, r, commitSource(1))
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
