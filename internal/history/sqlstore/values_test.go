package sqlstore

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/history/historytest"
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
	if _, err := NewRecord(r, historytest.Source(1), r.Start); err == nil || !strings.Contains(err.Error(), `"sum/sink"`) {
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
		change   func(r *result.Result, src *history.Source)
		measured time.Time
		want     string
	}{
		{"interrupted", func(r *result.Result, _ *history.Source) { r.Interrupted = true }, time.Time{}, "interrupted"},
		{"end before start", func(r *result.Result, _ *history.Source) { r.End = r.Start.Add(-time.Second) }, time.Time{}, "ends"},
		{"start past 2262", func(r *result.Result, _ *history.Source) { r.Start, r.End = past, past.Add(time.Minute) }, time.Time{}, "start 2300-01-01T00:00:00Z is outside 1970-01-01 to 2262-04-11"},
		{"measured past 2262", func(*result.Result, *history.Source) {}, past, "start 2300"},
		{"commit past 2262", func(_ *result.Result, src *history.Source) { src.Time = past }, time.Time{}, "commit time 2300"},
	} {
		r, src := loadFixture(t), historytest.Source(1)
		c.change(r, &src)
		if _, err := NewRecord(r, src, c.measured); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	// The last time a store holds is stored as it is.
	r := loadFixture(t)
	rec, err := NewRecord(r, historytest.Source(1), lastTime)
	if err != nil || !fromUnixNano(unixNano(rec.Measured)).Equal(lastTime) {
		t.Errorf("the last time: %v, %v", rec.Measured, err)
	}
}

// A store row holding what no run writes (±Inf, 0, NaN, a median outside
// its interval), put there by anyone with access to the database, is left
// out when read, and named, rather than judged or drawn; the other rows
// are read.
func TestRowsSkipImpossibleValues(t *testing.T) {
	for _, bad := range []func(p *history.Point){
		func(p *history.Point) { p.Median, p.Hi = math.Inf(1), math.Inf(1) },
		func(p *history.Point) { p.Lo = math.Inf(-1) },
		func(p *history.Point) { p.Median, p.Lo = 0, 0 },
		func(p *history.Point) { p.Median, p.Lo = -1, -1 },
		func(p *history.Point) { p.Median = p.Hi * 2 },
		func(p *history.Point) { p.Median, p.Lo, p.Hi = 2e16, 2e16, 2e16 },
	} {
		s := open(t, history.Address{Kind: history.KindSQLite, Path: filepath.Join(t.TempDir(), "h.db")})
		rec := record(t, loadFixture(t), historytest.Source(1))
		bad(&rec.Points[0])
		if _, err := s.Add(context.Background(), []Record{rec}); err != nil {
			t.Fatal(err)
		}
		rows, skipped, err := s.Rows(context.Background(), "")
		if err != nil || len(rows) != len(rec.Points)-1 {
			t.Fatalf("Rows: %d rows, %v; want the %d good ones", len(rows), err, len(rec.Points)-1)
		}
		for _, r := range rows {
			if r.Benchmark == rec.Points[0].Benchmark && r.Basis == rec.Points[0].Basis {
				t.Errorf("the bad row was read: %+v", r.Point)
			}
		}
		name := fmt.Sprintf("result %s: %q (%s)", history.Short(rec.Hash), rec.Points[0].Benchmark, rec.Points[0].Basis)
		if len(skipped) != 1 || !strings.HasPrefix(skipped[0].Error(), name) {
			t.Errorf("skipped %v, want one naming %s", skipped, name)
		}
	}
}

// Text a store row holds is read back escaped, as a loaded result's is:
// an escape sequence in a benchmark's or a machine's name does not reach a
// terminal raw.
func TestRowsEscapeText(t *testing.T) {
	ctx := context.Background()
	s := open(t, history.Address{Kind: history.KindSQLite, Path: filepath.Join(t.TempDir(), "h.db")})
	rec := record(t, loadFixture(t), historytest.Source(1))
	rec.Points[0].Benchmark = "evil\x1b]0;title\a"
	rec.Source.Branch = "main\r\nok"
	rec.Machine.ID = "m\x1b[2J"
	rec.Machine.Facts = []Fact{{Name: "cpu\x1b[1m", Value: "x"}}
	if _, err := s.Add(ctx, []Record{rec}); err != nil {
		t.Fatal(err)
	}
	rows, _, err := s.Rows(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rows {
		names = append(names, r.Benchmark, r.Source.Branch, r.Machine)
	}
	ms, err := s.Machines(ctx)
	if err != nil || len(ms) != 1 {
		t.Fatalf("machines %v, %v", ms, err)
	}
	names = append(names, ms[0].ID, ms[0].Facts[0].Name)
	all := strings.Join(names, " ")
	if strings.ContainsAny(all, "\x1b\a\r\n") {
		t.Errorf("control characters read back raw: %q", all)
	}
	for _, want := range []string{`evil\x1b]0;title\a`, `main\r\nok`, `m\x1b[2J`, `cpu\x1b[1m`} {
		if !strings.Contains(all, want) {
			t.Errorf("%s not read back escaped: %q", want, all)
		}
	}
}

// Upgrading a schema-1 store whose row has a short hash and a body that
// does not read is an error naming the row, not a panic.
func TestMigrateShortHash(t *testing.T) {
	ctx := context.Background()
	a := history.Address{Kind: history.KindSQLite, Path: filepath.Join(t.TempDir(), "h.db")}
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
