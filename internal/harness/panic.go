package harness

import "fmt"

// PanicError reports a workload that panicked; the run goes on with the
// next workload.
type PanicError struct{ Value any }

func (e *PanicError) Error() string { return fmt.Sprintf("panicked: %v", e.Value) }
