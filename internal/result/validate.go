package result

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode"
)

// Ranges of what a run can write. A file outside them was damaged or made
// by hand, and one absurd value (a maximum clock of 1 Hz, a threshold of
// 1e308) would decide every verdict of the report.
const (
	minHz        = 1e7  // 10 MHz: no CPU benchy measures on is slower
	maxHz        = 1e11 // 100 GHz: none is faster
	maxThreshold = 10   // 1000%, the most --threshold takes
	maxNs        = 1e15 // eleven days, in ns: no duration of a run is longer
)

// checkValues rejects values a run cannot write, naming the field.
func checkValues(r *Result) error {
	st := r.Settings
	if err := firstError(
		hzField("max_freq_hz", r.MaxFreqHz),
		hzField("effective_clock.before_hz", r.EffectiveClock.BeforeHz),
		hzField("effective_clock.after_hz", r.EffectiveClock.AfterHz),
		inRange("settings.threshold", st.Threshold, maxThreshold),
		inRange("settings.samples", float64(st.Samples), math.MaxInt32),
		inRange("settings.warmup_runs", float64(st.WarmupRuns), math.MaxInt32),
		inRange("settings.warmup_ns", float64(st.Warmup), maxNs),
		inRange("settings.sample_time_ns", float64(st.SampleTime), maxNs),
		inRange("settings.window_ns", float64(st.Window), maxNs),
		inRange("settings.iters", float64(st.Iters), math.MaxInt64),
		inRange("clock.now_cost_ns", r.Clock.NowCostNs, maxNs),
		inRange("clock.granularity_ns", r.Clock.GranularityNs, maxNs),
		inRange("gomaxprocs", float64(r.GOMAXPROCS), math.MaxInt32),
	); err != nil {
		return err
	}
	if r.CPU < -1 {
		return fmt.Errorf("cpu is %d: must be a CPU number, or -1 for not pinned", r.CPU)
	}
	seen := map[string]int{}
	for i, e := range r.Experiments {
		where := fmt.Sprintf("experiment %q (experiments[%d])", e.Label(), i)
		if j, dup := seen[e.Label()]; dup {
			return fmt.Errorf("%s has the name of experiments[%d]: a result names each experiment once", where, j)
		}
		seen[e.Label()] = i
		if err := checkExperiment(&e, where, r.GOMAXPROCS); err != nil {
			return err
		}
	}
	return nil
}

// checkExperiment rejects the values of one experiment a run cannot
// write, in an error that begins with where; procs is the run's
// GOMAXPROCS.
func checkExperiment(e *Experiment, where string, procs int) error {
	if err := firstError(
		inRange("units", e.Units, math.MaxFloat64),
		inRange("floor_cycles", e.FloorCycles, math.MaxFloat64),
		inRange("iters_per_sample", float64(e.Iters), math.MaxInt64),
		inRange("gc.allocs_per_op", e.GC.AllocsPerOp, math.MaxFloat64),
		inRange("gc.bytes_per_op", e.GC.BytesPerOp, math.MaxFloat64),
		inRange("gomaxprocs", float64(e.GOMAXPROCS), math.MaxInt32),
	); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	procs = max(e.GOMAXPROCS, procs, 1)
	for j, s := range e.Samples {
		if err := checkSample(s, procs); err != nil {
			return fmt.Errorf("%s, samples[%d]: %w", where, j, err)
		}
	}
	if err := checkCount(e.Count); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	return nil
}

// checkSample rejects a sample's values a run cannot write: a negative
// process or counter, or more time on the CPU than procs threads could
// spend in the sample.
func checkSample(s Sample, procs int) error {
	if s.Process < 0 {
		return fmt.Errorf("process is %d, below 0", s.Process)
	}
	for name, v := range s.Counters {
		if v < 0 {
			return fmt.Errorf("counter %q is %d, below 0", name, v)
		}
	}
	for _, name := range []string{CounterTaskClock, CounterThreadCPU} {
		if v, ok := s.Counters[name]; ok && float64(v) > maxOnCPUNs(s.Ns, procs) {
			return fmt.Errorf("counter %q is %d ns, more than the sample's %d ns on each of %d CPUs (GOMAXPROCS): no run is on the CPU longer than it lasts",
				name, v, s.Ns, procs)
		}
	}
	return nil
}

// hzField rejects a clock frequency outside what a CPU runs at; 0 is
// unknown.
func hzField(field string, v float64) error {
	if v != 0 && !(v >= minHz && v <= maxHz) {
		return fmt.Errorf("%s is %g: must be 0 (unknown) or between %g and %g", field, v, float64(minHz), float64(maxHz))
	}
	return nil
}

// inRange rejects a value below 0 or above limit (NaN included).
func inRange(field string, v, limit float64) error {
	if !(v >= 0 && v <= limit) {
		return fmt.Errorf("%s is %g: must be between 0 and %g", field, v, limit)
	}
	return nil
}

