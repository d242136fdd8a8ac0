package counters

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
)

// parseSched returns the migration count from a /proc/<pid>/task/<tid>/sched
// file: the line "se.nr_migrations : N" (older kernels: "nr_migrations").
// The other lines, and the header "name (pid, #threads: n)", are ignored.
func parseSched(b []byte) (int64, error) {
	for line := range bytes.Lines(b) {
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		key = bytes.TrimSpace(key)
		if !bytes.Equal(key, []byte("se.nr_migrations")) && !bytes.Equal(key, []byte("nr_migrations")) {
			continue
		}
		value = bytes.TrimSpace(value)
		n, err := strconv.ParseInt(string(value), 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("sched: %s is %.20q, not a count", key, value)
		}
		return n, nil
	}
	return 0, errors.New("sched: no nr_migrations line")
}
