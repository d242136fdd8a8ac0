package result_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// roundTrip encodes r and reads it back as a file is read.
func roundTrip(t *testing.T, r *result.Result) (*result.Result, error) {
	t.Helper()
	var buf bytes.Buffer
	if err := result.Encode(&buf, r); err != nil {
		t.Fatal(err)
	}
	return result.Unmarshal(buf.Bytes())
}

// A value no run can write is refused, and the message names the field
// (and the experiment and sample that hold it).
func TestUnmarshalRefusesImpossibleValues(t *testing.T) {
	tests := []struct {
		name   string
		change func(r *result.Result)
		want   string // in the error; "" for none
	}{
		{"the fixture", func(r *result.Result) {}, ""},
		{"an unknown clock", func(r *result.Result) { r.MaxFreqHz = 0 }, ""},
		{"a 1 Hz clock", func(r *result.Result) { r.MaxFreqHz = 1 }, "max_freq_hz is 1: must be 0 (unknown) or between"},
		{"a clock after of 1 THz", func(r *result.Result) { r.EffectiveClock.AfterHz = 1e12 }, "effective_clock.after_hz is 1e+12"},
		{"a clock before of 1 kHz", func(r *result.Result) { r.EffectiveClock.BeforeHz = 1e3 }, "effective_clock.before_hz is 1000"},
		{"a threshold of 1e308", func(r *result.Result) { r.Settings.Threshold = 1e308 }, "settings.threshold is 1e+308: must be between 0 and 10"},
		{"negative samples", func(r *result.Result) { r.Settings.Samples = -1 }, "settings.samples is -1"},
		{"negative warm-up runs", func(r *result.Result) { r.Settings.WarmupRuns = -1 }, "settings.warmup_runs is -1"},
		{"a warm-up of years", func(r *result.Result) { r.Settings.Warmup = 1 << 62 }, "settings.warmup_ns is"},
		{"a negative sample time", func(r *result.Result) { r.Settings.SampleTime = -1 }, "settings.sample_time_ns is -1"},
		{"a negative window", func(r *result.Result) { r.Settings.Window = -1 }, "settings.window_ns is -1"},
		{"negative iterations", func(r *result.Result) { r.Settings.Iters = -1 }, "settings.iters is -1"},
		{"a negative clock cost", func(r *result.Result) { r.Clock.NowCostNs = -1 }, "clock.now_cost_ns is -1"},
		{"a negative granularity", func(r *result.Result) { r.Clock.GranularityNs = -1 }, "clock.granularity_ns is -1"},
		{"negative GOMAXPROCS", func(r *result.Result) { r.GOMAXPROCS = -1 }, "gomaxprocs is -1"},
		{"not pinned", func(r *result.Result) { r.CPU = -1 }, ""},
		{"cpu -2", func(r *result.Result) { r.CPU = -2 }, "cpu is -2: must be a CPU number, or -1 for not pinned"},
		{"two experiments of one name", func(r *result.Result) { r.Experiments[1].Name = r.Experiments[0].Name }, "(experiments[1]) has the name of experiments[0]"},
		{"negative units", func(r *result.Result) { r.Experiments[1].Units = -1 }, "(experiments[1]): units is -1"},
		{"a negative floor", func(r *result.Result) { r.Experiments[0].FloorCycles = -1 }, "(experiments[0]): floor_cycles is -1"},
		{"negative allocations", func(r *result.Result) { r.Experiments[0].GC.AllocsPerOp = -1 }, "gc.allocs_per_op is -1"},
		{"negative bytes", func(r *result.Result) { r.Experiments[0].GC.BytesPerOp = -1 }, "gc.bytes_per_op is -1"},
		{"an experiment's negative GOMAXPROCS", func(r *result.Result) { r.Experiments[0].GOMAXPROCS = -1 }, "(experiments[0]): gomaxprocs is -1"},
		{"a negative process", func(r *result.Result) { r.Experiments[0].Samples[2].Process = -1 }, "(experiments[0]), samples[2]: process is -1, below 0"},
		{"a negative counter", func(r *result.Result) { r.Experiments[0].Samples[1].Counters["x"] = -1 }, `samples[1]: counter "x" is -1, below 0`},
		{"more time on the CPU than the sample lasted", func(r *result.Result) {
			s := &r.Experiments[0].Samples[0]
			s.Counters[result.CounterTaskClock] = s.Ns * 3
		}, `samples[0]: counter "task-clock" is`},
		{"a negative count", func(r *result.Result) { r.Experiments[0].Count = &result.Count{WallNs: -1} }, "(experiments[0]): count.wall_ns is -1, below 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := resulttest.Fixture()
			r.GOMAXPROCS = 1
			tt.change(r)
			_, err := roundTrip(t, r)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && err == nil:
				t.Errorf("read, want an error with %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %q, want one with %q", err, tt.want)
			}
		})
	}
}

