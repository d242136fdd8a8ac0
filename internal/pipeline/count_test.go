package pipeline

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/callgrind"
	"github.com/benchy-dev/benchy/internal/result"
)

// countTarget runs "n" ops of a fake program.
type countTarget struct {
	name   string
	perRun bool
	fail   error
}

func (c countTarget) Name() string { return c.name }
func (c countTarget) CountCommand(n int64) (callgrind.Command, error) {
	if c.fail != nil {
		return callgrind.Command{}, c.fail
	}
	return callgrind.Command{Argv: []string{c.name, strconv.FormatInt(n, 10)}, Symbol: "pkg." + c.name, PerRun: c.perRun,
		MarkStart: "start." + c.name, MarkEnd: "end." + c.name}, nil
}

// fakeCallgrind counts perOp instructions an op plus base a run, and takes
// 0.5 s of CPU to start and cpuPerOp an op; it records the N of every run.
type fakeCallgrind struct {
	perOp, base int64
	cpuPerOp    time.Duration
	ns          []int64
	wantEnv     []string
}

func (f *fakeCallgrind) count(c callgrind.Command, o callgrind.Options) (*callgrind.Run, error) {
	n, _ := strconv.ParseInt(c.Argv[1], 10, 64)
	f.ns = append(f.ns, n)
	if o.MarkStart != "start."+c.Argv[0] || o.MarkEnd != "end."+c.Argv[0] {
		return nil, errors.New("marks " + o.MarkStart + " " + o.MarkEnd)
	}
	for _, kv := range f.wantEnv {
		if !slices.Contains(o.Env, kv) {
			return nil, errors.New("no " + kv + " in the environment")
		}
	}
	p := &callgrind.Profile{Creator: "callgrind-3.19.0", Events: []string{"Ir"}, Totals: map[string]int64{"Ir": f.perOp*n + f.base}}
	cpu := 500*time.Millisecond + time.Duration(n)*f.cpuPerOp
	return &callgrind.Run{Profile: p, CPU: cpu, Wall: 3 * cpu}, nil
}

func countResult(names ...string) *result.Result {
	r := &result.Result{}
	for _, n := range names {
		r.Experiments = append(r.Experiments, result.Experiment{Name: n, Stats: result.Stats{Median: 1000}})
	}
	return r
}

func TestCountCalibratesAndSlopes(t *testing.T) {
	// 1 µs an op on the CPU guesses 4000 ops for 0.2 s at 50x; under this
	// callgrind an op costs 100 µs of CPU, so 2000 ops make 0.2 s.
	f := &fakeCallgrind{perOp: 16_000, base: 3_000_000, cpuPerOp: 100 * time.Microsecond, wantEnv: []string{"GOGC=off"}}
	r := countResult("Sum")
	var lines []string
	err := Count(r, []Countable{countTarget{name: "Sum"}}, CountOptions{count: f.count, Env: []string{"GOGC=off"},
		Progress: func(s string) { lines = append(lines, s) }})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Experiments[0].Count
	if c == nil || c.Error != "" {
		t.Fatalf("count %+v", c)
	}
	if f.ns[0] != 1 || f.ns[1] != 4000 {
		t.Errorf("probes at %v, want 1 then the guess 4000", f.ns[:2])
	}
	want := []int64{500, 1000, 1500, 2000}
	got := f.ns[2:]
	if len(got) != len(want) {
		t.Fatalf("points %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("points %v, want %v", got, want)
			break
		}
	}
	if per, _ := c.PerOp(result.EventInstructions); per != 16_000 {
		t.Errorf("per op %v, want 16000 with the run's constant cancelled", per)
	}
	if len(c.Samples) != 4 || c.Symbol != "pkg.Sum" || c.Tool != "callgrind-3.19.0" || c.Counter != result.CounterCallgrind {
		t.Errorf("count %+v", c)
	}
	if c.WallNs <= c.Samples[0].WallNs {
		t.Errorf("wall %d: the probes' time is not in it", c.WallNs)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "[1/1] Sum") {
		t.Errorf("progress %q", lines)
	}
}

