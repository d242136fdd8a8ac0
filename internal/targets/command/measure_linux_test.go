package command

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/result"
)

// timedTarget also times each Sample call as the harness sees it: the
// run plus the round trip to the helper.
type timedTarget struct {
	*Target
	calls []time.Duration
}

func (t *timedTarget) Sample(n int64) ([]result.Sample, error) {
	start := time.Now()
	s, err := t.Target.Sample(n)
	t.calls = append(t.calls, time.Since(start))
	return s, err
}

// TestMeasureFacts prints what runs cost on this machine; it runs only
// with BENCHY_COMMAND_MEASURE=1 (go test -run MeasureFacts -v).
func TestMeasureFacts(t *testing.T) {
	if os.Getenv("BENCHY_COMMAND_MEASURE") != "1" {
		t.Skip("set BENCHY_COMMAND_MEASURE=1 to measure")
	}
	spread := func(name string, ds []time.Duration) {
		ds = slices.Clone(ds)
		slices.Sort(ds)
		t.Logf("%-34s n=%d min %v median %v max %v", name, len(ds), ds[0], ds[len(ds)/2], ds[len(ds)-1])
	}
	walls := func(out harness.Outcome) []time.Duration {
		var ds []time.Duration
		for _, s := range out.Samples {
			ds = append(ds, time.Duration(s.Ns))
		}
		return ds
	}
	for _, tc := range []struct {
		name string
		exec Executor
	}{{"helper", testSpawner(t)}, {"local", NewLocalSpawner()}} {
		for _, c := range []struct {
			line string
			n    int
		}{{"true", 100}, {"sleep 0.01", 30}} {
			tg, err := New(context.Background(), Config{Command: c.line, Executor: tc.exec})
			if err != nil {
				t.Fatal(err)
			}
			tt := &timedTarget{Target: tg}
			opts := pinned(t, c.n)
			opts.WarmupRuns = 3
			out := harness.Run(context.Background(), []harness.Target{tt}, opts)[0]
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			spread(tc.name+" "+c.line+" wall", walls(out))
			spread(tc.name+" "+c.line+" Sample call", tt.calls)
		}
		if s, ok := tc.exec.(*Spawner); ok {
			t.Logf("%s: spawn cost %v, max-rss floor %d KiB", tc.name, s.SpawnCost(), s.RSSFloorKB())
		}
	}
}
