//go:build !linux

package pipeline

import "testing"

// onEveryCPU does nothing where benchy does not pin.
func onEveryCPU(t *testing.T) {}
