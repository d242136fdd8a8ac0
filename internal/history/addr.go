package history

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/benchy-dev/benchy/internal/redact"
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
// without its secrets (redact.String).
func (a Address) Show() string {
	if a.Kind == KindSQLite {
		return a.Path
	}
	return redact.String(a.DSN)
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
	// postgres:/u:PW@h/db or postgres:u:PW@h is a PostgreSQL URL
	// mistyped, not a file: taken for one, the password would name
	// directories and be printed with the path. None of it is quoted.
	if scheme, rest, ok := strings.Cut(s, ":"); ok && redact.IsScheme(scheme) && !strings.HasPrefix(rest, "//") {
		return Address{}, errors.New("store: a PostgreSQL address without :// (not shown: it may hold a password): give postgres://user@host/db")
	}
	scheme, _, ok := strings.Cut(s, "://")
	if ok && isScheme(scheme) {
		// The address is named by redact.URL only: it may hold a password.
		switch strings.ToLower(scheme) {
		case "postgres", "postgresql":
			if _, err := redact.ParseURL(s); err != nil {
				return Address{}, fmt.Errorf("store %s: not a PostgreSQL URL: %v (percent-encode @ : / ? # %% in the user name and password)", redact.URL(s), err)
			}
			return Address{Kind: KindPostgres, DSN: s}, nil
		case "file", "sqlite":
			return Address{}, fmt.Errorf("store %s: give the SQLite file as a path, without %s://", redact.URL(s), scheme)
		default:
			return Address{}, fmt.Errorf("store %s: unknown scheme %s://: give a file (SQLite) or postgres://…", redact.URL(s), scheme)
		}
	}
	// A libpq key=value string is no file name: taken for one, the
	// password would name a file and be printed with it.
	if redact.IsKeyValue(s) {
		return Address{}, errors.New("store: a key=value connection string (not shown: it may hold a password): give a URL, postgres://user@host/db?sslmode=…")
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
