package gotest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/result"
)

// A log as the helper writes one: a parent with two sub-benchmarks, a
// panic, a line cut short by a kill, and a call under way at the end.
func TestParseLog(t *testing.T) {
	data := []byte(`{"event":"start","name":"BenchmarkP","n":1}
{"event":"start","name":"BenchmarkP/a","n":1}
{"event":"end","name":"BenchmarkP/a","n":1,"returned":true,"ns":5,"metrics":{"widgets/op":2}}
{"event":"start","name":"BenchmarkP/a","n":100}
{"event":"end","name":"BenchmarkP/a","n":100,"returned":true,"ns":500,"mem":true,"allocs":100,"bytes":6400}
{"event":"start","name":"BenchmarkP/b","n":1}
{"event":"end","name":"BenchmarkP/b","n":1,"panic":"boom","panic_at":"x_test.go:9"}
{"event":"end","name":"BenchmarkNoSuch","n":1,"returned":true}
{"event":"end","name":"BenchmarkP","n":1,"returned":true,"subs":true}
{"event":"start","name":"BenchmarkQ","n":1}
{"event":"start","name":"BenchmarkQ/x","n":1}
{"event":"end","name":"Benchm`)
	l := parseLog(data)
	type call struct {
		name            string
		n               int64
		ended, leaf, ok bool
	}
	var got []call
	for _, c := range l.Calls {
		got = append(got, call{c.Name, c.N, c.Ended, c.Leaf(), c.Returned})
	}
	want := []call{
		{"BenchmarkP", 1, true, false, true},
		{"BenchmarkP/a", 1, true, true, true},
		{"BenchmarkP/a", 100, true, true, true},
		{"BenchmarkP/b", 1, true, true, false},
		{"BenchmarkQ", 1, false, false, false},
		{"BenchmarkQ/x", 1, false, true, false},
	}
	if !slices.Equal(got, want) {
		t.Errorf("calls\n%+v\nwant\n%+v", got, want)
	}
	if a := l.Calls[2]; !a.Mem || a.Allocs != 100 || a.Bytes != 6400 || a.Ns != 500 {
		t.Errorf("P/a at 100: %+v", a)
	}
	if l.Calls[1].Metrics["widgets/op"] != 2 {
		t.Errorf("P/a's metrics: %v", l.Calls[1].Metrics)
	}
	if b := l.Calls[3]; b.Panic != "boom" || b.PanicAt != "x_test.go:9" {
		t.Errorf("P/b: %+v", b)
	}
	if len(l.Running) != 2 || l.Running[0].Name != "BenchmarkQ" || l.Running[1].Name != "BenchmarkQ/x" {
		t.Errorf("running %+v, want Q then Q/x", l.Running)
	}
	if names := l.names(); !slices.Equal(names, []string{"BenchmarkP", "BenchmarkP/a", "BenchmarkP/b", "BenchmarkQ", "BenchmarkQ/x"}) {
		t.Errorf("names %q", names)
	}
}

