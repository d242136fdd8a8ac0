package sqlstore

import (
	"strings"
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	for in, want := range map[string]string{
		"2024-05-01T12:00:00Z":      "2024-05-01T12:00:00Z",
		"2024-05-01T12:00:00+02:00": "2024-05-01T10:00:00Z",
		"2024-05-01T12:00:00.5Z":    "2024-05-01T12:00:00.5Z",
		"2024-05-01":                "2024-05-01T00:00:00Z",
		"2024-05-01 12:30":          "2024-05-01T12:30:00Z",
		"@1714564800":               "2024-05-01T12:00:00Z",
		"2262-04-11":                "2262-04-11T00:00:00Z",
	} {
		got, err := ParseTime(in)
		if err != nil || got.Format(time.RFC3339Nano) != want {
			t.Errorf("ParseTime(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "yesterday", "2024-13-01", "@-5", "@1e9", "0001-01-01", "1969-12-31", "@999999999999999", "2263-01-01", "2262-04-12", "9999-12-31", "@9300000000"} {
		if _, err := ParseTime(in); err == nil || !strings.Contains(err.Error(), "--time") {
			t.Errorf("ParseTime(%q): %v, want an error naming --time", in, err)
		}
	}
}

// Whatever a user types as --time, ParseTime answers with a time a store
// holds, or one line of error, and never panics.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2024-05-01", "@0", "2024-05-01T12:00:00Z", "2024-05-01 12:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := ParseTime(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("%q: a multi-line error", s)
			}
			return
		}
		if !storable(tm) || tm.Location() != time.UTC || !time.Unix(0, tm.UnixNano()).Equal(tm) {
			t.Errorf("%q: %v, not a time a store holds, or not UTC", s, tm)
		}
	})
}
