package history

import (
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
