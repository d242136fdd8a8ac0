package sqlstore

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/result"
)

// fixture is a real result file (five experiments of benchy run).
var fixture = filepath.Join("..", "..", "..", "testdata", "compare", "old.json")

func loadFixture(t testing.TB) *result.Result {
	t.Helper()
	r, err := result.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// scaled is the fixture with every sample of sum/sink taking factor
// times as long, and its start and end moved by k hours: a result of another
// commit.
func scaled(t testing.TB, factor float64, k int) *result.Result {
	r := loadFixture(t)
	r.Start, r.End = r.Start.Add(time.Duration(k)*time.Hour), r.End.Add(time.Duration(k)*time.Hour)
	e := r.Find("sum/sink")
	for i := range e.Samples {
		s := &e.Samples[i]
		s.Ns = int64(math.Round(float64(s.Ns) * factor))
		if v, ok := s.Counters[result.CounterTaskClock]; ok {
			s.Counters[result.CounterTaskClock] = int64(math.Round(float64(v) * factor))
		}
	}
	return r
}

func record(t testing.TB, r *result.Result, src history.Source) Record {
	t.Helper()
	rec, err := NewRecord(r, src, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
