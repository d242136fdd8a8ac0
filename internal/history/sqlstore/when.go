package sqlstore

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseTime reads a --time value: RFC 3339 (2024-05-01T12:00:00Z, an
// offset or fractions allowed), a date (2024-05-01, midnight UTC), a date
// and time without zone (2024-05-01 12:00, UTC), or @SECONDS since the
// epoch as date +%s gives them. Times before 1970 or after lastTime are
// refused: no benchmark was run then, the store cannot hold them, and such
// a time is a typo.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if rest, ok := strings.CutPrefix(s, "@"); ok {
		n, err := strconv.ParseInt(rest, 10, 64)
		if err != nil || n < 0 || n > lastTime.Unix() {
			return time.Time{}, fmt.Errorf("--time %q: @SECONDS wants whole seconds since 1970, up to %d (%s)", s, lastTime.Unix(), lastTime.Format(time.DateOnly))
		}
		return time.Unix(n, 0).UTC(), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if !storable(t) {
			return time.Time{}, fmt.Errorf("--time %q: outside %s, the times a store holds", s, storableRange)
		}
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("--time %q: want RFC 3339 (2024-05-01T12:00:00Z), a date (2024-05-01), or @SECONDS", s)
}

// lastTime is the last time a store holds: it keeps times as int64
// nanoseconds since 1970 (a later one wrapped to 1677).
var lastTime = time.Unix(0, math.MaxInt64).UTC()

// storableRange names the times storable allows, for messages.
var storableRange = "1970-01-01 to " + lastTime.Format(time.DateOnly)

// storable reports whether a store holds t as it is: from 1970 (before, no
// benchmark ran) to lastTime.
func storable(t time.Time) bool { return t.Year() >= 1970 && !t.After(lastTime) }
