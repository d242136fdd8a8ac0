package bisect

import (
	"math"
	"math/rand/v2"
	"testing"
)

// noisy measures with normal noise, as a real measurement reads: each
// attempt's log ratio is the truth, plus miss(i, attempt) when set, plus
// N(0, s); a reading pools the commit's attempts (BAD's over every step)
// with an interval of 1.96·s/√k, which misses the truth as often as its
// 95% says. The fake measurements of walk_test.go always hold the truth.
type noisy struct {
	n         int
	level     func(int) float64
	s         float64
	miss      func(i, attempt int) float64
	rng       *rand.Rand
	threshold float64
	reads     map[int][]float64
	bad       []float64
	measured  int
}

func newNoisy(n int, level func(int) float64, s float64, seed uint64) *noisy {
	return &noisy{n: n, level: level, s: s, rng: rand.New(rand.NewPCG(seed, 2)), threshold: 0.01, reads: map[int][]float64{}}
}

func (r *noisy) pooled(xs []float64) Ratio {
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	h := 1.96 * r.s / math.Sqrt(float64(len(xs)))
	return Ratio{Value: math.Exp(m), Low: math.Exp(m - h), High: math.Exp(m + h)}
}

func (r *noisy) read(i, attempt int) float64 {
	x := math.Log(r.level(i)) + r.s*r.rng.NormFloat64()
	if r.miss != nil {
		x += r.miss(i, attempt)
	}
	return x
}

func (r *noisy) measure(i, attempt int) (Step, error) {
	r.measured++
	r.bad = append(r.bad, r.read(r.n-1, len(r.bad)))
	bad := r.pooled(r.bad)
	if i == r.n-1 {
		return Step{Mid: bad, Bad: bad, Side: badSide(bad, r.threshold)}, nil
	}
	r.reads[i] = append(r.reads[i], r.read(i, len(r.reads[i])))
	return Step{Mid: r.pooled(r.reads[i]), Bad: bad}, nil
}

// Walks over 64 commits with a +3% step at commit 40, each measurement
// with 0.8% of noise and an interval that misses as often as its level
// says: at the default retries the exact commit in at least 95% of 1000
// walks, and never a wrong commit. (2 retries, the default before: 60%
// exact, and wrong ones without the boundary read twice.)
func TestWalkWithRealNoise(t *testing.T) {
	const n, at, walks = 64, 40, 1000
	exact, wrong := 0, 0
	for k := range walks {
		r := newNoisy(n, step(at, 1.03), 0.008, uint64(k))
		w, _, err := Drive(n, DefaultRetries, r.threshold, r.measure)
		if err != nil {
			t.Fatal(err)
		}
		a := w.Answer()
		switch {
		case a.Verdict != Found:
		case a.Exact() && a.From == at:
			exact++
		case a.From > at || a.To < at || a.First > at || a.Last >= 0 && a.Last < at:
			wrong++
			t.Errorf("walk %d: %+v names a wrong commit", k, a)
		}
	}
	if exact < walks*95/100 || wrong > 0 {
		t.Errorf("exact in %d of %d walks, wrong in %d: want at least 95%% exact, none wrong", exact, walks, wrong)
	}
}

// A walk reads the commits either side of its answer's boundary twice
// before answering. Commit 40, the first slow one, misread fast once
// (its first reading 2% low, outside its interval) sends a walk that
// trusted one reading to 41; read again it is placed, and the answer is
// 40.
func TestBoundaryReadTwice(t *testing.T) {
	r := newNoisy(64, step(40, 1.03), 0.001, 1)
	r.miss = func(i, attempt int) float64 {
		if i == 40 && attempt == 0 {
			return -0.02
		}
		return 0
	}
	w, steps, err := Drive(64, DefaultRetries, r.threshold, r.measure)
	if err != nil {
		t.Fatal(err)
	}
	if a := w.Answer(); !a.Exact() || a.From != 40 {
		t.Errorf("answer %+v, want 40 exactly", a)
	}
	for _, st := range steps {
		if (st.Commit == 39 || st.Commit == 40) && st.Attempts < 2 {
			t.Errorf("commit %d read %d times, want twice at least", st.Commit, st.Attempts)
		}
	}
}
