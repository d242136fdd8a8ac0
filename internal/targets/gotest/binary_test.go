package gotest

import "testing"

// A panic's or a failure's message of several lines is quoted on the one
// line of the failure.
func TestFailureOnOneLine(t *testing.T) {
	r := &Run{}
	if got, want := r.Failure(Record{Name: "BenchmarkX", Ended: true, Panic: "boom\n\tgoroutine 1 [running]:\n"}), "BenchmarkX panicked: boom goroutine 1 [running]:"; got != want {
		t.Errorf("Failure = %q, want %q", got, want)
	}
}
