package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/analyze"
	"github.com/benchy-dev/benchy/internal/result"
)

func TestDecodeErrors(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(goldenDir, "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, in, want string
	}{
		{"empty", "  \n", "empty: not a benchy result"},
		{"not json", "goos: linux\nBenchmarkX 1 2 ns/op\n", "not JSON: invalid character"},
		{"truncated", string(good[:len(good)/2]), "truncated: the JSON ends early"},
		{"array", "[1, 2]", "not a benchy result: the JSON is not an object"},
		{"other tool", `{"schema": 1, "tool": "hyperfine"}`, `not a benchy result: no "schema" number`},
		{"no schema", `{"tool": "benchy 0.1.0"}`, `not a benchy result: no "schema" number`},
		{"bad schema", `{"schema": 1.5, "tool": "benchy 0.1.0"}`, "schema 1.5 is not a version"},
		{"newer schema", `{"schema": 99, "tool": "benchy 9.0.0"}`, "schema 99 is newer than this benchy reads (1): written by benchy 9.0.0, upgrade benchy"},
		{"a comparison", `{"schema": 1, "kind": "comparison", "tool": "benchy 0.1.0", "experiments": []}`, "a benchy comparison, not a result"},
		{"a newer comparison", `{"schema": 99, "kind": "comparison", "tool": "benchy 9.0.0"}`, "schema 99 is newer than this benchy reads (1)"},
		{"wrong type", `{"schema": 1, "tool": "benchy 0.1.0", "cpu": 1, "settings": {}, "experiments": [{"samples": [{"ns": "fast"}]}]}`,
			"field experiments.samples.ns holds a JSON string, want int64"},
		{"trailing garbage", string(good) + "}", "not JSON"},
		{"only schema and tool", `{"schema": 1, "tool": "benchy x"}`, `not a valid benchy result: no "experiments" field`},
		{"no settings", `{"schema": 1, "tool": "benchy x", "cpu": 1, "experiments": []}`, `no "settings" field`},
		{"null settings", `{"schema": 1, "tool": "benchy x", "cpu": 1, "settings": null, "experiments": []}`, `no "settings" field`},
		{"no cpu", `{"schema": 1, "tool": "benchy x", "settings": {}, "experiments": []}`, `no "cpu" field`},
		{"negative ns", minimal(`{"name": "sum/sink", "samples": [{"iters": 1, "ns": 5}, {"iters": 1000, "ns": -2040}]}`),
			`not a valid benchy result: experiment "sum/sink" (experiments[0]), samples[1]: ns is -2040, below 0`},
		{"negative iters", minimal(`{"name": "a", "samples": []}, {"name": "b", "samples": [{"iters": -5, "ns": 10}]}`),
			`experiment "b" (experiments[1]), samples[0]: iters is -5, below 0`},
		{"impossible clock", minimal(`{"name": "a", "samples": [], "clock": {"before_hz": -1, "after_hz": 5e9}}`),
			`experiment "a" (experiments[0]): clock -1 Hz before, 5e+09 after: each must be above 0 and at most 1e+11`},
		{"absurd reference", minimal(`{"name": "a", "samples": [], "reference": {"before_ns": 1e308, "after_ns": 0.3}}`),
			`reference 1e+308 ns before, 0.3 after`},
		{"max clock of 1 Hz", strings.Replace(minimal(`{"name": "a", "samples": []}`), `"cpu": 1,`, `"cpu": 1, "max_freq_hz": 1,`, 1),
			`not a valid benchy result: max_freq_hz is 1: must be 0 (unknown) or between 1e+07 and 1e+11`},
		{"threshold 1e308", strings.Replace(minimal(`{"name": "a", "samples": []}`), `"settings": {}`, `"settings": {"threshold": 1e308}`, 1),
			`settings.threshold is 1e+308: must be between 0 and 10`},
		{"negative samples", strings.Replace(minimal(`{"name": "a", "samples": []}`), `"settings": {}`, `"settings": {"samples": -5}`, 1),
			`settings.samples is -5: must be between 0`},
		{"negative duration", strings.Replace(minimal(`{"name": "a", "samples": []}`), `"settings": {}`, `"settings": {"sample_time_ns": -100}`, 1),
			`settings.sample_time_ns is -100`},
		{"two experiments of one name", minimal(`{"name": "a", "samples": []}, {"name": "a", "samples": []}`),
			`experiment "a" (experiments[1]) has the name of experiments[0]: a result names each experiment once`},
		{"negative count", minimal(`{"name": "a", "samples": [], "count": {"counter": "callgrind", "events": ["instructions"], "samples": [{"iters": 1, "events": {"instructions": 100}}, {"iters": 2, "events": {"instructions": -5}}]}}`),
			`experiment "a" (experiments[0]): count.samples[1]: event "instructions" is -5, below 0`},
		{"negative count iters", minimal(`{"name": "a", "samples": [], "count": {"counter": "callgrind", "events": ["instructions"], "samples": [{"iters": -1, "events": {"instructions": 100}}]}}`),
			`count.samples[0]: iters is -1, below 0`},
		{"on-CPU beyond the wall time", strings.Replace(minimal(`{"name": "a", "samples": [{"iters": 1000, "ns": 1000000, "counters": {"task-clock": 1000000}}, {"iters": 1000, "ns": 1000000, "counters": {"task-clock": 90000000}}]}`), `"cpu": 1,`, `"cpu": 1, "gomaxprocs": 2,`, 1),
			`experiment "a" (experiments[0]), samples[1]: counter "task-clock" is 90000000 ns, more than the sample's 1000000 ns on each of 2 CPUs (GOMAXPROCS)`},
		{"negative counter", minimal(`{"name": "a", "samples": [{"iters": 1, "ns": 5, "counters": {"page-faults": -3}}]}`),
			`samples[0]: counter "page-faults" is -3, below 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := result.Decode(strings.NewReader(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
			var ke *result.KindError
			if errors.As(err, &ke) != strings.HasPrefix(tt.name, "a comparison") {
				t.Errorf("%v: a KindError: %v", err, errors.As(err, &ke))
			}
		})
	}
}

// minimal is the smallest result Decode accepts, with the given experiments.
func minimal(experiments string) string {
	return `{"schema": 1, "tool": "benchy 0.1.0", "cpu": 1, "settings": {}, "experiments": [` + experiments + `]}`
}

// The near misses of TestDecodeErrors: what a run can write is accepted.
func TestDecodeAccepts(t *testing.T) {
	for name, in := range map[string]string{
		"no experiments":                   minimal(""),
		"experiments null":                 strings.Replace(minimal(""), "[]", "null", 1),
		"zero iterations and time":         minimal(`{"name": "x", "samples": [{"iters": 0, "ns": 0}, {"iters": 1, "ns": 0}]}`),
		"failed, no samples":               minimal(`{"name": "x", "error": "panic: boom", "samples": []}`),
		"on-CPU a hair past the wall time": minimal(`{"name": "x", "samples": [{"iters": 1, "ns": 1000000, "counters": {"task-clock": 1001000, "thread-cpu-ns": 1050000}}]}`),
		"on-CPU of several threads":        strings.Replace(minimal(`{"name": "x", "samples": [{"iters": 1, "ns": 1000000, "counters": {"task-clock": 3900000}}]}`), `"cpu": 1,`, `"cpu": 1, "gomaxprocs": 4,`, 1),
		"keys in another order":            `{"experiments": [], "cpu": 0, "settings": {"samples": 3}, "tool": "benchy 0.1.0", "schema": 1}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := result.Decode(strings.NewReader(in)); err != nil {
				t.Errorf("Decode: %v", err)
			}
		})
	}
}

