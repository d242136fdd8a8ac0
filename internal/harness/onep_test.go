//go:build linux

package harness

import (
	"runtime"
	"testing"
)

// OneP runs the measurement at GOMAXPROCS 1 and gives the Ps back after.
func TestOnThreadOneP(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	var during int
	err := OnThread(Options{CPU: 0, OneP: true}, func() error {
		during = runtime.GOMAXPROCS(0)
		return nil
	})
	if err != nil {
		t.Skip("cannot pin:", err)
	}
	if during != 1 || runtime.GOMAXPROCS(0) != before {
		t.Errorf("GOMAXPROCS %d during, %d after; want 1, then %d", during, runtime.GOMAXPROCS(0), before)
	}
	OnThread(Options{CPU: 0}, func() error {
		during = runtime.GOMAXPROCS(0)
		return nil
	})
	if during != before {
		t.Errorf("without OneP: GOMAXPROCS %d, want %d", during, before)
	}
}
