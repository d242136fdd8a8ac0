package render

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
)

// gobenchPkg is the package the built-in experiments live in, written as
// the "pkg" configuration key like `go test -bench` does.
const gobenchPkg = "github.com/benchy-dev/benchy/internal/workload"

// writeGobench writes every sample as one line of the Go benchmark format,
// after configuration lines that describe the run, so that benchstat
// compares benchy results with each other and with go test's. A line holds
// what go test prints (-benchmem), in its order: ns/op, MB/s where the
// benchmark set b.SetBytes, the units of b.ReportMetric, B/op and
// allocs/op; with counters, then each of benchy's counters per op.
// Counters are not written by default: benchstat makes a table of every
// unit, and a dozen counters bury the time (17 tables for one file) in
// units go test's file does not have. The JSON holds them all. Failed
// experiments and samples without iterations are left out: they have no
// time per op. B/op and allocs/op are left out where they were not
// measured (allocsKnown).
func writeGobench(w io.Writer, r *result.Result, counters bool) error {
	bw := &gobenchWriter{w: w, config: gobenchConfig(r)}
	var line gobenchLine
	for _, e := range r.Experiments {
		if e.Error != "" {
			continue
		}
		line.name = gobenchName(e.Name, cmp.Or(e.GOMAXPROCS, r.GOMAXPROCS))
		allocs := allocsKnown(r, e)
		for _, s := range e.Samples {
			if s.Iters <= 0 {
				continue
			}
			line.iters = s.Iters
			// A benchmark's own ns/op (b.ReportMetric(x, "ns/op")) is
			// what go test prints in place of the loop's time, and this
			// file sits beside go test's: so here it is the line's ns/op
			// (none when it is 0, as go test prints none). benchy's
			// tables and verdicts stay of the loop's time, which the JSON
			// keeps.
			line.values = line.values[:0]
			if own, ok := s.Metrics[result.UnitOwnNs]; !ok {
				line.add(s.NsPerOp(), "ns/op")
			} else if own != 0 {
				line.add(own, "ns/op")
			}
			if v, ok := s.Metrics["MB/s"]; ok {
				line.add(v, "MB/s")
			}
			for _, unit := range sortedKeys(s.Metrics) {
				switch unit {
				case "MB/s", "B/op", "allocs/op": // written in go test's places
					continue
				case result.UnitOwnNs: // the line's ns/op, above
					continue
				}
				line.add(s.Metrics[unit], unit)
			}
			if allocs {
				line.add(e.GC.BytesPerOp, "B/op")
				line.add(e.GC.AllocsPerOp, "allocs/op")
			}
			if counters {
				for _, c := range sortedKeys(s.Counters) {
					line.add(float64(s.Counters[c])/float64(s.Iters), counterUnit(c))
				}
			}
			if err := bw.write(&line); err != nil {
				return err
			}
		}
		if err := gobenchCount(bw, &line, e); err != nil {
			return err
		}
	}
	return nil
}

// gobenchWriter writes the Go benchmark format: the configuration lines
// ("key: value") and a blank line once, before the first benchmark line, as
// golang.org/x/perf/benchfmt's writer does for a file whose configuration
// never changes (benchy's does not: gobenchConfig), so benchstat reads
// it as it reads go test's. Written here rather than with benchfmt, whose
// writer links its statistics (benchmath, go-moremath) into every program
// built on benchy; TestGobenchReadsBack holds the two to the same bytes.
type gobenchWriter struct {
	w       io.Writer
	config  [][2]string
	started bool
}

// gobenchLine is one benchmark line: "Benchmark" name, iterations, and
// each value with its unit.
type gobenchLine struct {
	name   string
	iters  int64
	values []gobenchValue
}

type gobenchValue struct {
	v    float64
	unit string
}

func (l *gobenchLine) add(v float64, unit string) {
	l.values = append(l.values, gobenchValue{v, unit})
}

func (bw *gobenchWriter) write(l *gobenchLine) error {
	var b strings.Builder
	if !bw.started {
		for _, kv := range bw.config {
			fmt.Fprintf(&b, "%s: %s\n", kv[0], kv[1])
		}
		if len(bw.config) > 0 {
			b.WriteByte('\n')
		}
		bw.started = true
	}
	fmt.Fprintf(&b, "Benchmark%s %d", l.name, l.iters)
	for _, v := range l.values {
		fmt.Fprintf(&b, " %v %s", v.v, v.unit)
	}
	b.WriteByte('\n')
	_, err := io.WriteString(bw.w, b.String())
	return err
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
// measured clock were among them. Those are in the JSON result. The keys
// are go test's, with its values: a go test file of the same benchmarks on
// the same machine then shares the table (benchstat -ignore /gomaxprocs).
// A value is written as it is, spaces included (benchstat compares it
// whole), only kept on one line.
func gobenchConfig(r *result.Result) [][2]string {
	var kv [][2]string
	add := func(k, v string) {
		v = strings.NewReplacer("\r", " ", "\n", " ").Replace(v) // one line
		if strings.TrimSpace(v) != "" {
			kv = append(kv, [2]string{k, v})
		}
	}
	add("goos", r.GOOS)
	add("goarch", r.GOARCH)
	add("pkg", cmp.Or(r.Package, gobenchPkg))
	add("cpu", gobenchCPU(r))
	return kv
}

// gobenchCPU is the value of the cpu key: the CPU's name as go test
// prints it (the snapshot's brand), none where go test prints no cpu line,
// and the model name for a result that holds no brand (written before
// benchy read it, or made without a snapshot), the closest it has.
func gobenchCPU(r *result.Result) string {
	if r.Before == nil {
		return r.CPUModel
	}
	if brand, ok := r.Before.CPUBrand.Get(); ok {
		return brand
	}
	if r.Before.CPUBrand.Reason == machine.NotRecorded {
		return r.CPUModel
	}
	return ""
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