// Records made from any names and values read back as themselves, nested
// as they were written; any bytes read without a panic, and every call
// read is one a start record began.
func FuzzParseLog(f *testing.F) {
	f.Add("BenchmarkA", "sub", int64(3), "boom", []byte(`{"event":"start","name":"x"}`))
	f.Add("Benchmark\"\\", "a b\n", int64(-1), "", []byte("\x00{\n}"))
	f.Fuzz(func(t *testing.T, parent, sub string, n int64, panicked string, junk []byte) {
		line := func(r Record) string {
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			return string(b) + "\n"
		}
		// JSON holds UTF-8 only: what is not is read as U+FFFD.
		asRead := func(s string) string {
			b, _ := json.Marshal(s)
			var out string
			json.Unmarshal(b, &out)
			return out
		}
		child := parent + "/" + sub
		data := line(Record{Event: "start", Name: parent, N: n}) +
			line(Record{Event: "start", Name: child, N: n}) +
			line(Record{Event: "end", Name: child, N: n, Panic: panicked}) +
			line(Record{Event: "end", Name: parent, N: n, Returned: true})
		l := parseLog([]byte(data))
		if len(l.Calls) != 2 || len(l.Running) != 0 {
			t.Fatalf("%d calls, %d running from\n%s", len(l.Calls), len(l.Running), data)
		}
		p, c := l.Calls[0], l.Calls[1]
		if p.Name != asRead(parent) || !p.Ended || !p.Returned || p.Leaf() || p.N != n {
			t.Errorf("parent %+v", p)
		}
		if c.Name != asRead(child) || !c.Ended || c.Returned || !c.Leaf() || c.Panic != asRead(panicked) {
			t.Errorf("child %+v", c)
		}

		// Junk among the lines is skipped; nothing is made up from it.
		l = parseLog(append([]byte(data), junk...))
		starts := strings.Count(data, `"event":"start"`) + strings.Count(string(junk), `"start"`)
		if len(l.Calls) > starts || len(l.Running) > len(l.Calls) {
			t.Errorf("%d calls, %d running from %d starts", len(l.Calls), len(l.Running), starts)
		}
	})
}

// testing's output: the failed benchmarks with their messages (under
// either name testing prints), the first panic line, the last lines; a
// result line is no failure.
func TestScanOutput(t *testing.T) {
	out := `goos: linux
BenchmarkA-2   	  100000	        32.21 ns/op
--- FAIL: BenchmarkC
    c_test.go:9: the fixture is missing
    c_test.go:10: and more
--- FAIL: BenchmarkD/x-2
    d_test.go:3: boom
--- FAIL: BenchmarkE/n-16
    e_test.go:1: sixteen
panic: the table is empty [recovered]
	panic: again
FAIL
`
	o := scanOutput(strings.NewReader(out))
	for _, tt := range []struct {
		name  string
		procs int
		want  string
		ok    bool
	}{
		{"BenchmarkC", 2, "c_test.go:9: the fixture is missing\nc_test.go:10: and more", true},
		{"BenchmarkD/x", 2, "d_test.go:3: boom", true},
		{"BenchmarkD/x", 1, "", false}, // with GOMAXPROCS=1 testing adds no suffix
		{"BenchmarkE/n-16", 1, "e_test.go:1: sixteen", true},
		{"BenchmarkE/n", 16, "e_test.go:1: sixteen", true},
		{"BenchmarkA", 2, "", false},
	} {
		if got, ok := o.failure(tt.name, tt.procs); got != tt.want || ok != tt.ok {
			t.Errorf("failure(%s, %d) = %q %v, want %q %v", tt.name, tt.procs, got, ok, tt.want, tt.ok)
		}
	}
	if o.panic != "panic: the table is empty [recovered]" {
		t.Errorf("panic %q", o.panic)
	}
	if got := o.tailLine(); got != "    e_test.go:1: sixteen | panic: the table is empty [recovered] | \tpanic: again | FAIL" {
		t.Errorf("tail %q", got)
	}
}

// A fatal error of the runtime is found as a panic is: its line, not the
// goroutine dump that follows it (whose last lines say nothing of why).
func TestScanOutputFatalError(t *testing.T) {
	out := "BenchmarkBig-2 \t1\t100 ns/op\n" +
		"runtime: out of memory: cannot allocate 4294967296-byte block (3932160 in use)\n" +
		"fatal error: out of memory\n\n" +
		"goroutine 7 gp=0xc000102a80 m=4 mp=0xc000100008 [running]:\n" +
		"runtime.throw({0x5a1b2c?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1101 +0x48 fp=0xc00004c6f0\n" +
		"created by testing.(*B).run1 in goroutine 1\n\t/usr/local/go/src/testing/benchmark.go:238 +0x90\n" +
		"exit status 2\n"
	o := scanOutput(strings.NewReader(out))
	if got := o.why(); got != ": fatal error: out of memory" {
		t.Errorf("why %q, want the fatal error's line", got)
	}
	if got := scanOutput(strings.NewReader("a\nlast words\n")).why(); got != ": a | last words" {
		t.Errorf("why without a panic %q, want the last lines", got)
	}
}

