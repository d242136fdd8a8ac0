package history

import (
	"strings"
	"testing"
)

func TestParseAddress(t *testing.T) {
	for _, c := range []struct{ in, kind, err string }{
		{"history.db", KindSQLite, ""},
		{"/var/lib/benchy/h.db", KindSQLite, ""},
		{"C:/odd:name.db", KindSQLite, ""},
		{"postgres://ci@db.example/bench", KindPostgres, ""},
		{"postgresql://ci:secret@db/bench?sslmode=require", KindPostgres, ""},
		{"POSTGRES://db/bench", KindPostgres, ""},
		{"mysql://db/bench", "", "unknown scheme mysql://"},
		{"sqlite://h.db", "", "as a path"},
		{"postgres://db:notaport/x", "", "not a PostgreSQL URL"},
		{"", "", "empty store address"},
		{"  ", "", "empty store address"},
	} {
		a, err := ParseAddress(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: %v, want an error with %q", c.in, err, c.err)
		case c.err == "" && (err != nil || a.Kind != c.kind):
			t.Errorf("%q: %+v, %v; want kind %s", c.in, a, err, c.kind)
		}
	}
	a, _ := ParseAddress("postgres://ci:secret@db/bench")
	if strings.Contains(a.Show(), "secret") {
		t.Errorf("Show %q holds the password", a.Show())
	}
}

func TestResolve(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		flag string
		env  map[string]string
		want string
	}{
		{"x.db", map[string]string{"BENCHY_STORE": "y.db"}, "x.db"},
		{"", map[string]string{"BENCHY_STORE": "y.db", "XDG_DATA_HOME": "/d"}, "y.db"},
		{"", map[string]string{"XDG_DATA_HOME": "/d", "HOME": "/h"}, "/d/benchy/history.db"},
		{"", map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/h"}, "/h/.local/share/benchy/history.db"},
		{"", map[string]string{"HOME": "/h"}, "/h/.local/share/benchy/history.db"},
	} {
		a, err := Resolve(c.flag, env(c.env))
		if err != nil || a.Path != c.want {
			t.Errorf("Resolve(%q, %v) = %q, %v; want %q", c.flag, c.env, a.Path, err, c.want)
		}
	}
	if _, err := Resolve("", env(nil)); err == nil {
		t.Error("no HOME, no store: no error")
	}
}

// Whatever a user types, ParseAddress answers with an address or one
// line of error, and never panics.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"h.db", "postgres://u:p@h:5432/d?sslmode=disable", "x://y", "postgres://[::1", "://", "a:b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAddress(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: a multi-line error", s)
			}
			return
		}
		if a.Kind == KindSQLite && a.Path != s || a.Kind == KindPostgres && a.DSN != s {
			t.Errorf("%q: %+v does not keep the address", s, a)
		}
		_ = a.Show()
	})
}
