//go:build linux

package inproc_test

import (
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/inproc"
)

// At one P a loop that allocates enough for the collector to run many
// times a sample seldom parks its thread: at two, every stop of the world
// and every turn of the collector's worker on the other CPU parked the
// locked measured thread until a thread there handed its goroutine back
// (concat/quadratic: 225 voluntary switches in a sample of 66
// collections).
func TestOnePLoopSeldomParks(t *testing.T) {
	hopts := quickOptions()
	hopts.GOMAXPROCS, hopts.SampleTime, hopts.Samples = 1, 20*time.Millisecond, 4
	w := inproc.Workload{Name: "test/alloc", Loop: func(n int) {
		for range n {
			testBytes = make([]byte, 1<<20)
		}
	}}
	// The samples' length is calibrated: on a machine loaded four times
	// over the calibration read the loop slow, and four samples held six
	// collections. Too few to judge, the run is made again.
	var o harness.Outcome
	var gcs, vcs int64
	for try := 0; try < 3 && gcs < 8; try++ {
		o = run(t, w, hopts, inproc.Options{GC: true, Count: true})
		gcs, vcs = 0, 0
		for _, s := range o.Samples {
			gcs += s.Counters[result.CounterGCCycles]
			vcs += s.Counters[result.CounterVoluntaryCS]
		}
	}
	if gcs < 8 || vcs*4 > gcs {
		t.Errorf("%d voluntary switches in %d samples of %d collections, want at least 8 collections and a switch for at most one in 4", vcs, len(o.Samples), gcs)
	}
}
