package counters

import (
	"encoding/binary"
	"fmt"
)

// groupRead is one read(2) of a perf_event group.
type groupRead struct {
	enabled, running uint64 // only with the time fields
	values           []uint64
}

// parseGroup decodes what read(2) returns for a group leader opened with
// PERF_FORMAT_GROUP, and with PERF_FORMAT_TOTAL_TIME_ENABLED|RUNNING when
// times is set (see perf_event_open(2), "Reading results"): native-endian
// u64s, nr, [time_enabled, time_running], then nr values, leader first and
// the siblings in the order they were added. want is the number of events
// the group was opened with; any other nr means the reading is not of this
// group.
func parseGroup(b []byte, want int, times bool) (groupRead, error) {
	if len(b)%8 != 0 {
		return groupRead{}, fmt.Errorf("perf group read of %d bytes is not whole u64s", len(b))
	}
	words := make([]uint64, len(b)/8)
	for i := range words {
		words[i] = binary.NativeEndian.Uint64(b[8*i:])
	}
	if len(words) < 1 {
		return groupRead{}, fmt.Errorf("empty perf group read")
	}
	nr := words[0]
	words = words[1:]
	if nr != uint64(want) {
		return groupRead{}, fmt.Errorf("perf group read has %d events, want %d", nr, want)
	}
	var r groupRead
	if times {
		if len(words) < 2 {
			return groupRead{}, fmt.Errorf("perf group read has no times")
		}
		r.enabled, r.running = words[0], words[1]
		words = words[2:]
	}
	if uint64(len(words)) != nr {
		return groupRead{}, fmt.Errorf("perf group read has %d values for %d events", len(words), nr)
	}
	r.values = words
	return r, nil
}