// firstError is the first error that is not nil, in the order of the
// checks.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// DropMiscountedOnCPU removes the on-CPU counts (task-clock, thread CPU)
// of every sample that holds more than its experiment's threads could
// spend in it, the bound Validate holds a result to. Such a count is a
// miscount (on a VM loaded four times over, a measured thread's
// task-clock read 13.8 ms in a sample of 8.2 ms, on one thread), and a
// run must never write a result it then refuses to read back. The sample
// keeps its time; its on-CPU time becomes unknown, which every judgement
// of on-CPU time allows for. It returns how many counts it removed.
func (r *Result) DropMiscountedOnCPU() int {
	dropped := 0
	for i := range r.Experiments {
		e := &r.Experiments[i]
		procs := max(e.GOMAXPROCS, r.GOMAXPROCS, 1)
		for j := range e.Samples {
			s := &e.Samples[j]
			for _, name := range []string{CounterTaskClock, CounterThreadCPU} {
				if v, ok := s.Counters[name]; ok && float64(v) > maxOnCPUNs(s.Ns, procs) {
					delete(s.Counters, name)
					dropped++
				}
			}
		}
	}
	return dropped
}

// maxOnCPUNs is the most on-CPU time a sample of wallNs can hold with
// procs threads: procs times its wall time, plus a tenth and a
// millisecond for the counters, read just outside the timed region.
// More would read as a sample the machine never disturbed (its time off
// the CPU below 0), and flip a verdict to believable.
func maxOnCPUNs(wallNs int64, procs int) float64 {
	return float64(wallNs)*float64(procs)*1.1 + 1e6
}

// checkCount rejects counts no run can produce: a negative number of ops,
// of events or of time.
func checkCount(c *Count) error {
	if c == nil {
		return nil
	}
	if c.WallNs < 0 {
		return fmt.Errorf("count.wall_ns is %d, below 0", c.WallNs)
	}
	for j, s := range c.Samples {
		switch {
		case s.Iters < 0:
			return fmt.Errorf("count.samples[%d]: iters is %d, below 0", j, s.Iters)
		case s.WallNs < 0:
			return fmt.Errorf("count.samples[%d]: wall_ns is %d, below 0", j, s.WallNs)
		}
		for name, v := range s.Events {
			if v < 0 {
				return fmt.Errorf("count.samples[%d]: event %q is %d, below 0", j, name, v)
			}
		}
	}
	return nil
}

// Printable escapes what must not reach a terminal raw from a file: control
// characters (a newline in a name could forge a line of the report, an
// escape sequence could rewrite the screen) and the bidirectional
// formatting characters, as Go's %q would write them; the rest is kept.
// A live run applies it to what it names from outside (a command line, a
// file name), so its messages and result name things as a loaded result
// does.
func Printable(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unsafeRune(r) {
			q := fmt.Sprintf("%+q", string(r))
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == unicode.ReplacementChar
}

// sanitize makes every string in v printable (see Printable), walking
// structs, pointers, slices and maps. Decode applies it to a loaded
// result, so no writer can put a file's control characters on a
// terminal, whatever field they hide in.
func sanitize(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			sanitize(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				sanitize(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			sanitize(v.Index(i))
		}
	case reflect.Map:
		sanitizeMap(v)
	case reflect.String:
		if v.CanSet() {
			v.SetString(Printable(v.String()))
		}
	}
}

// sanitizeMap makes a map's string keys and values printable, and the
// strings held in its interface values (a finding's evidence). Only the
// entries that change are collected: most maps (counters by event name)
// hold nothing to clean, and a result holds tens of thousands of them.
func sanitizeMap(v reflect.Value) {
	type entry struct{ old, key, val reflect.Value }
	var changed []entry
	for it := v.MapRange(); it.Next(); {
		k, val := it.Key(), it.Value()
		key, keyDirty := k, false
		if k.Kind() == reflect.String {
			key, keyDirty = printableValue(k)
		}
		elem, valDirty := printableValue(val)
		if keyDirty || valDirty {
			changed = append(changed, entry{k, key, elem})
		}
	}
	for _, e := range changed {
		v.SetMapIndex(e.old, reflect.Value{})
		v.SetMapIndex(e.key, e.val)
	}
}

// printableValue is v made printable, when v is a string (of any string
// type) or an interface holding a string, and whether that changed it.
func printableValue(v reflect.Value) (reflect.Value, bool) {
	switch {
	case v.Kind() == reflect.String:
		if p := Printable(v.String()); p != v.String() {
			return reflect.ValueOf(p).Convert(v.Type()), true
		}
	case v.Kind() == reflect.Interface && !v.IsNil() && v.Elem().Kind() == reflect.String:
		if p := Printable(v.Elem().String()); p != v.Elem().String() {
			return reflect.ValueOf(p), true
		}
	}
	return v, false
}
