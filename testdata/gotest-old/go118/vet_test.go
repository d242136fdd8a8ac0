package go118_test

import (
	"fmt"
	"testing"
)

// label has a format go vet's printf check refuses (%d of a string): go
// test would not run this package, yet it compiles, and benchy measures
// it (its builds skip vet).
func label(t *testing.T) string {
	return fmt.Sprintf("max of %d", "xs")
}