// Decode does not build a generic tree of the whole file besides the
// Result, nor grow its buffer by doubling: what it allocates stays within
// decodeAllocRatio times the file's size.
func TestDecodeMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what allocates")
	}
	r := fixtureResult()
	base := r.Experiments[0]
	r.Experiments = nil
	for i := range 200 {
		e := base
		e.Name = fmt.Sprintf("sum/sink-%d", i)
		e.Samples = spread(200, 32000, 314, 0, 3, -2, 5, 1)
		for j := range e.Samples {
			e.Samples[j].Counters = base.Samples[0].Counters
		}
		r.Experiments = append(r.Experiments, e)
	}
	var b bytes.Buffer
	if err := Write(&b, r, "json"); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	back, err := result.Decode(bytes.NewReader(data))
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Experiments) != 200 {
		t.Fatalf("%d experiments", len(back.Experiments))
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("file %d bytes, Decode allocated %d bytes (%.1fx)", len(data), alloc, float64(alloc)/float64(len(data)))
	if limit := decodeAllocRatio * uint64(len(data)); alloc > limit {
		t.Errorf("Decode allocated %d bytes for a file of %d, more than %dx", alloc, len(data), decodeAllocRatio)
	}
}

func TestLoad(t *testing.T) {
	r, err := result.Load(filepath.Join(goldenDir, "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Experiments) != 6 || r.Tool != "benchy 0.1.0" {
		t.Errorf("loaded %d experiments, tool %q", len(r.Experiments), r.Tool)
	}
	if _, err := result.Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("no error for a missing file")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("{"), 0o644)
	if _, err := result.Load(bad); err == nil || !strings.HasPrefix(err.Error(), bad+": truncated") {
		t.Errorf("err = %v, want the path and truncated", err)
	}
}

