package compare

import (
	"math"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

func TestCountSlope(t *testing.T) {
	// 1000 instructions an op and 50,000 a run, whatever the N.
	c := &result.Count{Counter: result.CounterCallgrind, Events: []string{result.EventInstructions}}
	for _, n := range []int64{100, 200, 400, 800} {
		c.Samples = append(c.Samples, result.CountSample{Iters: n, Events: map[string]int64{result.EventInstructions: 1000*n + 50_000}})
	}
	per, ok := CountPerOp(c, result.EventInstructions)
	if !ok || !near(per, 1000) {
		t.Errorf("PerOp = %v, %v; want 1000: the constant cancels", per, ok)
	}
	if !c.Sloped() {
		t.Error("four different N, not sloped")
	}
	for _, x := range CountSamples(c, result.EventInstructions) {
		if !near(x, 1000) {
			t.Errorf("sample per op %v, want 1000 with the constant out", x)
		}
	}
	if CountSpread(c, result.EventInstructions) > 1e-9 {
		t.Errorf("spread %v of an exact line", CountSpread(c, result.EventInstructions))
	}
	if _, ok := CountPerOp(c, "D1mr"); ok {
		t.Error("per op of an event not counted")
	}
	if _, ok := CountPerOp(c, result.EventEstCycles); ok {
		t.Error("estimated cycles without a cache simulation")
	}
}

func TestCountOneN(t *testing.T) {
	// Runs of a whole program: one op each; the per-op figure is the median.
	c := &result.Count{Counter: result.CounterCallgrind}
	for _, v := range []int64{100, 103, 101} {
		c.Samples = append(c.Samples, result.CountSample{Iters: 1, Events: map[string]int64{result.EventInstructions: v}})
	}
	if per, _ := CountPerOp(c, result.EventInstructions); per != 101 || c.Sloped() {
		t.Errorf("PerOp = %v, sloped %v; want the median 101, not sloped", per, c.Sloped())
	}
	if s := CountSpread(c, result.EventInstructions); !near(s, 2.0/101) {
		t.Errorf("spread %v, want 2/101", s)
	}
	var none *result.Count
	if _, ok := CountPerOp(none, result.EventInstructions); ok || CountSamples(none, result.EventInstructions) != nil {
		t.Error("a nil count has figures")
	}
}

func TestCountRelError(t *testing.T) {
	exact := &result.Count{}
	noisy := &result.Count{}
	for i, n := range []int64{100, 200, 300, 400} {
		exact.Samples = append(exact.Samples, result.CountSample{Iters: n, Events: map[string]int64{result.EventInstructions: 1000 * n}})
		noisy.Samples = append(noisy.Samples, result.CountSample{Iters: n, Events: map[string]int64{result.EventInstructions: 1000*n + int64([]int{500, -500, -500, 500}[i])}})
	}
	if e := countRelError(exact, result.EventInstructions); e != 0 {
		t.Errorf("error %v of runs on a line", e)
	}
	// Residuals ±500 about the fit: s = sqrt(1e6/2), Sxx = 50000.
	want := math.Sqrt(1e6/2/50000) / 1000
	if e := countRelError(noisy, result.EventInstructions); !near(e, want) {
		t.Errorf("error %v, want %v", e, want)
	}
	runs := &result.Count{}
	for _, v := range []int64{99, 100, 101} {
		runs.Samples = append(runs.Samples, result.CountSample{Iters: 1, Events: map[string]int64{result.EventInstructions: v}})
	}
	if e := countRelError(runs, result.EventInstructions); !near(e, 1/math.Sqrt(3)/100) {
		t.Errorf("error of the median of runs %v", e)
	}
}

// The estimated cycles per op are the formula's over the cache events'
// figures per op, each a slope whose cost paid once (7 a run) cancels.
func TestCountEstCycles(t *testing.T) {
	c := &result.Count{}
	for _, n := range []int64{10, 20} {
		s := result.CountSample{Iters: n, Events: map[string]int64{}}
		for k, v := range map[string]float64{result.EventIr: 100, result.EventDr: 40, result.EventDw: 10, result.EventI1mr: 2, result.EventD1mr: 15, result.EventD1mw: 3,
			result.EventILmr: 1, result.EventDLmr: 3, result.EventDLmw: 1} {
			s.Events[k] = int64(v)*n + 7
		}
		c.Samples = append(c.Samples, s)
	}
	if per, ok := CountPerOp(c, result.EventEstCycles); !ok || !near(per, 380) {
		t.Errorf("est-cycles per op = %v, %v; want 380", per, ok)
	}
	if xs := CountSamples(c, result.EventEstCycles); len(xs) != 2 || !near(xs[0], 380) {
		t.Errorf("est-cycles per sample %v", xs)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
