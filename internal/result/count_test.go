package result

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func TestCountSlope(t *testing.T) {
	// 1000 instructions an op and 50,000 a run, whatever the N.
	c := &Count{Counter: CounterCallgrind, Events: []string{EventInstructions}}
	for _, n := range []int64{100, 200, 400, 800} {
		c.Samples = append(c.Samples, CountSample{Iters: n, Events: map[string]int64{EventInstructions: 1000*n + 50_000}})
	}
	per, ok := c.PerOp(EventInstructions)
	if !ok || !near(per, 1000) {
		t.Errorf("PerOp = %v, %v; want 1000: the constant cancels", per, ok)
	}
	if !c.Sloped() {
		t.Error("four different N, not sloped")
	}
	for _, x := range c.SamplePerOp(EventInstructions) {
		if !near(x, 1000) {
			t.Errorf("sample per op %v, want 1000 with the constant out", x)
		}
	}
	if c.Spread(EventInstructions) > 1e-9 {
		t.Errorf("spread %v of an exact line", c.Spread(EventInstructions))
	}
	if _, ok := c.PerOp("D1mr"); ok {
		t.Error("per op of an event not counted")
	}
	if _, ok := c.PerOp(EventEstCycles); ok {
		t.Error("estimated cycles without a cache simulation")
	}
}

func TestCountOneN(t *testing.T) {
	// Runs of a whole program: one op each; the per-op figure is the median.
	c := &Count{Counter: CounterCallgrind}
	for _, v := range []int64{100, 103, 101} {
		c.Samples = append(c.Samples, CountSample{Iters: 1, Events: map[string]int64{EventInstructions: v}})
	}
	if per, _ := c.PerOp(EventInstructions); per != 101 || c.Sloped() {
		t.Errorf("PerOp = %v, sloped %v; want the median 101, not sloped", per, c.Sloped())
	}
	if s := c.Spread(EventInstructions); !near(s, 2.0/101) {
		t.Errorf("spread %v, want 2/101", s)
	}
	var none *Count
	if _, ok := none.PerOp(EventInstructions); ok || none.SamplePerOp(EventInstructions) != nil {
		t.Error("a nil count has figures")
	}
}

func TestEstimatedCycles(t *testing.T) {
	// 100 instructions, 40 reads, 10 writes: 150 accesses; 20 miss L1, of
	// which 5 miss the last level: 130 L1 hits + 5 × 15 + 35 × 5.
	ev := map[string]float64{EventIr: 100, EventDr: 40, EventDw: 10, EventI1mr: 2, EventD1mr: 15, EventD1mw: 3,
		EventILmr: 1, EventDLmr: 3, EventDLmw: 1}
	got, ok := EstimatedCycles(ev)
	if !ok || got != 130+5*15+35*5 {
		t.Errorf("EstimatedCycles = %v, %v; want %v", got, ok, 130+5*15+35*5)
	}
	delete(ev, EventDLmw)
	if _, ok := EstimatedCycles(ev); ok {
		t.Error("an estimate with an event missing")
	}
	c := &Count{}
	for _, n := range []int64{10, 20} {
		s := CountSample{Iters: n, Events: map[string]int64{}}
		for k, v := range map[string]float64{EventIr: 100, EventDr: 40, EventDw: 10, EventI1mr: 2, EventD1mr: 15, EventD1mw: 3,
			EventILmr: 1, EventDLmr: 3, EventDLmw: 1} {
			s.Events[k] = int64(v)*n + 7
		}
		c.Samples = append(c.Samples, s)
	}
	if per, ok := c.PerOp(EventEstCycles); !ok || !near(per, 380) {
		t.Errorf("est-cycles per op = %v, %v; want 380", per, ok)
	}
	if xs := c.SamplePerOp(EventEstCycles); len(xs) != 2 || !near(xs[0], 380) {
		t.Errorf("est-cycles per sample %v", xs)
	}
}

func TestCountRelError(t *testing.T) {
	exact := &Count{}
	noisy := &Count{}
	for i, n := range []int64{100, 200, 300, 400} {
		exact.Samples = append(exact.Samples, CountSample{Iters: n, Events: map[string]int64{EventInstructions: 1000 * n}})
		noisy.Samples = append(noisy.Samples, CountSample{Iters: n, Events: map[string]int64{EventInstructions: 1000*n + int64([]int{500, -500, -500, 500}[i])}})
	}
	if e := exact.RelError(EventInstructions); e != 0 {
		t.Errorf("error %v of runs on a line", e)
	}
	// Residuals ±500 about the fit: s = sqrt(1e6/2), Sxx = 50000.
	want := math.Sqrt(1e6/2/50000) / 1000
	if e := noisy.RelError(EventInstructions); !near(e, want) {
		t.Errorf("error %v, want %v", e, want)
	}
	runs := &Count{}
	for _, v := range []int64{99, 100, 101} {
		runs.Samples = append(runs.Samples, CountSample{Iters: 1, Events: map[string]int64{EventInstructions: v}})
	}
	if e := runs.RelError(EventInstructions); !near(e, 1/math.Sqrt(3)/100) {
		t.Errorf("error of the median of runs %v", e)
	}
}
