package counters

import (
	"errors"
	"maps"
)

// Fake is a Source that returns scripted readings in order. It lets tests
// of code that takes samples exercise counters this machine may not have,
// such as cycles and instructions in a VM without a PMU.
type Fake struct {
	// Reads are returned one per Read, as copies. A nil entry makes that
	// Read fail with ErrFake.
	Reads []map[string]int64
	// Closed is set by Close.
	Closed bool

	next int
}

// ErrFake is returned by a Fake for a nil scripted reading, and once the
// script is used up.
var ErrFake = errors.New("counters: scripted read failure")

// Read returns the next scripted reading.
func (f *Fake) Read() (map[string]int64, error) {
	if f.next >= len(f.Reads) {
		return nil, ErrFake
	}
	r := f.Reads[f.next]
	f.next++
	if r == nil {
		return nil, ErrFake
	}
	return maps.Clone(r), nil
}

// Close marks the Fake closed.
func (f *Fake) Close() error {
	f.Closed = true
	return nil
}