func TestCountGrowsTooShortProbe(t *testing.T) {
	// The time on the CPU guessed far too few ops: the probe grows tenfold
	// until its ops take a tenth of the work.
	f := &fakeCallgrind{perOp: 10, base: 100, cpuPerOp: 10 * time.Nanosecond}
	r := countResult("Tiny")
	if err := Count(r, []Countable{countTarget{name: "Tiny"}}, CountOptions{count: f.count}); err != nil {
		t.Fatal(err)
	}
	if f.ns[1] != 4000 || f.ns[2] != 40_000 {
		t.Errorf("probes %v", f.ns)
	}
	last := f.ns[len(f.ns)-1]
	if cpu := time.Duration(last) * f.cpuPerOp; cpu < 150*time.Millisecond || cpu > 250*time.Millisecond {
		t.Errorf("largest point %d ops takes %v of CPU, want about 0.2 s", last, cpu)
	}
}

func TestCountPerRun(t *testing.T) {
	f := &fakeCallgrind{perOp: 1, base: 5000}
	r := countResult("prog")
	if err := Count(r, []Countable{countTarget{name: "prog", perRun: true}}, CountOptions{count: f.count, Points: 3}); err != nil {
		t.Fatal(err)
	}
	if len(f.ns) != 3 || f.ns[0] != 1 || f.ns[2] != 1 {
		t.Errorf("runs %v, want three of one op, no calibration", f.ns)
	}
	if per, _ := r.Experiments[0].Count.PerOp(result.EventInstructions); per != 5001 {
		t.Errorf("per run %v", per)
	}
}

func TestCountFailureKeepsOthers(t *testing.T) {
	f := &fakeCallgrind{perOp: 1, base: 1, cpuPerOp: time.Millisecond}
	r := countResult("Bad", "Good")
	ts := []Countable{countTarget{name: "Bad", fail: errors.New("cannot run")}, countTarget{name: "Good"}}
	if err := Count(r, ts, CountOptions{count: f.count}); err != nil {
		t.Fatal(err)
	}
	if c := r.Experiments[0].Count; c == nil || c.Error != "cannot run" {
		t.Errorf("Bad's count %+v", c)
	}
	if c := r.Experiments[1].Count; c == nil || c.Error != "" || len(c.Samples) != DefaultCountPoints {
		t.Errorf("Good's count %+v", c)
	}
}

func TestCountStopsAndMissing(t *testing.T) {
	r := countResult("A", "B")
	stopped := func(callgrind.Command, callgrind.Options) (*callgrind.Run, error) { return nil, callgrind.ErrStopped }
	if err := Count(r, []Countable{countTarget{name: "A"}, countTarget{name: "B"}}, CountOptions{count: stopped}); !errors.Is(err, ErrCountStopped) {
		t.Errorf("Count = %v, want ErrCountStopped", err)
	}
	if r.Experiments[0].Count == nil || r.Experiments[1].Count != nil {
		t.Errorf("after a stop in A: A %+v, B %+v", r.Experiments[0].Count, r.Experiments[1].Count)
	}
	missing := func(callgrind.Command, callgrind.Options) (*callgrind.Run, error) { return nil, callgrind.ErrMissing }
	if err := Count(countResult("A"), []Countable{countTarget{name: "A"}}, CountOptions{count: missing}); !errors.Is(err, callgrind.ErrMissing) {
		t.Errorf("Count = %v, want ErrMissing", err)
	}
}

func TestCountPoints(t *testing.T) {
	for _, tt := range []struct {
		n      int64
		points int
		want   []int64
	}{
		{100, 4, []int64{25, 50, 75, 100}},
		{2, 4, []int64{1, 2, 3, 4}},
		{1, 2, []int64{1, 2}},
	} {
		got := countPoints(tt.n, tt.points)
		for i := range tt.want {
			if got[i] != tt.want[i] {
				t.Errorf("countPoints(%d, %d) = %v, want %v", tt.n, tt.points, got, tt.want)
				break
			}
		}
	}
	if g := guessCount(0, time.Second); g != 1000 {
		t.Errorf("guess with no time %d", g)
	}
	if g := guessCount(1e12, time.Second); g != 2 {
		t.Errorf("guess for a slow op %d, want at least 2", g)
	}
	if s := scaleCount(10, 0, time.Second); s != 1000 {
		t.Errorf("scale with no time read %d, want at most 100x", s)
	}
}
