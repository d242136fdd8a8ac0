package compare

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
)

// A disturbance is one kind of interference as a run records it: what it
// does to the samples of experiment x (wall time, on-CPU time, the clock
// measured around them) and the finding (or, for the run as a whole, the
// busy of the sibling) that names it. Each slows the run a little less than
// its evidence says it could, as a measured bound does.
type disturbance struct {
	code  string
	apply func(r *result.Result)
}

// A run measures experiment x at 3000 cycles/op on a 3 GHz clock: 1 µs/op,
// 31 samples spread 1%, on-CPU time counted (task-clock) and the clock
// measured around it.
func busyRun(seed uint64, cyclesPerOp float64) *result.Result {
	rng := rand.New(rand.NewPCG(seed, 2))
	e := result.Experiment{Name: "x", Clock: &result.EffectiveClock{BeforeHz: 3e9, AfterHz: 3e9}}
	for range 31 {
		ns := int64(10000 * cyclesPerOp / 3 * (1 + 0.01*rng.NormFloat64()))
		e.Samples = append(e.Samples, result.Sample{Iters: 10000, Ns: ns, CPU: 1,
			Counters: map[string]int64{result.CounterTaskClock: ns}})
	}
	return &result.Result{CPU: 1, Settings: result.Settings{Samples: 31}, Experiments: []result.Experiment{e}}
}

// scale multiplies x's wall time by wall and its on-CPU time by onCPU.
func scale(r *result.Result, wall, onCPU float64) {
	for i := range r.Experiments[0].Samples {
		s := &r.Experiments[0].Samples[i]
		s.Ns = int64(float64(s.Ns) * wall)
		s.Counters[result.CounterTaskClock] = int64(float64(s.Counters[result.CounterTaskClock]) * onCPU)
	}
}

func warnOn(r *result.Result, code string, sev finding.Severity, evidence map[string]any) {
	e := &r.Experiments[0]
	e.Findings = append(e.Findings, finding.Finding{Code: code, Severity: sev, Evidence: evidence})
}

var disturbances = []disturbance{
	// Other tasks took the CPU for half of every sample: the wall time
	// doubles, the on-CPU time does not move. Severity error, as in a
	// run under two CPU hogs.
	{result.CodeDisturbed, func(r *result.Result) {
		scale(r, 2, 1)
		warnOn(r, result.CodeDisturbed, finding.Error, map[string]any{"median_off_cpu_share": 0.5, "max_off_cpu_share": 0.5})
	}},
	// The clock dropped 30%: each op takes as many cycles, 1/0.7 as
	// long.
	{result.CodeSlowClock, func(r *result.Result) {
		scale(r, 1/0.7, 1/0.7)
		c := r.Experiments[0].Clock
		c.BeforeHz, c.AfterHz = c.BeforeHz*0.7, c.AfterHz*0.7
		warnOn(r, result.CodeSlowClock, finding.Warn, map[string]any{"drop": 0.3})
	}},
	// The reference loop took 30% more cycles: the core was shared; the
	// thread ran 25% slower.
	{result.CodeSlowCore, func(r *result.Result) {
		scale(r, 1.25, 1.25)
		warnOn(r, result.CodeSlowCore, finding.Warn, map[string]any{"excess": 0.3})
	}},
	// The SMT sibling was 80% busy during the run: the thread ran 50%
	// slower (a sibling can take up to half the core).
	{machine.CodeSiblingBusy, func(r *result.Result) {
		scale(r, 1.5, 1.5)
		r.Before = &machine.Snapshot{CPUs: []machine.CPU{{CPU: 1, Siblings: machine.Known(machine.CPUList{0})}, {CPU: 0, Siblings: machine.Known(machine.CPUList{1})}}}
		r.BusyDuring = []machine.CPUBusy{{CPU: 0, Busy: machine.Known(80.0), Ticks: 300}, {CPU: 1, Busy: machine.Known(100.0), Ticks: 300}}
	}},
	// A task preempted the clock probe before the samples: it read a
	// third of the clock, while the samples ran at full speed (the checks
	// beside them found the core at its best, so no finding names it). A
	// real run so measured read identical code 1.52x faster in cycles.
	{codeProbe, func(r *result.Result) {
		if c := r.Experiments[0].Clock; c != nil {
			c.BeforeHz /= 3
		}
	}},
}

// codeProbe names the preempted clock probe; no finding has that code.
const codeProbe = "preempted-probe"

// dropOnCPU leaves x without on-CPU time (a target that cannot count it).
func dropOnCPU(r *result.Result) {
	for i := range r.Experiments[0].Samples {
		delete(r.Experiments[0].Samples[i].Counters, result.CounterTaskClock)
	}
}