// Lines beyond the bounds are cut, not kept whole: a benchmark may print
// without end.
func TestScanOutputBounds(t *testing.T) {
	long := strings.Repeat("x", 3*maxLine)
	out := "--- FAIL: BenchmarkX\n" + strings.Repeat("    "+long+"\n", 10) + long
	o := scanOutput(strings.NewReader(out))
	msg, ok := o.failure("BenchmarkX", 1)
	if !ok || len(msg) > maxMessage+maxLine || len(msg) < maxLine-4 {
		t.Errorf("message of %d bytes (ok %v), want about %d", len(msg), ok, maxMessage)
	}
	if last := o.tail[len(o.tail)-1]; len(last) != maxLine {
		t.Errorf("last line of %d bytes, want %d", len(last), maxLine)
	}
}

// The failures scanOutput finds are the blocks written, whatever is
// printed around them.
func FuzzScanOutput(f *testing.F) {
	f.Add("BenchmarkA/x", "a_test.go:1: msg", "BenchmarkA-2 10 5 ns/op\n", "panic: x")
	f.Add("B", "", "\n\n--- FAIL: \n    \n", "")
	f.Fuzz(func(t *testing.T, name, msg, before, after string) {
		if strings.ContainsAny(name, " \r\n") || name == "" || strings.ContainsAny(msg, "\r\n") ||
			strings.TrimSpace(msg) != msg || len(msg) > maxLine-4 || strings.HasPrefix(after, "    ") ||
			strings.Contains(after, "--- FAIL: ") {
			return
		}
		block := "--- FAIL: " + name + "\n    " + msg + "\n"
		o := scanOutput(strings.NewReader(before + "\n" + block + after))
		got, ok := o.failure(name, 1)
		if !ok || got != msg {
			t.Errorf("failure(%q) = %q %v, want %q", name, got, ok, msg)
		}
		if len(o.tail) > tailLines || len(o.failures) > strings.Count(before+block+after, "--- FAIL: ") {
			t.Errorf("%d tail lines, %d failures", len(o.tail), len(o.failures))
		}
	})
}

// Package names in benchmark names: none for one package, the last
// element where it is unique, enough of the path where it is not.
func TestPrefixes(t *testing.T) {
	for _, tt := range []struct {
		paths []string
		want  map[string]string
	}{
		{[]string{"example.com/m/util"}, map[string]string{}},
		{[]string{"example.com/m/util", "example.com/m/util"}, map[string]string{}},
		{[]string{"m/a/util", "m/b/util", "m/c"}, map[string]string{"m/a/util": "a/util", "m/b/util": "b/util", "m/c": "c"}},
		{[]string{"util", "x/util"}, map[string]string{"util": "util", "x/util": "x/util"}},
		{[]string{"a/x/util", "b/x/util", "lies"}, map[string]string{"a/x/util": "a/x/util", "b/x/util": "b/x/util", "lies": "lies"}},
	} {
		got := prefixes(tt.paths)
		if !maps.Equal(got, tt.want) {
			t.Errorf("prefixes(%q) = %v, want %v", tt.paths, got, tt.want)
		}
	}
}

// The prefixes of any paths are unique.
func FuzzPrefixes(f *testing.F) {
	f.Add("a/util", "b/util", "util")
	f.Add("x", "y/x", "z/y/x")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		paths := []string{a, b, c}
		seen := map[string]string{}
		for p, name := range prefixes(paths) {
			if q, ok := seen[name]; ok {
				t.Fatalf("%q and %q are both named %q", p, q, name)
			}
			seen[name] = p
			if !strings.HasSuffix(p, name) {
				t.Errorf("%q named %q, not an end of its path", p, name)
			}
		}
	})
}

