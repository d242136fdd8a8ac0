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

// parseSchedstat returns the run delay from a /proc/<pid>/task/<tid>/schedstat
// file: "on-cpu-ns run-delay-ns timeslices", the second field being the
// time the thread was runnable but waited for a CPU. A kernel built
// without schedstats writes "0 0 0", which cannot be told from a thread
// that never waited: it is an error here, so that the counter is reported
// as not read rather than as a delay of zero.
func parseSchedstat(b []byte) (int64, error) {
	fields := bytes.Fields(b)
	if len(fields) != 3 {
		return 0, fmt.Errorf("schedstat: %d fields, want 3 (on-cpu-ns run-delay-ns timeslices)", len(fields))
	}
	var v [3]int64
	for i, f := range fields {
		n, err := strconv.ParseInt(string(f), 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("schedstat: field %d is %.20q, not a count", i+1, f)
		}
		v[i] = n
	}
	if v == [3]int64{} {
		return 0, errors.New("schedstat: all zero (a kernel without schedstats)")
	}
	return v[1], nil
}
