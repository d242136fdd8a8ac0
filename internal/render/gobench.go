package render

import (
	"cmp"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/perf/benchfmt"

	"github.com/benchy-dev/benchy/internal/result"
)

// gobenchPkg is the package the built-in experiments live in, written as
// the "pkg" configuration key like `go test -bench` does.
const gobenchPkg = "github.com/benchy-dev/benchy/internal/workload"

// writeGobench writes every sample as one line of the Go benchmark format
// (BenchmarkSum/sink-2 <iters> <ns> ns/op <B> B/op <allocs> allocs/op, then
// each counter per op), after configuration lines that describe the run,
// so that benchstat compares benchy results. Failed experiments and
// samples without iterations are left out: they have no time per op. B/op
// and allocs/op are left out where they were not measured (allocsKnown).
func writeGobench(w io.Writer, r *result.Result) error {
	bw := benchfmt.NewWriter(w)
	// File configuration is written as "key: value" lines; a Result built
	// as a literal may set Config directly (SetConfig makes keys internal).
	var res benchfmt.Result
	for _, kv := range gobenchConfig(r) {
		res.Config = append(res.Config, benchfmt.Config{Key: kv[0], Value: []byte(kv[1]), File: true})
	}
	for _, e := range r.Experiments {
		if e.Error != "" {
			continue
		}
		res.Name = benchfmt.Name(gobenchName(e.Name, cmp.Or(e.GOMAXPROCS, r.GOMAXPROCS)))
		allocs := allocsKnown(r, e)
		for _, s := range e.Samples {
			if s.Iters <= 0 {
				continue
			}
			res.Iters = int(s.Iters)
			res.Values = append(res.Values[:0], benchfmt.Value{Value: s.NsPerOp(), Unit: "ns/op"})
			if allocs {
				res.Values = append(res.Values,
					benchfmt.Value{Value: e.GC.BytesPerOp, Unit: "B/op"},
					benchfmt.Value{Value: e.GC.AllocsPerOp, Unit: "allocs/op"})
			}
			for _, c := range sortedKeys(s.Counters) {
				res.Values = append(res.Values, benchfmt.Value{
					Value: float64(s.Counters[c]) / float64(s.Iters),
					Unit:  counterUnit(c),
				})
			}
			if err := bw.Write(&res); err != nil {
				return err
			}
		}
		if err := gobenchCount(bw, &res, e); err != nil {
			return err
		}
	}
	return nil
}

// allocsKnown reports whether e's allocation figures were measured. The
// harness measures them in one untimed run after the samples (a single op
// when the run was stopped): not when the workload failed or took no
// sample.
func allocsKnown(r *result.Result, e result.Experiment) bool {
	return e.Kind != result.KindProcess && e.Error == "" && len(result.NsPerOp(e.Samples)) > 0
}

// gobenchConfig returns the configuration keys of r, unknown ones left
// out rather than written as a value. Only keys that stay the same from
// run to run of one program on one machine are written: benchstat splits
// its tables by every key whose value differs, so two runs would never
// meet in one table with a delta column if a start time, a chosen CPU or a
// measured clock were among them. Those are in the JSON result.
func gobenchConfig(r *result.Result) [][2]string {
	var kv [][2]string
	add := func(k, v string) {
		v = strings.Join(strings.Fields(v), " ") // one line
		if v != "" {
			kv = append(kv, [2]string{k, v})
		}
	}
	add("goos", r.GOOS)
	add("goarch", r.GOARCH)
	add("pkg", cmp.Or(r.Package, gobenchPkg))
	add("cpu", r.CPUModel)
	return kv
}

// gobenchName makes an experiment name a Go benchmark name: the first
// letter upper case (go test requires it), spaces replaced, and the
// GOMAXPROCS suffix ("sum/sink" -> "Sum/sink-2"), none at GOMAXPROCS 1,
// as testing names it, so that benchstat pairs it with go test's line.
func gobenchName(name string, procs int) string {
	name = strings.Join(strings.Fields(name), "_")
	if name == "" {
		name = "Unnamed"
	}
	r, n := utf8.DecodeRuneInString(name)
	name = string(unicode.ToUpper(r)) + name[n:]
	if procs > 1 {
		name += "-" + strconv.Itoa(procs)
	}
	return name
}

// counterUnit is the unit of a counter per op: "cycles/op",
// "task-clock-ns/op" (task-clock counts nanoseconds).
func counterUnit(c string) string {
	if c == result.CounterTaskClock {
		return "task-clock-ns/op"
	}
	return strings.Join(strings.Fields(c), "_") + "/op"
}
