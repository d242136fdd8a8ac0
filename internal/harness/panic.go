package harness

import (
	"fmt"
	"runtime"
)

// PanicError reports a workload that panicked; the run goes on with the
// next workload.
type PanicError struct{ Value any }

func (e *PanicError) Error() string { return fmt.Sprintf("panicked: %v", e.Value) }

// Locked runs f on a new goroutine locked to its own OS thread, without
// pinning it: for a system that cannot pin. A panic in f is returned as a
// PanicError.
func Locked(f func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		done <- recovered(f)
	}()
	return <-done
}

// recovered runs f and turns a panic into a PanicError.
func recovered(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Value: p}
		}
	}()
	return f()
}
