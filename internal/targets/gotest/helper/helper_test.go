//go:build linux

package helper

import (
	"bufio"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/benchy-dev/benchy/internal/targets/gotest"
	"golang.org/x/sys/unix"
)

// records runs f as testing.Benchmark runs a benchmark, with the helper
// writing to a file, and returns what it wrote, read as benchy reads it.
func records(t *testing.T, f func(*testing.B)) []gotest.Record {
	t.Helper()
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Skip("no affinity:", err)
	}
	cpu := 0
	for !set.IsSet(cpu) {
		cpu++
	}
	out, err := os.Create(t.TempDir() + "/records")
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	benchyCPU, benchyOut = cpu, out
	defer func() { benchyCPU, benchyOut = -1, nil }()
	// A fixed count: run1's call at N=1, then one at 100.
	if err := flag.Set("test.benchtime", "100x"); err != nil {
		t.Fatal(err)
	}
	defer flag.Set("test.benchtime", "1s")
	testing.Benchmark(func(b *testing.B) { benchyRun(b, f) })
	if _, err := out.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	var recs []gotest.Record
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var r gotest.Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("not a record: %v\n%s", err, sc.Text())
		}
		recs = append(recs, r)
	}
	return recs
}

var sink []byte

// Every call has a start and an end record, and the end of a call that
// returned carries what testing counted: its allocations over the timer,
// b.SetBytes, b.ReportMetric's values (those JSON can hold).
func TestRecordsOfACall(t *testing.T) {
	recs := records(t, func(b *testing.B) {
		b.SetBytes(64)
		for i := 0; i < b.N; i++ {
			sink = make([]byte, 64)
		}
		b.ReportMetric(2.5, "widgets/op")
		b.ReportMetric(0/zero(), "nan/op")
	})
	if len(recs) != 4 {
		t.Fatalf("%d records", len(recs))
	}
	for i, r := range recs {
		want := []string{"start", "end"}[i%2]
		if r.Event != want {
			t.Fatalf("record %d: %+v, want a %s", i, r, want)
		}
	}
	end := recs[len(recs)-1]
	if !end.Returned || end.Failed || end.Subs || !end.Mem || end.N != 100 {
		t.Fatalf("end %+v", end)
	}
	if end.Allocs/end.N != 1 || end.Bytes/end.N != 64 || end.SetBytes != 64 {
		t.Errorf("allocs %d, bytes %d over %d iterations, set bytes %d; want 1 and 64 per op, 64", end.Allocs, end.Bytes, end.N, end.SetBytes)
	}
	if end.Metrics["widgets/op"] != 2.5 || len(end.Metrics) != 1 {
		t.Errorf("metrics %v, want widgets/op 2.5 (and no NaN)", end.Metrics)
	}
	if end.Ns <= 0 || end.Wall <= 0 || end.Func == "" || len(end.Counters) == 0 {
		t.Errorf("measured %+v", end)
	}
}

func zero() float64 { return 0 }

// A call ended by b.Fatal has its end record all the same: failed, not
// returned, nothing measured.
func TestRecordsOfAFailure(t *testing.T) {
	recs := records(t, func(b *testing.B) { b.Fatal("the fixture is missing") })
	if len(recs) != 2 || recs[0].Event != "start" {
		t.Fatalf("records %+v", recs)
	}
	if end := recs[1]; end.Event != "end" || !end.Failed || end.Returned || end.Ns != 0 || end.Mem {
		t.Errorf("end %+v", end)
	}
}

// benchyQuote writes any string as JSON that reads back as it (what is not
// UTF-8 as U+FFFD, as JSON reads it).
func FuzzQuote(f *testing.F) {
	f.Add("BenchmarkX/a\"b\\c\n\x00\x7f\xff")
	f.Fuzz(func(t *testing.T, s string) {
		var got string
		if err := json.Unmarshal([]byte(benchyQuote(s)), &got); err != nil {
			t.Fatalf("%q: %v", benchyQuote(s), err)
		}
		b, _ := json.Marshal(s)
		var want string
		json.Unmarshal(b, &want)
		if got != want {
			t.Errorf("%q read back as %q, want %q", s, got, want)
		}
	})
}
