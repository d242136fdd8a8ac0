// Package pgtest gives tests a PostgreSQL server of their own: initdb in a
// temporary directory, listening on a unix socket there only, with trust
// authentication (a password in an address is accepted and ignored). A
// package whose tests use it calls Stop from its TestMain.
package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
)

// The server, started by the first DSN. initdb refuses root, so as root
// the server runs as the postgres user.
var pg struct {
	once   sync.Once
	dir    string
	skip   string // why there is no server
	dbs    atomic.Int64
	asUser string // "" for this user
}

// pgBin finds a PostgreSQL program: on PATH, else in Debian's versioned
// directory (the newest).
func pgBin(name string) (string, bool) {
	if p, err := exec.LookPath(name); err == nil {
		return p, true
	}
	ms, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(ms) == 0 {
		return "", false
	}
	slices.Sort(ms)
	return ms[len(ms)-1], true
}

func startPostgres() {
	initdb, ok := pgBin("initdb")
	pgctl, ok2 := pgBin("pg_ctl")
	if !ok || !ok2 {
		pg.skip = "postgresql is not installed (no initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin); .ci/run installs it"
		return
	}
	dir, err := os.MkdirTemp("", "benchy-pg-")
	if err != nil {
		pg.skip = err.Error()
		return
	}
	pg.dir = dir
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			pg.skip = "running as root, and there is no postgres user to run initdb as (initdb refuses root)"
			return
		}
		var uid, gid int
		fmt.Sscan(u.Uid, &uid)
		fmt.Sscan(u.Gid, &gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			pg.skip = err.Error()
			return
		}
		pg.asUser = "postgres"
	}
	data := filepath.Join(dir, "data")
	steps := [][]string{
		{initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"},
		{pgctl, "-D", data, "-l", filepath.Join(dir, "log"), "-w", "-o", "-k " + dir + " -c listen_addresses= -c fsync=off -c max_connections=50", "start"},
	}
	for _, s := range steps {
		if out, err := pgRun(s...); err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "log"))
			pg.skip = fmt.Sprintf("cannot start a PostgreSQL server: %s: %v\n%s\n%s", filepath.Base(s[0]), err, out, log)
			return
		}
	}
}

// pgRun runs a PostgreSQL program, as the postgres user when root.
func pgRun(args ...string) ([]byte, error) {
	var cmd *exec.Cmd
	if pg.asUser != "" {
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		cmd = exec.Command("su", pg.asUser, "-s", "/bin/sh", "-c", strings.Join(quoted, " "))
	} else {
		cmd = exec.Command(args[0], args[1:]...)
	}
	cmd.Dir = os.TempDir()
	return cmd.CombinedOutput()
}

// Stop stops the server, if a test started one, and removes its files.
func Stop() {
	if pg.dir == "" {
		return
	}
	if pg.skip == "" {
		pgctl, _ := pgBin("pg_ctl")
		pgRun(pgctl, "-D", filepath.Join(pg.dir, "data"), "-m", "immediate", "stop")
	}
	os.RemoveAll(pg.dir)
}

// DSN is the address of a new, empty database on the tests' server; the
// test is skipped, with the reason, when there can be no server.
func DSN(t testing.TB) string {
	t.Helper()
	pg.once.Do(startPostgres)
	if pg.skip != "" {
		t.Skip(pg.skip)
	}
	base := "postgres://postgres@/postgres?host=" + pg.dir
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	name := fmt.Sprintf("t%d", pg.dbs.Add(1))
	if _, err := db.ExecContext(context.Background(), "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	return "postgres://postgres@/" + name + "?host=" + pg.dir
}
