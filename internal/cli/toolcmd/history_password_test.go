package toolcmd

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/pgtest"
	"github.com/benchy-dev/benchy/internal/history/sqlstore"

	"github.com/benchy-dev/benchy/internal/cli"
)

// A PostgreSQL store's password, in the URL's user or its query, appears
// in nothing benchy writes or prints: the result file's command, the
// "stored in" line, the stored result, report --format json, the history
// page's header.
func TestStorePasswordNeverShown(t *testing.T) {
	const pw = "PWSECRET"
	// The tests' server trusts its users: the password is accepted and
	// ignored.
	dsn := strings.Replace(pgtest.DSN(t), "postgres@", "postgres:"+pw+"@", 1) + "&password=" + pw
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	shown := func(what, s string) {
		t.Helper()
		if strings.Contains(s, pw) {
			t.Errorf("%s shows the password:\n%s", what, s)
		}
	}
	stdout, stderr, code := runBinary(t, "exec", "--window", "10ms", "--runs", "3", "--out", out, "--store", dsn, "true")
	if code != 0 || !strings.Contains(stderr, "stored in postgres://postgres:xxxxx@/") {
		t.Fatalf("exec: exit %d, stderr %s", code, stderr)
	}
	shown("exec's output", stdout+stderr)
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	shown("the result file", string(file))
	if !strings.Contains(string(file), `"postgres://postgres:xxxxx@`) {
		t.Errorf("the result's command does not name the store, masked:\n%.600s", file)
	}
	js, _, code := runBinary(t, "report", "--format", "json", out)
	if code != 0 {
		t.Fatalf("report: exit %d", code)
	}
	shown("report --format json", js)
	html, errs, code := runHistory("show", "--store", dsn, "--format", "html")
	if code != 0 || !strings.Contains(html, "postgres://postgres:xxxxx@/") {
		t.Errorf("history show --format html: exit %d, %s, header without the store:\n%.800s", code, errs, html)
	}
	shown("history show --format html", html+errs)
	s, err := sqlstore.Open(context.Background(), history.Address{Kind: history.KindPostgres, DSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, _, err := s.Rows(context.Background(), "")
	if err != nil || len(rows) == 0 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	r, err := s.Result(context.Background(), rows[0].Hash)
	if err != nil {
		t.Fatal(err)
	}
	shown("the stored result's command", strings.Join(r.Command, " "))
}

// A store address that cannot be used is refused with one line (exit 2)
// that shows no password: a server that does not answer, a URL that does
// not parse, a libpq key=value string (which must not become a file named
// with the password either).
func TestStoreErrorsHidePassword(t *testing.T) {
	const pw = "PWSECRET"
	dir := t.TempDir()
	for _, store := range []string{
		"postgres://u:" + pw + "@/db?host=" + filepath.Join(dir, "nosocket") + "&sslpassword=" + pw,
		"postgres://u:pa%ZZss" + pw + "@h/db",
		"postgres://u:p@ss:w/rd" + pw + "@h/db",
		"host=" + dir + " dbname=db password=" + pw,
	} {
		for _, cmd := range []string{"show", "check"} {
			_, errs, code := runHistory(cmd, "--store", store)
			if code != cli.ExitUsage || strings.Contains(errs, pw) || strings.Count(errs, "\n") != 1 {
				t.Errorf("history %s --store %q: exit %d, %q; want exit 2, one line without the password", cmd, store, code, errs)
			}
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files made: %v", left)
	}
	// A PostgreSQL URL without its //, relative to the directory benchy
	// runs in, makes no directory named with the password either.
	for _, store := range []string{"postgres:/u:" + pw + "@h/db", "POSTGRESQL:u:" + pw + "@h"} {
		_, errs, code := runBinaryIn(t, dir, "history", "show", "--store", store)
		if code != cli.ExitUsage || strings.Contains(errs, pw) || strings.Count(errs, "\n") != 1 {
			t.Errorf("history show --store %q: exit %d, %q; want exit 2, one line without the password", store, code, errs)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("files made: %v", left)
	}
}

// exec names each experiment after its command line: a password in it is
// masked in the table, the result file and the history (a SQLite store
// here: the name is the same whatever the store).
func TestExecNamePasswordNeverShown(t *testing.T) {
	const pw = "PWSECRET"
	dir := t.TempDir()
	out, store := filepath.Join(dir, "r.json"), filepath.Join(dir, "h.db")
	stdout, stderr, code := runBinary(t, "exec", "--window", "10ms", "--runs", "3", "--out", out, "--store", store,
		"true postgres://u:"+pw+"@h/db", "true host=h password="+pw)
	if code != 0 {
		t.Fatalf("exec: exit %d, stderr %s", code, stderr)
	}
	shown := func(what, s string) {
		t.Helper()
		if strings.Contains(s, pw) {
			t.Errorf("%s shows the password:\n%s", what, s)
		}
	}
	shown("exec's output", stdout+stderr)
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	shown("the result file", string(file))
	if !strings.Contains(string(file), `"name": "true postgres://u:xxxxx@h/db"`) {
		t.Errorf("the result does not name the command, masked:\n%.1000s", file)
	}
	table, _, _ := runBinary(t, "report", out)
	shown("report", table)
	hist, errs, code := runHistory("show", "--store", store)
	if code != 0 || !strings.Contains(hist, "password=xxxxx") {
		t.Errorf("history show: exit %d, %s, without the masked name:\n%s", code, errs, hist)
	}
	shown("history show", hist+errs)
}
