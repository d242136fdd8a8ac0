// Package machine is a placeholder being written: the types and functions
// below keep their signatures.
package machine

import "io"

// Snapshot is a placeholder: the machine package is being written.
type Snapshot struct{}

// CPUBusy is a placeholder.
type CPUBusy struct{}

// WriteHeader writes the person-readable header of s for target CPU cpu.
func (s *Snapshot) WriteHeader(w io.Writer, cpu int) error { return nil }

// WriteBusyGrid writes the per-CPU busy grid.
func WriteBusyGrid(w io.Writer, busy []CPUBusy) error { return nil }