// Reading a result makes every string printable wherever it is: a
// field, a pointer's, a slice's element, a map's key and value, and a
// string inside an interface value in a map.
func TestUnmarshalMakesStringsPrintable(t *testing.T) {
	const bad, clean = "a\x1b[2Jb\u202e", `a\x1b[2Jb\u202e`
	r := resulttest.Fixture()
	e := &r.Experiments[0]
	e.Name = bad
	e.Findings = []finding.Finding{{Code: "c", Severity: finding.Info, Message: bad, Evidence: map[string]any{bad: bad, "n": 1.5}}}
	e.Count = &result.Count{Counter: result.CounterCallgrind, Caches: map[string]string{"I1": bad}}
	r.Counters.Notes = map[string]string{bad: "fine"}
	got, err := roundTrip(t, r)
	if err != nil {
		t.Fatal(err)
	}
	ge := got.Experiments[0]
	if ge.Name != clean || ge.Findings[0].Message != clean {
		t.Errorf("name %q, message %q; want %q", ge.Name, ge.Findings[0].Message, clean)
	}
	if ev := ge.Findings[0].Evidence; len(ev) != 2 || ev[clean] != clean || ev["n"] != 1.5 {
		t.Errorf("evidence %q, want its key and string value printable, the number kept", ev)
	}
	if c := ge.Count.Caches["I1"]; c != clean {
		t.Errorf("a pointer's map value %q, want %q", c, clean)
	}
	if n := got.Counters.Notes; len(n) != 1 || n[clean] != "fine" {
		t.Errorf("notes %q, want the key printable", n)
	}
}

// A run drops the on-CPU counts no thread could have spent, at the
// experiment's GOMAXPROCS, so that what it writes reads back; the sample
// keeps its time and its other counters.
func TestDropMiscountedOnCPU(t *testing.T) {
	r := resulttest.Fixture()
	r.GOMAXPROCS = 1
	e := &r.Experiments[0]
	e.GOMAXPROCS = 1
	over, fine := &e.Samples[0], &e.Samples[1]
	over.Counters[result.CounterTaskClock] = over.Ns * 17 / 10 // 1.7 times its time, on one thread
	fine.Counters[result.CounterTaskClock] = fine.Ns
	if _, err := roundTrip(t, r); err == nil {
		t.Fatal("the fixture reads back with a miscount: the test proves nothing")
	}
	ns, others := over.Ns, len(over.Counters)-1
	if n := r.DropMiscountedOnCPU(); n != 1 {
		t.Errorf("dropped %d counts, want 1", n)
	}
	if _, ok := over.Counters[result.CounterTaskClock]; ok || over.Ns != ns || len(over.Counters) != others {
		t.Errorf("sample 0: %d ns, counters %v; want its time and every counter but task-clock", over.Ns, over.Counters)
	}
	if fine.Counters[result.CounterTaskClock] != fine.Ns {
		t.Errorf("sample 1 lost its task-clock: %v", fine.Counters)
	}
	if _, err := roundTrip(t, r); err != nil {
		t.Errorf("after the drop: %v", err)
	}
	// At four threads the same count is possible, and kept.
	r = resulttest.Fixture()
	r.Experiments[0].GOMAXPROCS = 4
	s := &r.Experiments[0].Samples[0]
	s.Counters[result.CounterTaskClock] = s.Ns * 17 / 10
	if n := r.DropMiscountedOnCPU(); n != 0 {
		t.Errorf("at GOMAXPROCS 4 dropped %d counts, want none", n)
	}
}