// The helper and benchy agree on the environment.
func TestHelperEnvironment(t *testing.T) {
	for _, env := range []string{envRecords, envCPU, envCount, envUnpinned} {
		if !strings.Contains(helperSource, fmt.Sprintf("os.Getenv(%q)", env)) {
			t.Errorf("the helper does not read %s", env)
		}
	}
	if !strings.Contains(string(helper(Package{Name: "p"}, "p_test")), "\npackage p_test\n") {
		t.Error("the helper's package clause is not the package's")
	}
}

// A ramp ended by a call that lasted the sample time only because it
// waited for a CPU is run again (Calibrate's ramp); one the call's own
// work ended, or whose wait is unknown, is not.
func TestWaitedOut(t *testing.T) {
	const ms = int64(time.Millisecond)
	call := func(name string, n, ns, wall int64, counters map[string]int64) Record {
		return Record{Event: "end", Name: name, N: n, Returned: true, Ended: true, Ns: ns, Wall: wall, Counters: counters}
	}
	waited := map[string]int64{result.CounterRunDelay: 4 * ms}
	tests := []struct {
		name  string
		calls []Record
		want  bool
	}{
		{"N=1 lost the CPU for 4 ms of its 4.1", []Record{call("BenchmarkA", 1, 4100e3, 4100e3, waited)}, true},
		{"N=1 is its own 4 ms", []Record{call("BenchmarkA", 1, 4*ms, 4*ms, map[string]int64{result.CounterRunDelay: 0})}, false},
		{"a wait, but half the call its own", []Record{call("BenchmarkA", 1, 9*ms, 9*ms, waited)}, false},
		{"a wait in a call short of the sample time", []Record{call("BenchmarkA", 1, 10e3, 10e3, map[string]int64{result.CounterRunDelay: 0}),
			call("BenchmarkA", 100, 900e3, 4900e3, waited)}, false},
		{"no schedstat", []Record{call("BenchmarkA", 1, 4100e3, 4100e3, map[string]int64{})}, false},
		{"the last call of one of two", []Record{call("BenchmarkA", 1000, 2*ms, 2*ms, map[string]int64{result.CounterRunDelay: 0}),
			call("BenchmarkB", 1, 4100e3, 4100e3, waited)}, true},
		{"a parent's call", []Record{{Event: "end", Name: "BenchmarkP", N: 1, Returned: true, Ended: true, Subs: true, Ns: 4100e3, Wall: 4100e3, Counters: waited}}, false},
		{"4 ms, 3 of them waiting: 1 ms its own", []Record{call("BenchmarkA", 1, 4*ms, 4*ms, map[string]int64{result.CounterRunDelay: 3 * ms})}, false},
		{"a call that failed", []Record{{Event: "end", Name: "BenchmarkA", N: 1, Returned: true, Failed: true, Ended: true, Ns: 4100e3, Wall: 4100e3, Counters: waited}}, false},
		{"a call that did not return", []Record{{Event: "end", Name: "BenchmarkA", N: 1, Ended: true, Ns: 4100e3, Wall: 4100e3, Counters: waited}}, false},
		{"a call under way", []Record{{Event: "start", Name: "BenchmarkA", N: 1, Counters: waited, Ns: 4100e3}}, false},
		{"b.RunParallel: the wait is the caller's", []Record{{Event: "end", Name: "BenchmarkA", N: 1, Returned: true, Ended: true, Parallel: true, Ns: 4100e3, Wall: 4100e3, Counters: waited}}, false},
	}
	for _, tt := range tests {
		if got := (Log{Calls: tt.calls}).waitedOut(time.Millisecond); got != tt.want {
			t.Errorf("%s: waitedOut %v, want %v", tt.name, got, tt.want)
		}
	}
}
