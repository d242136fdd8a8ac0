package gotest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
)

// Record is one call of a benchmark function as the helper saw it.
type Record struct {
	Name     string           `json:"name"` // testing's name, "BenchmarkX/sub"
	N        int64            `json:"n"`
	Ns       int64            `json:"ns"`   // b.Elapsed() after the call
	Wall     int64            `json:"wall"` // the whole call, timer stopped or not
	CPU      int              `json:"cpu"`
	Pinned   bool             `json:"pinned"`
	Parallel bool             `json:"parallel"`
	Counters map[string]int64 `json:"counters"`
	Func     string           `json:"func"` // the function's symbol
}

// Line is one result line testing printed: a benchmark's final run of a
// count, with its per-op values (ns/op, B/op, allocs/op and the units of
// b.ReportMetric).
type Line struct {
	Name   string // "BenchmarkX/sub", without the -GOMAXPROCS suffix
	N      int64
	Values map[string]float64
}

// Run is what one process of a test binary produced.
type Run struct {
	Lines   []Line
	Records []Record
	// Failed maps the benchmarks testing reported as failed (b.Fatal,
	// b.Error) to their output; a panic fails the whole process.
	Failed map[string]string
	Output string // stdout and stderr, for a failure's message
	Err    error  // how the process ended, when not cleanly
}

// Exec runs the binary with testing's flags on cpu, in dir (the package's
// directory, as go test runs it), and collects its results and records.
// start starts the process (on a thread that keeps it off the measured CPU
// but lets it pin its benchmarks there); nil is exec.Cmd.Start.
func (b *Binary) Exec(cpu int, gomaxprocs int, args []string, start func(*exec.Cmd) error) (*Run, error) {
	rec, err := os.CreateTemp(filepath.Dir(b.Path), "records-*.jsonl")
	if err != nil {
		return nil, err
	}
	rec.Close()
	defer os.Remove(rec.Name())
	cmd := exec.Command(b.Path, args...)
	cmd.Dir = b.Package.Dir
	cmd.Env = append(os.Environ(), envRecords+"="+rec.Name(), envCPU+"="+strconv.Itoa(cpu),
		"GOMAXPROCS="+strconv.Itoa(gomaxprocs))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if start == nil {
		start = (*exec.Cmd).Start
	}
	if err := start(cmd); err != nil {
		return nil, err
	}
	r := &Run{Err: cmd.Wait()}
	r.Output = out.String()
	r.Lines, r.Failed = parseOutput(out.Bytes())
	data, err := os.ReadFile(rec.Name())
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var x Record
		if json.Unmarshal(sc.Bytes(), &x) == nil {
			r.Records = append(r.Records, x)
		}
	}
	return r, nil
}

// procsSuffix is testing's "-GOMAXPROCS" suffix of a benchmark name.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// parseOutput reads testing's output: the result lines (with benchfmt, as
// benchstat reads them) and the benchmarks reported failed, each with the
// lines testing indented under its "--- FAIL:".
func parseOutput(out []byte) ([]Line, map[string]string) {
	var lines []Line
	rd := benchfmt.NewReader(bytes.NewReader(out), "test")
	for rd.Scan() {
		res, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		l := Line{Name: "Benchmark" + procsSuffix.ReplaceAllString(string(res.Name), ""), N: int64(res.Iters), Values: map[string]float64{}}
		for _, v := range res.Values {
			// benchfmt converts ns/op to sec/op and keeps the original;
			// the units it does not convert have no original.
			if v.OrigUnit != "" {
				l.Values[v.OrigUnit] = v.OrigValue
			} else {
				l.Values[v.Unit] = v.Value
			}
		}
		lines = append(lines, l)
	}
	failed := map[string]string{}
	var cur string
	var msg []string
	flush := func() {
		if cur != "" {
			failed[cur] = strings.Join(msg, "\n")
		}
		cur, msg = "", nil
	}
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "--- FAIL: "):
			flush()
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "--- FAIL: "), " ")
			cur = procsSuffix.ReplaceAllString(name, "")
		case cur != "" && strings.HasPrefix(line, "    "):
			msg = append(msg, strings.TrimSpace(line))
		default:
			flush()
		}
	}
	flush()
	return lines, failed
}

// benchRegexp is the -test.bench value that runs exactly the benchmark
// named name ("BenchmarkX/sub a"): testing matches each level of the name
// with its own part of the expression.
func benchRegexp(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// List returns the top-level benchmarks of the binary (-test.list).
func (b *Binary) List() ([]string, error) {
	cmd := exec.Command(b.Path, "-test.list", "^Benchmark")
	cmd.Dir = b.Package.Dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s -test.list: %w", filepath.Base(b.Path), err)
	}
	var names []string
	for _, l := range strings.Fields(string(out)) {
		if strings.HasPrefix(l, "Benchmark") {
			names = append(names, l)
		}
	}
	return names, nil
}

// calibrateArgs runs the benchmarks matching bench with testing's own
// ramp to sampleTime: the N it settles on, and every call on the way
// (for the setup-in-timer check).
func calibrateArgs(bench string, sampleTime time.Duration) []string {
	return []string{"-test.run=^$", "-test.bench=" + bench, "-test.benchtime=" + sampleTime.String(),
		"-test.count=1", "-test.benchmem"}
}

// sampleArgs runs the benchmark name count times at exactly n iterations.
func sampleArgs(name string, n int64, count int) []string {
	return []string{"-test.run=^$", "-test.bench=" + benchRegexp(name), "-test.benchtime=" + strconv.FormatInt(n, 10) + "x",
		"-test.count=" + strconv.Itoa(count), "-test.benchmem"}
}
