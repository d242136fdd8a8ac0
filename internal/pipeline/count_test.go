package pipeline

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/callgrind"
	"github.com/benchy-dev/benchy/internal/compare"
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

func (f *fakeCallgrind) count(_ context.Context, c callgrind.Command, o callgrind.Options) (*callgrind.Run, error) {
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
	// 16,000 instructions an op and 3,000,000 a run: the first probe (one
	// op) says 5 ops reach the work, too few to tell an op from the run's
	// constant; the probe grows tenfold until its ops count a tenth of the
	// work, and the largest point's ops then count the work.
	f := &fakeCallgrind{perOp: 16_000, base: 3_000_000, cpuPerOp: time.Microsecond, wantEnv: []string{"GOGC=off"}}
	r := countResult("Sum")
	var lines []string
	err := Count(context.Background(), r, []Countable{countTarget{name: "Sum"}}, CountOptions{count: f.count, Env: []string{"GOGC=off"},
		Progress: func(s string) { lines = append(lines, s) }})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Experiments[0].Count
	if c == nil || c.Error != "" {
		t.Fatalf("count %+v", c)
	}
	if want := []int64{1, 5, 50, 500}; !slices.Equal(f.ns[:4], want) {
		t.Errorf("probes at %v, want %v", f.ns[:4], want)
	}
	points := f.ns[4:]
	if len(points) != DefaultCountPoints {
		t.Fatalf("points %v", points)
	}
	last := points[len(points)-1]
	if w := last * 16_000; w < DefaultCountWork*99/100 || w > DefaultCountWork*101/100 {
		t.Errorf("largest point %d ops counts %d instructions, want about %d", last, w, DefaultCountWork)
	}
	for i, n := range points {
		if want := last * int64(i+1) / int64(len(points)); n < want-1 || n > want+1 {
			t.Errorf("points %v are not evenly spread up to %d", points, last)
			break
		}
	}
	if per, _ := compare.CountPerOp(c, result.EventInstructions); per != 16_000 {
		t.Errorf("per op %v, want 16000 with the run's constant cancelled", per)
	}
	if len(c.Samples) != 4 || c.Symbol != "pkg.Sum" || c.Tool != "callgrind-3.19.0" || c.Counter != result.CounterCallgrind {
		t.Errorf("count %+v", c)
	}
	if c.WallNs <= c.Samples[0].WallNs {
		t.Errorf("wall %d: the probes' time is not in it", c.WallNs)
	}
	if len(lines) != 2 || !strings.Contains(lines[0], "[1/1] Sum") || lines[1] != "" {
		t.Errorf("progress %q: want the line, then its clearing", lines)
	}
}

func TestCountPerRun(t *testing.T) {
	f := &fakeCallgrind{perOp: 1, base: 5000}
	r := countResult("prog")
	if err := Count(context.Background(), r, []Countable{countTarget{name: "prog", perRun: true}}, CountOptions{count: f.count, Points: 3}); err != nil {
		t.Fatal(err)
	}
	if len(f.ns) != 3 || f.ns[0] != 1 || f.ns[2] != 1 {
		t.Errorf("runs %v, want three of one op, no calibration", f.ns)
	}
	if per, _ := compare.CountPerOp(r.Experiments[0].Count, result.EventInstructions); per != 5001 {
		t.Errorf("per run %v", per)
	}
}

func TestCountFailureKeepsOthers(t *testing.T) {
	f := &fakeCallgrind{perOp: 1, base: 1, cpuPerOp: time.Millisecond}
	r := countResult("Bad", "Good")
	ts := []Countable{countTarget{name: "Bad", fail: errors.New("cannot run")}, countTarget{name: "Good"}}
	if err := Count(context.Background(), r, ts, CountOptions{count: f.count}); err != nil {
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
	stopped := func(context.Context, callgrind.Command, callgrind.Options) (*callgrind.Run, error) {
		return nil, context.Canceled
	}
	if err := Count(context.Background(), r, []Countable{countTarget{name: "A"}, countTarget{name: "B"}}, CountOptions{count: stopped}); !errors.Is(err, context.Canceled) {
		t.Errorf("Count = %v, want context.Canceled", err)
	}
	if r.Experiments[0].Count == nil || r.Experiments[1].Count != nil {
		t.Errorf("after a stop in A: A %+v, B %+v", r.Experiments[0].Count, r.Experiments[1].Count)
	}
	missing := func(context.Context, callgrind.Command, callgrind.Options) (*callgrind.Run, error) {
		return nil, callgrind.ErrMissing
	}
	if err := Count(context.Background(), countResult("A"), []Countable{countTarget{name: "A"}}, CountOptions{count: missing}); !errors.Is(err, callgrind.ErrMissing) {
		t.Errorf("Count = %v, want ErrMissing", err)
	}
}

// Every counted run is bounded by countTimeout of the timed median and
// its N; a run killed at the bound fails its count saying the bound and
// where it came from.
func TestCountTimeout(t *testing.T) {
	var got []time.Duration
	timedOut := func(_ context.Context, c callgrind.Command, o callgrind.Options) (*callgrind.Run, error) {
		got = append(got, o.Timeout)
		return nil, &callgrind.TimeoutError{Program: c.Argv[0], After: o.Timeout}
	}
	r := countResult("prog") // a median of 1000 ns a run
	if err := Count(context.Background(), r, []Countable{countTarget{name: "prog", perRun: true}}, CountOptions{count: timedOut}); err != nil {
		t.Fatal(err)
	}
	want := countFloor + countSlowdown*time.Microsecond
	if len(got) != 1 || got[0] != want {
		t.Errorf("timeouts %v, want one run bounded at %v", got, want)
	}
	msg := r.Experiments[0].Count.Error
	if !strings.Contains(msg, "still running after 1m0.0002s") || !strings.Contains(msg, "1m0s plus 200 times the 1 µs its 1 op took timed") {
		t.Errorf("count error %q: want the bound and how it was set", msg)
	}

	for _, tt := range []struct {
		perOpNs float64
		n       int64
		want    time.Duration
	}{
		{math.NaN(), 10, countFloor}, // no timed sample
		{0, 10, countFloor},
		{1e6, 1, countFloor + 200*time.Millisecond},
		{1e3, 1000, countFloor + 200*time.Millisecond},
		{1e15, 1 << 40, countFloor + maxCountTimeout},
	} {
		if got := countTimeout(tt.perOpNs, tt.n); got != tt.want {
			t.Errorf("countTimeout(%g, %d) = %v, want %v", tt.perOpNs, tt.n, got, tt.want)
		}
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
	if s := scaleCount(10, 0, 1000); s != 1000 {
		t.Errorf("scale with nothing counted %d, want at most 100x", s)
	}
	if s := scaleCount(10, 10, 1_000_000); s != 1000 {
		t.Errorf("scale of a probe lost in the constant %d, want at most 100x", s)
	}
	if s := scaleCount(100, 1000, 4000); s != 400 {
		t.Errorf("scale %d, want 400", s)
	}
}