// Every combination of slow-core, slow-clock, disturbed, a busy sibling and
// a preempted clock probe,
// on old, new or both, with and without the on-CPU time and the clock that
// can leave some of them out: identical code is never claimed faster or
// slower; where a kind of interference was left out by the basis the
// comparison says so (on-CPU time for time off the CPU, cycles for a
// clock), and where the data left nothing in it finds no difference; where
// something is left in, it is inconclusive and names it. A 100x slowdown
// is claimed whatever interfered, and on clean runs identical code is no
// difference and a 2x slowdown is claimed: the test fails both ways.
func TestBusyMatrix(t *testing.T) {
	type data struct {
		name          string
		onCPU, cycles bool
	}
	for _, d := range []data{{"on-CPU and clock", true, true}, {"on-CPU, no clock", true, false},
		{"clock, no on-CPU", false, true}, {"neither", false, false}} {
		for mask := 0; mask < 1<<len(disturbances); mask++ {
			var which []disturbance
			var codes []string
			for i, dist := range disturbances {
				if mask&(1<<i) != 0 {
					which = append(which, dist)
					codes = append(codes, dist.code)
				}
			}
			places := []string{"old", "new", "both"}
			if mask == 0 {
				places = []string{"nowhere"}
			}
			for _, place := range places {
				name := fmt.Sprintf("%s/%s on %s", d.name, strings.Join(codes, "+"), place)
				t.Run(name, func(t *testing.T) {
					side := func(seed uint64, cycles float64, disturbed bool) *result.Result {
						r := busyRun(seed, cycles)
						if disturbed {
							for _, dist := range which {
								dist.apply(r)
							}
						}
						if !d.onCPU {
							dropOnCPU(r)
						}
						if !d.cycles {
							r.Experiments[0].Clock = nil
						}
						return r
					}
					judge := func(slowdown float64) Row {
						t.Helper()
						old := side(1, 3000, place == "old" || place == "both")
						cur := side(2, 3000*slowdown, place == "new" || place == "both")
						f, err := Results([]*result.Result{old}, []*result.Result{cur}, 0.02)
						if err != nil {
							t.Fatal(err)
						}
						return f.Rows[0]
					}
					same := judge(1)
					if same.Verdict == result.Faster || same.Verdict == result.Slower {
						t.Errorf("identical code claimed %s (%s): %s", same.Verdict, same.Basis, same.Reason)
					}
					off := slices.Contains(codes, result.CodeDisturbed)
					clock := slices.Contains(codes, result.CodeSlowClock)
					// A side whose probes disagree has no clock to count
					// cycles at.
					cycles := d.cycles && !slices.Contains(codes, codeProbe)
					if off && d.onCPU && !strings.HasPrefix(same.Basis, "on-CPU") {
						t.Errorf("time off the CPU judged on %q, want on-CPU time", same.Basis)
					}
					if cycles != strings.HasSuffix(same.Basis, "cycles") {
						t.Errorf("judged on %q; a clock both probes agree on: %v", same.Basis, cycles)
					}
					var named []string // what the reason must name: what is left in
					for _, c := range []string{result.CodeSlowCore, machine.CodeSiblingBusy} {
						if slices.Contains(codes, c) {
							named = append(named, c)
						}
					}
					if off && !d.onCPU {
						named = append(named, "time off the CPU")
					}
					if clock && !cycles {
						named = append(named, result.CodeSlowClock)
					}
					for _, what := range named {
						if !strings.Contains(same.Reason, what) {
							t.Errorf("the reason does not name %s: %q", what, same.Reason)
						}
					}
					leftIn := len(named) > 0
					switch {
					case leftIn && same.Verdict != result.Inconclusive:
						t.Errorf("identical code %s (%s), want inconclusive: %s", same.Verdict, same.Basis, same.Reason)
					case leftIn && !strings.Contains(same.Reason, "rerun"):
						t.Errorf("inconclusive without saying what to do: %q", same.Reason)
					case !leftIn && same.Verdict != result.NoDifference:
						t.Errorf("everything left out, yet %s (%s): %s", same.Verdict, same.Basis, same.Reason)
					}
					slowdown := 100.0
					if mask == 0 {
						slowdown = 2
					}
					if r := judge(slowdown); r.Verdict != result.Slower {
						t.Errorf("a %gx slowdown %s (%s): %s", slowdown, r.Verdict, r.Basis, r.Reason)
					}
				})
			}
		}
	}
}

// probe-1.json and probe-2.json are two default runs of the same binary
// under two CPU hogs; before fold/opaque in the second, the clock probe
// was preempted (1.20 GHz before, 3.60 after, every check beside the
// samples at full speed). Counted in cycles at the mean of the two
// probes, identical code read 1.52x faster; nothing may be claimed.
func TestRecordedPreemptedProbe(t *testing.T) {
	var rs []*result.Result
	for _, name := range []string{"probe-1.json", "probe-2.json"} {
		r, err := result.Load("../../testdata/compare/" + name)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	f, err := Results(rs[:1], rs[1:], 0.02)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range f.Rows {
		if row.Verdict == result.Faster || row.Verdict == result.Slower {
			t.Errorf("%s: identical code claimed %s on %s (ratio %.3f)", row.Name, row.Verdict, row.Basis, row.Ratio)
		}
		if row.Name == "fold/opaque" && strings.HasSuffix(row.Basis, "cycles") {
			t.Errorf("fold/opaque judged on %s, at a clock its probes disagree on", row.Basis)
		}
	}
}
