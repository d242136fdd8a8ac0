//go:build linux

package command

import "testing"

// tailWriter keeps the last size bytes, and last reads the last line of
// them (the lock is taken once: last calls bytes).
func TestTailWriterKeepsTheEnd(t *testing.T) {
	w := &tailWriter{size: 8}
	w.Write([]byte("first line\nsecond\n"))
	if got := string(w.bytes()); got != "\nsecond\n" {
		t.Errorf("kept %q", got)
	}
	if got := w.last(); got != "; its stderr: second" {
		t.Errorf("last %q", got)
	}
}
