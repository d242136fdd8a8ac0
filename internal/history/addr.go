package history

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// Kinds of store.
const (
	KindSQLite   = "sqlite"
	KindPostgres = "postgres"
)

// Address is where a store lives: a SQLite file, or a PostgreSQL server.
type Address struct {
	Kind string
	// Path is the SQLite file; DSN the PostgreSQL connection string as
	// given (it may hold a password, so Show leaves it out).
	Path string
	DSN  string
}

// Show is the address as messages name it: the file, or the server
// without its password.
func (a Address) Show() string {
	if a.Kind == KindSQLite {
		return a.Path
	}
	u, err := url.Parse(a.DSN)
	if err != nil {
		return "postgres://…"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.Redacted()
}

// EnvStore names the environment variable that gives the store when
// --store does not.
const EnvStore = "BENCHY_STORE"

// Resolve is the store a command uses: flag when given, else $BENCHY_STORE,
// else the default file under the XDG data directory
// ($XDG_DATA_HOME/benchy/history.db, ~/.local/share when unset). getenv
// reads the environment (os.Getenv outside tests).
func Resolve(flag string, getenv func(string) string) (Address, error) {
	s := flag
	if s == "" {
		s = getenv(EnvStore)
	}
	if s == "" {
		dir := getenv("XDG_DATA_HOME")
		if dir == "" || !filepath.IsAbs(dir) { // the spec says to ignore a relative one
			home := getenv("HOME")
			if home == "" {
				return Address{}, errors.New("no store: neither --store, BENCHY_STORE, XDG_DATA_HOME nor HOME is set")
			}
			dir = filepath.Join(home, ".local", "share")
		}
		return Address{Kind: KindSQLite, Path: filepath.Join(dir, "benchy", "history.db")}, nil
	}
	return ParseAddress(s)
}

// ParseAddress reads a store address: postgres:// or postgresql:// for a
// server, anything else a SQLite file. A URL of another scheme is refused
// rather than taken for a file named "mysql:".
func ParseAddress(s string) (Address, error) {
	if strings.TrimSpace(s) == "" {
		return Address{}, errors.New("empty store address: give a file or postgres://…")
	}
	if strings.ContainsRune(s, 0) {
		return Address{}, errors.New("store address holds a NUL byte")
	}
	scheme, _, ok := strings.Cut(s, "://")
	if ok && isScheme(scheme) {
		switch strings.ToLower(scheme) {
		case "postgres", "postgresql":
			u, err := url.Parse(s)
			if err != nil {
				return Address{}, fmt.Errorf("store %q: not a PostgreSQL URL: %v", s, unwrapURL(err))
			}
			if u.Opaque != "" {
				return Address{}, fmt.Errorf("store %q: not a PostgreSQL URL (postgres://user@host/db)", s)
			}
			return Address{Kind: KindPostgres, DSN: s}, nil
		case "file", "sqlite":
			return Address{}, fmt.Errorf("store %q: give the SQLite file as a path, without %s://", s, scheme)
		default:
			return Address{}, fmt.Errorf("store %q: unknown scheme %s://: give a file (SQLite) or postgres://…", s, scheme)
		}
	}
	return Address{Kind: KindSQLite, Path: s}, nil
}

// isScheme reports whether s is a URL scheme: a letter, then letters,
// digits, '+', '-' or '.'.
func isScheme(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// ensureDir makes the directory of a SQLite file when it is missing (the
// default store's on a first run).
func ensureDir(path string) error {
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	return os.MkdirAll(dir, 0o755)
}
