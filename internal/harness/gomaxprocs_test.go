//go:build linux

package harness

import (
	"runtime"
	"testing"
)

// GOMAXPROCS runs the measurement at that many Ps and gives them back
// after; 0 leaves them as they are.
func TestOnThreadGOMAXPROCS(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	for _, n := range []int{1, 3, 0} {
		var during int
		err := OnThread(Options{CPU: 0, GOMAXPROCS: n}, func() error {
			during = runtime.GOMAXPROCS(0)
			return nil
		})
		if err != nil {
			t.Skip("cannot pin:", err)
		}
		want := n
		if n == 0 {
			want = before
		}
		if during != want || runtime.GOMAXPROCS(0) != before {
			t.Errorf("GOMAXPROCS %d: %d during, %d after; want %d, then %d", n, during, runtime.GOMAXPROCS(0), want, before)
		}
	}
}