// The statistics in a JSON result recompute exactly from its own samples.
func TestJSONStatsRecompute(t *testing.T) {
	r, err := result.Load(filepath.Join(goldenDir, "fixture.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Experiments {
		if got := analyze.Compute(e.Samples); got != e.Stats {
			t.Errorf("%s: stored %+v, recomputed %+v", e.Name, e.Stats, got)
		}
	}
}

// Analyze -> JSON -> Decode -> Analyze gives the same statistics, findings
// and verdicts.
func TestRoundTrip(t *testing.T) {
	orig := fixtureResult()
	var b bytes.Buffer
	if err := Write(&b, orig, "json"); err != nil {
		t.Fatal(err)
	}
	back, err := result.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	analyze.Analyze(back)
	if len(back.Experiments) != len(orig.Experiments) {
		t.Fatalf("%d experiments back, want %d", len(back.Experiments), len(orig.Experiments))
	}
	for i, e := range back.Experiments {
		o := orig.Experiments[i]
		if e.Stats != o.Stats || e.Verdict != o.Verdict || !reflect.DeepEqual(e.Reasons, o.Reasons) {
			t.Errorf("%s: %+v %q %v, want %+v %q %v", e.Name, e.Stats, e.Verdict, e.Reasons, o.Stats, o.Verdict, o.Reasons)
		}
		if len(e.Findings) != len(o.Findings) {
			t.Errorf("%s: %d findings, want %d", e.Name, len(e.Findings), len(o.Findings))
			continue
		}
		for j := range e.Findings {
			if e.Findings[j].Code != o.Findings[j].Code || e.Findings[j].Message != o.Findings[j].Message {
				t.Errorf("%s: finding %v, want %v", e.Name, e.Findings[j], o.Findings[j])
			}
		}
	}
	// And the JSON written again is the same bytes.
	var again, first bytes.Buffer
	Write(&first, orig, "json")
	Write(&again, back, "json")
	if !bytes.Equal(first.Bytes(), again.Bytes()) {
		t.Error("JSON differs after a round trip")
	}
}

// FuzzDecode: Decode never panics, and whatever it accepts can be analyzed
// and written in every format.
func FuzzDecode(f *testing.F) {
	// Seeds: every real result file of the repository.
	files, _ := filepath.Glob(filepath.Join(goldenDir, "..", "*", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if _, err := result.Decode(bytes.NewReader(b)); err == nil {
			f.Add(b)
		}
	}
	if len(files) == 0 {
		f.Fatal("no result files to seed from")
	}
	f.Add([]byte(`{"schema": 1, "tool": "benchy", "experiments": [{"name": "x", "units": -1, "samples": [{"iters": -5, "ns": 9223372036854775807, "counters": {"cycles": -1}}]}]}`))
	f.Add([]byte(`{"schema": 1, "tool": "benchy", "clock": {"granularity_ns": 1e308}, "experiments": [{"samples": [{"iters": 1, "ns": 1}]}]}`))
	f.Add([]byte(minimal(`{"name": "x", "units": 2, "samples": [{"iters": 3, "ns": 9223372036854775807, "counters": {"page-faults": 9223372036854775807}}, {"iters": 1, "ns": 1, "counters": {"page-faults": 9223372036854775807, "minor-faults": -4}}]}`)))
	f.Add([]byte(`{"schema": 1, "tool": "benchy", "cpu": 3, "settings": {"sample_time_ns": 5}, "machine_before": {}, "experiments": null}`))
	f.Add([]byte("{"))
	f.Add([]byte("null"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := result.Decode(bytes.NewReader(data))
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		analyze.Analyze(r)
		for _, format := range Formats {
			if err := Write(io.Discard, r, format); err != nil {
				t.Errorf("%s: %v", format, err)
			}
		}
	})
}

// decodeAllocRatio bounds TestDecodeMemory. Measured on its file (Go 1.26):
// the bytes read once (1x, the buffer sized from the reader), the Result
// (1.8x, mostly the samples' counter maps) and its checks make 3.6x
// (sanitize once walked every map through MapKeys: 4.0x); the decode
// it replaced read with io.ReadAll's doubling buffer (2.2x) and decoded
// into any (3.4x) before the Result: 7.4x.
const decodeAllocRatio = 4

// A device is refused before it is read: /dev/zero would be read for a
// gigabyte. So is a file of 300 MB, saying the limit: reading a result
// takes several times its size in memory (the limit was 1 GiB).
func TestLoadRefusesDevicesAndHugeFiles(t *testing.T) {
	if _, err := result.Load("/dev/zero"); err == nil || !strings.Contains(err.Error(), "a device, not a result file") {
		t.Errorf("Load(/dev/zero) = %v", err)
	}
	sparse := filepath.Join(t.TempDir(), "sparse.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300 << 20); err != nil {
		t.Skip("cannot make a sparse file here:", err)
	}
	f.Close()
	const want = "more than benchy reads in a result (256 MiB)"
	if _, err := result.Load(sparse); err == nil || !strings.Contains(err.Error(), "314572800 bytes, "+want) {
		t.Errorf("Load(sparse 300 MB) = %v, want it refused saying the limit", err)
	}

	if _, err := result.Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("Load(dir) = %v", err)
	}
}

// Names and strings from a file reach the terminal escaped: a newline and
// an escape sequence in a name cannot forge a line of the report.
func TestDecodeEscapesControlCharacters(t *testing.T) {
	in := minimal(`{"name": "fake\u001b[31m\nfake: believable", "description": "a\u202eb", "samples": [], "findings": [{"code": "x", "severity": "info", "message": "m\rn", "evidence": {"k": "v\u0007", "k\u001b": "w"}}]}`)
	r, err := result.Decode(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	e := r.Experiments[0]
	if e.Name != `fake\x1b[31m\nfake: believable` || e.Description != `a\u202eb` || e.Findings[0].Message != `m\rn` || e.Findings[0].Evidence["k"] != `v\a` {
		t.Errorf("not escaped: %q %q %q %q", e.Name, e.Description, e.Findings[0].Message, e.Findings[0].Evidence["k"])
	}
	if ev := e.Findings[0].Evidence; ev[`k\x1b`] != "w" || len(ev) != 2 {
		t.Errorf("a key with a control character is not escaped: %q", ev)
	}
	var b bytes.Buffer
	analyze.Analyze(r)
	for _, o := range []Options{{}, {Verbose: true}} {
		b.Reset()
		if err := WriteWith(&b, r, "text", o); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(b.String(), "\x1b\r\a") || strings.Contains(b.String(), "\nfake: believable") {
			t.Errorf("control characters reached the text:\n%q", b.String())
		}
	}
}

// A result written before benchy masked secrets may hold a store's
// password in its command line; reading it masks it, so neither a report
// (--format json writes the command) nor an import writes it again.
func TestDecodeMasksPasswords(t *testing.T) {
	in := strings.Replace(minimal(""), `"cpu": 1,`, `"cpu": 1, "command": ["benchy", "exec", "--store", "postgres://ci:PWSECRET@db/b?sslpassword=PWSECRET", "--store=host=h password=PWSECRET", "true"],`, 1)
	r, err := result.Decode(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"benchy", "exec", "--store", "postgres://ci:xxxxx@db/b?sslpassword=xxxxx", "--store=host=h password=xxxxx", "true"}
	if !reflect.DeepEqual(r.Command, want) {
		t.Errorf("command %q, want %q", r.Command, want)
	}
	var b bytes.Buffer
	if err := Write(&b, r, "json"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "PWSECRET") || !strings.Contains(b.String(), "ci:xxxxx@db") {
		t.Errorf("the JSON report shows the password, or no command:\n%s", b.String())
	}
}
