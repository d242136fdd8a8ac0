// Package redact hides the secrets a PostgreSQL connection string can
// carry wherever benchy shows or keeps one: the store's address in its
// messages and pages, the command line a result records, the errors of a
// connection. It is the one place that knows where a password can be: the
// user's password in a URL, and the values of password, passfile and
// sslpassword, in a URL's query or a libpq key=value string.
package redact

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// Mask is what a secret is replaced with.
const Mask = "xxxxx"

// secret reports whether the libpq parameter key holds a secret: a
// password, or the file that holds them.
func secret(key string) bool {
	switch strings.ToLower(key) {
	case "password", "passfile", "sslpassword":
		return true
	}
	return false
}

// IsURL reports whether s is a PostgreSQL URL: postgres:// or
// postgresql://, in any case.
func IsURL(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	return ok && IsScheme(scheme)
}

// IsScheme reports whether a URL's scheme names PostgreSQL: postgres or
// postgresql, in any case.
func IsScheme(scheme string) bool {
	return strings.EqualFold(scheme, "postgres") || strings.EqualFold(scheme, "postgresql")
}

// keywords are libpq's connection parameters a key=value string most
// often begins with.
var keywords = []string{
	"host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service", "options",
	"sslmode", "sslcert", "sslkey", "sslpassword", "sslrootcert", "connect_timeout",
	"application_name", "target_session_attrs", "channel_binding", "gssencmode", "require_auth",
}

// firstKey is the key of a string that begins as key=value does.
var firstKey = regexp.MustCompile(`^\s*([A-Za-z_]+)\s*=`)

// secretKey finds a secret parameter and its '=' in free text.
var secretKey = regexp.MustCompile(`(?i)\b(?:password|passfile|sslpassword)\s*=\s*`)

// IsKeyValue reports whether s reads as a libpq key=value connection
// string: it begins with a libpq parameter, or names a secret one
// anywhere. Such a string is no file name (it may hold a password).
func IsKeyValue(s string) bool {
	if m := firstKey.FindStringSubmatch(s); m != nil {
		for _, k := range keywords {
			if strings.EqualFold(m[1], k) {
				return true
			}
		}
	}
	return secretKey.MatchString(s)
}

// ParseURL reads the URL s as PostgreSQL's drivers do, and refuses one
// whose password cannot be told from the rest. Its errors say what is
// wrong without quoting any of s.
func ParseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		msg := err.Error()
		switch {
		case strings.Contains(msg, "invalid URL escape"):
			return nil, errors.New("a % not followed by two hex digits")
		case strings.Contains(msg, "invalid port"):
			return nil, errors.New("a port that is not a number")
		case strings.Contains(msg, "invalid userinfo"):
			return nil, errors.New("a character the user name or password must percent-encode")
		}
		return nil, errors.New("malformed")
	}
	// An @ after the host is a password's @ or / read as the end of the
	// host ("postgres://u:p/w@h/db" parses, with host u and port p):
	// where the password ends cannot be told.
	if strings.Contains(u.EscapedPath()+u.RawQuery+u.Fragment, "@") {
		return nil, errors.New("an @ after the host")
	}
	return u, nil
}

// URL is the URL s with its user's password and the values of its secret
// query parameters masked, the rest as written. A URL ParseURL refuses is
// its scheme and "…" only: no part of it is safe to show.
func URL(s string) string {
	scheme, rest, _ := strings.Cut(s, "://")
	if rest == elided && schemeName.MatchString(scheme) {
		// Masked already: a loaded result masks names a run masked,
		// and must find them unchanged (parsed, … would be escaped).
		return s
	}
	u, err := ParseURL(s)
	if err != nil {
		if !schemeName.MatchString(scheme) {
			scheme = "postgres"
		}
		return scheme + "://" + elided
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), Mask)
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			k, _, _ := strings.Cut(p, "=")
			// A key that does not unescape is masked too: no reader
			// agrees on what it is.
			if key, err := url.QueryUnescape(k); err != nil || secret(key) {
				parts[i] = k + "=" + Mask
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	return u.String()
}

// elided is all that is shown after the scheme of a URL that does not
// parse.
const elided = "…"

// schemeName is a URL's scheme: a letter, then letters, digits, +, - or ..
var schemeName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*$`)

// urlInText finds the PostgreSQL URLs inside a longer text: each ends
// where a word or a quotation does.
var urlInText = regexp.MustCompile("(?i)postgres(?:ql)?://[^\\s'\"`]*")

// String is s with every secret masked: s whole when it is a URL (URL),
// else each URL inside it and each password=, passfile= or sslpassword=
// value (libpq's key=value strings, quoted or not) in the rest. Messages
// and command lines go through it before anyone sees them.
func String(s string) string {
	if IsURL(strings.TrimSpace(s)) {
		return URL(strings.TrimSpace(s))
	}
	var b strings.Builder
	last := 0
	for _, m := range urlInText.FindAllStringIndex(s, -1) {
		b.WriteString(keyValues(s[last:m[0]]))
		b.WriteString(URL(s[m[0]:m[1]]))
		last = m[1]
	}
	b.WriteString(keyValues(s[last:]))
	return b.String()
}

// keyValues masks the value after each secret key= in s, read as libpq
// does: a value in single quotes (where \ escapes) up to its closing
// quote, else up to the next space.
func keyValues(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range secretKey.FindAllStringIndex(s, -1) {
		if m[0] < last {
			continue // inside a value already masked
		}
		b.WriteString(s[last:m[1]])
		end := m[1]
		if end < len(s) && s[end] == '\'' {
			end++
			for end < len(s) && s[end] != '\'' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			end = min(end+1, len(s))
			b.WriteString("'" + Mask + "'")
		} else {
			for end < len(s) && !isSpace(s[end]) {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			end = min(end, len(s))
			b.WriteString(Mask)
		}
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// Args is a command line with its secrets masked (String), each word
// alone or, for --flag=VALUE, its value: what a result records of how it
// was made.
func Args(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		// A flag's URL is its whole value, spaces and all (String
		// would end a URL inside a text at a space).
		if name, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(name, "-") && IsURL(v) {
			out[i] = name + "=" + URL(v)
			continue
		}
		out[i] = String(a)
	}
	return out
}
