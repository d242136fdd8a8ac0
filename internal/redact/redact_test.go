package redact

import (
	"slices"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"postgres://ci:PW@db/bench", "postgres://ci:xxxxx@db/bench"},
		{"postgres://ci@db/bench?sslmode=require&password=PW", "postgres://ci@db/bench?sslmode=require&password=xxxxx"},
		{"POSTGRESQL://db/b?passfile=/home/PW&sslpassword=PW&application_name=x", "postgresql://db/b?passfile=xxxxx&sslpassword=xxxxx&application_name=x"},
		{"postgres://db/b?pass%77ord=PW", "postgres://db/b?pass%77ord=xxxxx"},
		{"postgres://db/b?pa%ZZss=PW", "postgres://db/b?pa%ZZss=xxxxx"},
		{"postgres://ci@db/bench", "postgres://ci@db/bench"},
		// A URL that does not parse shows nothing after its scheme.
		{"postgres://u:pa%ZZssPW@h/db", "postgres://…"},
		{"postgres://u:p@ssPW:w/rd@h/db", "postgres://…"},
		{"postgres://u:p ssPW@h/db", "postgres://…"},
		// libpq key=value strings, quoted and not.
		{"host=/tmp user=ci password=PW dbname=b", "host=/tmp user=ci password=xxxxx dbname=b"},
		{"host=h password = 'P W\\' PW' sslpassword=PW\\ PW passfile=PW", "host=h password = 'xxxxx' sslpassword=xxxxx passfile=xxxxx"},
		{"password='unterminated PW", "password='xxxxx'"},
		// Inside a longer text, as a command line or an error holds them.
		{"cannot parse `postgres://u:PW@h/db?password=PW`: bad", "cannot parse `postgres://u:xxxxx@h/db?password=xxxxx`: bad"},
		{"psql 'host=h PASSWORD=PW' -c 'select 1'", "psql 'host=h PASSWORD=xxxxx -c 'select 1'"},
		{"mypassword=kept.db", "mypassword=kept.db"},
		{"plain text", "plain text"},
	} {
		got := String(c.in)
		if got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if strings.Contains(got, "PW") {
			t.Errorf("String(%q) = %q shows the password", c.in, got)
		}
		// Masking twice changes nothing: a result's names are masked as
		// it is made and again as it is read, and must still match.
		if again := String(got); again != got {
			t.Errorf("String(%q) = %q, but String(%q) = %q", c.in, got, got, again)
		}
	}
}

func TestArgs(t *testing.T) {
	in := []string{"benchy", "exec", "--store", "postgres://u:PW@h/db", "--store=postgres://u:P W@h/db", "-password=PW", "--out", "r.json", "sh", "-c", "psql postgres://u:PW@h/db"}
	want := []string{"benchy", "exec", "--store", "postgres://u:xxxxx@h/db", "--store=postgres://…", "-password=xxxxx", "--out", "r.json", "sh", "-c", "psql postgres://u:xxxxx@h/db"}
	if got := Args(in); !slices.Equal(got, want) {
		t.Errorf("Args:\n got %q\nwant %q", got, want)
	}
	if in[3] != "postgres://u:PW@h/db" {
		t.Error("Args changed its input")
	}
	if Args(nil) != nil {
		t.Error("Args(nil) is not nil")
	}
}

func TestIsKeyValue(t *testing.T) {
	for s, want := range map[string]bool{
		"host=/tmp dbname=b":  true,
		" dbname = b":         true,
		"DBNAME=b":            true,
		"a.db password=x":     true,
		"history.db":          false,
		"runs=3.db":           false,
		"dir/x=y.db":          false,
		"postgres://h/db":     false,
		"mypassword=kept.db":  false,
		"sslpassword=x":       true,
		"user=ci@example.com": true,
	} {
		if got := IsKeyValue(s); got != want {
			t.Errorf("IsKeyValue(%q) = %v, want %v", s, got, want)
		}
	}
}

// Whatever the password, given in a URL's user or query or after a
// libpq password=, it never comes back.
func FuzzString(f *testing.F) {
	f.Add("SECRETPW")
	f.Add("p%ZZss")
	f.Add("p@ss:w/rd")
	f.Fuzz(func(t *testing.T, pw string) {
		if len(pw) < 4 || strings.Contains(Mask, pw) || strings.ContainsAny(pw, " \t\n\r\f\v'\\&#`\"") {
			return // a password too short to tell from the rest; separators are quoted
		}
		for _, format := range []string{"postgres://u:%s@h/db", "postgres://h/db?sslmode=x&password=%s", "host=h password=%s dbname=d", "x password='%s' y", "see postgres://u:%s@h/db here"} {
			in := strings.Replace(format, "%s", pw, 1)
			if got := String(in); strings.Contains(got, pw) {
				t.Errorf("String(%q) = %q shows %q", in, got, pw)
			} else if again := String(got); again != got {
				t.Errorf("String(%q) = %q, masked again %q", in, got, again)
			}
		}
	})
}
