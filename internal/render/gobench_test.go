package render

import (
	"bytes"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"

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
	// A time of the benchmark's own is the line's ns/op, as go test
	// prints it; 0 suppresses it, as in go test.
	r.Experiments[0].Samples[0].Metrics = map[string]float64{"ns/op": 7, "frames/op": 3}
	if got, want := line(Options{}), "BenchmarkDecode 10 7 ns/op 3 frames/op 16 B/op 2 allocs/op"; got != want {
		t.Errorf("own ns/op\n got %q\nwant %q", got, want)
	}
	r.Experiments[0].Samples[0].Metrics["ns/op"] = 0
	if got, want := line(Options{}), "BenchmarkDecode 10 3 frames/op 16 B/op 2 allocs/op"; got != want {
		t.Errorf("own ns/op of 0\n got %q\nwant %q", got, want)
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

// gobenchFile is what benchstat reads of one file: the file configuration
// (its header) and each result.
type gobenchFile struct {
	config  map[string]string
	results []*benchfmt.Result
}

func readGobench(t *testing.T, name string, rd io.Reader) gobenchFile {
	t.Helper()
	f := gobenchFile{config: map[string]string{}}
	br := benchfmt.NewReader(rd, name)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("%s: %v", name, rec)
		case *benchfmt.Result:
			for _, c := range rec.Config {
				if c.File {
					f.config[c.Key] = string(c.Value)
				}
			}
			f.results = append(f.results, rec.Clone())
		}
	}
	if err := br.Err(); err != nil {
		t.Fatal(err)
	}
	if len(f.results) == 0 {
		t.Fatalf("%s: no results", name)
	}
	return f
}

// A benchy gotest result and go test's own output for the same benchmarks
// on the same machine (testdata/gobench, both real: benchy gotest strconv
// --bench 'Quote$', and go test -run '^$' -bench 'Quote$' -benchmem
// -count 6 strconv) make one benchstat table per unit with -ignore
// /gomaxprocs, the only difference being go test's -N suffix: the header
// has go test's keys and values, the cpu the brand benchy read, and each
// line go test's units, no more.
func TestGobenchBesideGoTest(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "gobench")
	r, err := result.Load(filepath.Join(dir, "quote.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, r, "gobench"); err != nil {
		t.Fatal(err)
	}
	benchy := readGobench(t, "benchy", &b)
	gf, err := os.Open(filepath.Join(dir, "quote.gotest.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer gf.Close()
	gotest := readGobench(t, "gotest", gf)

	// The header: go test's keys, go test's values, the cpu as read.
	if got, want := slices.Sorted(maps.Keys(benchy.config)), slices.Sorted(maps.Keys(gotest.config)); !slices.Equal(got, want) {
		t.Errorf("header keys %v, go test's %v", got, want)
	}
	if !maps.Equal(benchy.config, gotest.config) {
		t.Errorf("header %q, go test's %q", benchy.config, gotest.config)
	}
	if brand, _ := r.Before.CPUBrand.Get(); benchy.config["cpu"] != brand {
		t.Errorf("cpu %q, the brand read %q", benchy.config["cpu"], brand)
	}

	// Benchstat's grouping, as its main builds it: tables by .config and
	// unit, rows by .fullname, columns by .file, /gomaxprocs ignored.
	var pp benchproc.ProjectionParser
	tableBy, _, err := pp.ParseWithUnit(".config", nil)
	if err != nil {
		t.Fatal(err)
	}
	rowBy, err := pp.Parse(".fullname", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pp.Parse(".file", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := pp.Parse("/gomaxprocs", nil); err != nil {
		t.Fatal(err)
	}
	type cells map[string]map[string]bool // table (config, unit) -> rows
	group := func(f gobenchFile) cells {
		c := cells{}
		for _, res := range f.results {
			for _, key := range tableBy.ProjectValues(res) { // one per unit
				table := key.String()
				if c[table] == nil {
					c[table] = map[string]bool{}
				}
				c[table][rowBy.Project(res).String()] = true
			}
		}
		return c
	}
	got, want := group(benchy), group(gotest)
	if len(want) != 3 {
		t.Fatalf("go test's file makes %d tables, want 3 (sec/op, B/op, allocs/op): %v", len(want), want)
	}
	if !maps.EqualFunc(got, want, maps.Equal) {
		t.Errorf("benchy's tables and rows\n%v\ngo test's\n%v", got, want)
	}
}

// gobenchWriter writes what benchfmt's writer writes for the same lines,
// byte for byte: the configuration and its blank line once, none without
// configuration, and the values as %v prints them (large, small, whole
// and fractional).
func TestGobenchReadsBack(t *testing.T) {
	lines := []gobenchLine{
		{"Sum/sink-2", 32000, []gobenchValue{{314, "ns/op"}, {0, "B/op"}, {0, "allocs/op"}}},
		{"Sum/sink-2", 1, []gobenchValue{{0.3125, "ns/op"}, {1.5e9, "MB/s"}, {1e-7, "x/op"}}},
		{"Map/µs_ünïcode", 7, []gobenchValue{{123456789.25, "instructions/op"}, {2.5, "est-cycles/op"}}},
		{"Empty", 3, nil},
	}
	for _, config := range [][][2]string{nil, {{"goos", "linux"}, {"cpu", "AMD EPYC 7B13 @ 2.4GHz"}}} {
		var ours, theirs bytes.Buffer
		bw := &gobenchWriter{w: &ours, config: config}
		fw := benchfmt.NewWriter(&theirs)
		var res benchfmt.Result
		for _, kv := range config {
			res.Config = append(res.Config, benchfmt.Config{Key: kv[0], Value: []byte(kv[1]), File: true})
		}
		for i := range lines {
			if err := bw.write(&lines[i]); err != nil {
				t.Fatal(err)
			}
			res.Name, res.Iters, res.Values = benchfmt.Name(lines[i].name), int(lines[i].iters), nil
			for _, v := range lines[i].values {
				res.Values = append(res.Values, benchfmt.Value{Value: v.v, Unit: v.unit})
			}
			if err := fw.Write(&res); err != nil {
				t.Fatal(err)
			}
		}
		if ours.String() != theirs.String() {
			t.Errorf("config %v:\nours:\n%s\nbenchfmt's:\n%s", config, ours.String(), theirs.String())
		}
	}
}
