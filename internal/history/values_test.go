package history

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// A result whose values per op no run produces (an instructions counter
// of 2e16 in a call: equal values past 2^53 that no chart or median can
// tell apart) is refused when it is imported.
func TestRecordRefusesImpossibleValues(t *testing.T) {
	r := loadFixture(t)
	e := r.Find("sum/sink")
	for i := range e.Samples {
		e.Samples[i].Iters = 1
		if e.Samples[i].Counters == nil {
			e.Samples[i].Counters = map[string]int64{}
		}
		e.Samples[i].Counters[result.CounterInstructions] = 2e16
	}
	if _, err := NewRecord(r, commitSource(1), r.Start); err == nil || !strings.Contains(err.Error(), `"sum/sink"`) {
		t.Errorf("NewRecord: %v, want sum/sink refused", err)
	}
}

// A result that is no point of its commit is refused when it is stored:
// an interrupted run, one that ends before it starts, and a time the
// store's int64 nanoseconds cannot hold (stored, it came back in 1677).
func TestNewRecordRefuses(t *testing.T) {
	past := time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name     string
		change   func(r *result.Result, src *Source)
		measured time.Time
		want     string
	}{
		{"interrupted", func(r *result.Result, _ *Source) { r.Interrupted = true }, time.Time{}, "interrupted"},
		{"end before start", func(r *result.Result, _ *Source) { r.End = r.Start.Add(-time.Second) }, time.Time{}, "ends"},
		{"start past 2262", func(r *result.Result, _ *Source) { r.Start, r.End = past, past.Add(time.Minute) }, time.Time{}, "start 2300-01-01T00:00:00Z is outside 1970-01-01 to 2262-04-11"},
		{"measured past 2262", func(*result.Result, *Source) {}, past, "start 2300"},
		{"commit past 2262", func(_ *result.Result, src *Source) { src.Time = past }, time.Time{}, "commit time 2300"},
	} {
		r, src := loadFixture(t), commitSource(1)
		c.change(r, &src)
		if _, err := NewRecord(r, src, c.measured); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	// The last time a store holds is stored as it is.
	r := loadFixture(t)
	rec, err := NewRecord(r, commitSource(1), lastTime)
	if err != nil || !fromUnixNano(unixNano(rec.Measured)).Equal(lastTime) {
		t.Errorf("the last time: %v, %v", rec.Measured, err)
	}
}

// A store row holding what no run writes (±Inf, 0, NaN, a median outside
// its interval), put there by anyone with access to the database, is
// refused when read rather than judged or drawn.
func TestRowsRefuseImpossibleValues(t *testing.T) {
	for _, bad := range []func(p *Point){
		func(p *Point) { p.Median, p.Hi = math.Inf(1), math.Inf(1) },
		func(p *Point) { p.Lo = math.Inf(-1) },
		func(p *Point) { p.Median, p.Lo = 0, 0 },
		func(p *Point) { p.Median = p.Hi * 2 },
		func(p *Point) { p.Median, p.Lo, p.Hi = 2e16, 2e16, 2e16 },
	} {
		s := open(t, Address{Kind: KindSQLite, Path: filepath.Join(t.TempDir(), "h.db")})
		rec := record(t, loadFixture(t), commitSource(1))
		bad(&rec.Points[0])
		if _, err := s.Add(context.Background(), []Record{rec}); err != nil {
			t.Fatal(err)
		}
		if rows, err := s.Rows(context.Background(), ""); err == nil || !strings.Contains(err.Error(), "no run measures") && !strings.Contains(err.Error(), "outside its interval") {
			t.Errorf("Rows: %d rows, %v; want the row refused", len(rows), err)
		}
	}
}

// Upgrading a schema-1 store whose row has a short hash and a body that
// does not read is an error naming the row, not a panic.
func TestMigrateShortHash(t *testing.T) {
	ctx := context.Background()
	a := Address{Kind: KindSQLite, Path: filepath.Join(t.TempDir(), "h.db")}
	db, d := rawDB(t, a)
	old := migrations
	migrations = migrations[:1]
	err := migrate(ctx, db, d, "test")
	migrations = old
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO benchy_machines (id, facts) VALUES ('m', '[]')`,
		`INSERT INTO benchy_results VALUES ('ab', 'm', 'c', 0, 'main', 0, 1, 1, 'benchy', '', '{}', X'00')`,
		`UPDATE benchy_meta SET value = '1' WHERE key = 'schema'`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(ctx, a); err == nil || !strings.Contains(err.Error(), "result ab:") {
		t.Errorf("Open: %v, want an error naming result ab", err)
	}
}
