package render

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
)

// A line holds go test's units in go test's order: ns/op, MB/s, the
// benchmark's own units (sorted), B/op, allocs/op; benchy's counters
// follow only when asked for.
func TestGobenchLine(t *testing.T) {
	r := &result.Result{GOMAXPROCS: 1, Experiments: []result.Experiment{{
		Name: "Decode", GC: result.GCStats{BytesPerOp: 16, AllocsPerOp: 2},
		Samples: []result.Sample{{
			Iters: 10, Ns: 1000,
			Metrics:  map[string]float64{"MB/s": 123.5, "frames/op": 3, "B/op": 99, "allocs/op": 9, "bits/op": 1.5},
			Counters: map[string]int64{result.CounterRunDelay: 50, result.CounterVoluntaryCS: 10},
		}},
	}}}
	line := func(o Options) string {
		var b bytes.Buffer
		if err := WriteWith(&b, r, "gobench", o); err != nil {
			t.Fatal(err)
		}
		for l := range strings.SplitSeq(b.String(), "\n") {
			if strings.HasPrefix(l, "Benchmark") {
				return l
			}
		}
		t.Fatalf("no benchmark line:\n%s", b.String())
		return ""
	}
	want := "BenchmarkDecode 10 100 ns/op 123.5 MB/s 1.5 bits/op 3 frames/op 16 B/op 2 allocs/op"
	if got := line(Options{}); got != want {
		t.Errorf("default line\n got %q\nwant %q", got, want)
	}
	want += " 5 run-delay-ns/op 1 voluntary-cs/op"
	if got := line(Options{GobenchCounters: true}); got != want {
		t.Errorf("with counters\n got %q\nwant %q", got, want)
	}
}

// The cpu key is the brand go test prints, as it is (trailing spaces
// included); none where go test prints none; the model name only for a
// result that holds no brand.
func TestGobenchCPU(t *testing.T) {
	snap := func(brand machine.Fact[string]) *machine.Snapshot { return &machine.Snapshot{CPUBrand: brand} }
	for _, tt := range []struct {
		name    string
		before  *machine.Snapshot
		want    string
		written bool
	}{
		{"brand", snap(machine.Known("Oxide Virtual Turin-like Processor   ")), "Oxide Virtual Turin-like Processor   ", true},
		{"go test prints none", snap(machine.Unknown[string]("neither the CPU nor the operating system names it")), "", false},
		{"older file", snap(machine.Unknown[string]("%s", machine.NotRecorded)), "AMD EPYC", true},
		{"no snapshot", nil, "AMD EPYC", true},
	} {
		r := &result.Result{GOOS: "linux", CPUModel: "AMD EPYC", Before: tt.before,
			Experiments: []result.Experiment{{Name: "x", Samples: []result.Sample{{Iters: 1, Ns: 1}}}}}
		var b bytes.Buffer
		if err := Write(&b, r, "gobench"); err != nil {
			t.Fatal(err)
		}
		rd := benchfmt.NewReader(&b, tt.name)
		if !rd.Scan() {
			t.Fatalf("%s: no result: %v", tt.name, rd.Err())
		}
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			t.Fatalf("%s: %v", tt.name, rd.Result())
		}
		got, written := "", false
		for _, c := range res.Config {
			if c.Key == "cpu" {
				got, written = string(c.Value), true
			}
		}
		if got != tt.want || written != tt.written {
			t.Errorf("%s: cpu %q (written %v), want %q (%v)", tt.name, got, written, tt.want, tt.written)
		}
	}
}
