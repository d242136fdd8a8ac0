package history

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseTime reads a --time value: RFC 3339 (2024-05-01T12:00:00Z, an
// offset or fractions allowed), a date (2024-05-01, midnight UTC), a date
// and time without zone (2024-05-01 12:00, UTC), or @SECONDS since the
// epoch as date +%s gives them. Years outside 1970-9999 are refused: no
// benchmark was run then, and such a time is a typo.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "@"); ok {
		n, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || n < 0 || n > maxUnix {
			return time.Time{}, fmt.Errorf("--time %q: @SECONDS wants whole seconds since 1970, up to 9999", s)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if t.Year() < 1970 || t.Year() > 9999 {
			return time.Time{}, fmt.Errorf("--time %q: year %d is outside 1970-9999", s, t.Year())
		}
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("--time %q: want RFC 3339 (2024-05-01T12:00:00Z), a date (2024-05-01), or @SECONDS", s)
}

// maxUnix is the last second of year 9999.
const maxUnix = 253402300799
