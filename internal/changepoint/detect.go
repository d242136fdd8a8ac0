// Package changepoint finds where a benchmark's run-order series of samples
// changes level, and says whether the run warmed up, slowed down or never
// settled. It follows Barrett et al., "Virtual Machine Warmup Blows Hot and
// Cold" (OOPSLA 2017): changepoint analysis of each process's series of
// in-process iteration times, then a classification of the segments found.
//
// Headline statistics assume that every sample measures the same thing. A
// run that starts slow (cold caches, page faults, a JIT, a CPU clock ramping
// up) or slows down part way (throttling, a background job, a leak) breaks
// that assumption. Classify says which samples, if any, make up the steady
// state, so that a report can draw its statistics from those alone.
package changepoint

import (
	"math"
	"slices"

	"github.com/benchy-dev/benchy/internal/stats"
)

// MinSegment is the fewest samples Detect puts in a segment. A variance
// needs two samples, but two samples that happen to lie close together have
// a variance near zero, which the normal cost rewards far beyond what they
// show; and one or two samples are not a phase of a run but an accident of
// it. Three is the least that avoids both.
const MinSegment = 3

// floorSigma is the smallest spread, as a fraction of the time (a spread of
// the log times), that a segment is taken to have. Timing noise below 0.1%
// is not measurable on a general-purpose machine, and the classification
// ignores differences below 1% anyway; without a floor a segment of equal
// samples would have zero variance and a cost of -Inf, and would win over
// any real structure.
const floorSigma = 1e-3

// spikeK is how many noise standard deviations a sample may lie from the
// median of the five samples around it before it is pulled back (see
// Detect).
const spikeK = 4

// DefaultPenalty is the penalty Barrett et al. use for a series of n
// samples: 15·log(n) per changepoint. It is far above the BIC's 2·log(n):
// a benchmark run is better called flat than cut at a change that noise
// could have made.
func DefaultPenalty(n int) float64 {
	if n < 2 {
		return 0
	}
	return 15 * math.Log(float64(n))
}

// Detect returns the changepoints of xs, each the index of the first sample
// of a new segment, in ascending order. It finds them by PELT (Killick,
// Fearnhead & Eckley 2012, "Optimal detection of changepoints with a linear
// computational cost"), which minimises the sum of the segments' costs plus
// penalty for each changepoint exactly, pruning start points that can no
// longer win. The cost of a segment of m samples is m·log(σ̂²), with σ̂²
// its maximum-likelihood variance: twice the negative log-likelihood, less a
// constant, of a normal model with the segment's own mean and variance:
// segments may differ in mean, in variance or in both, and the
// noise within a segment is taken to be independent and normal.
//
// xs are times (ns/op or any other unit): positive and finite. Detect works
// on their logarithms, because timing noise is multiplicative (2% jitter is
// 2% at 10 ns and at 10 ms) and so the cost, the variance floor and the
// spike test below mean the same thing at every scale. It returns nil for a
// series holding a value that is not a positive finite number, for fewer
// than 2·MinSegment samples, and for a NaN or infinite penalty; a negative
// penalty counts as zero.
//
// A segment's variance is held at or above (0.1%)², or above the variance
// that rounding adds when the times are quantised (q²/12, q the smallest
// relative gap between distinct values), so that runs of equal samples do
// not look infinitely likely. The cost below the floor is the exact
// likelihood with the variance held at the floor, which keeps PELT's pruning
// exact.
//
// A normal model is not robust: one sample far from the rest inflates the
// variance of any segment holding it, so cutting it off into a short segment
// pays for a changepoint or two (one sample at 1.5 times the level at either
// end of a flat series of 31 with 2% noise does so nearly every time,
// whatever the minimum segment length). Detect therefore first pulls each
// sample that lies more than 4 noise standard deviations from the median of
// the five samples around it back to that distance (it winsorises them, as
// a Hampel filter would but clipping instead of replacing, so that the
// first, steepest samples of a warm-up keep most of their weight; Barrett
// et al.'s tools likewise set outliers aside before the changepoint
// analysis). One or two samples 4σ out are too little to pay for a
// changepoint at Barrett et al.'s penalty; a burst of three or more in a row
// moves the local median and is kept, and can make a segment. The noise is
// estimated from the median absolute difference of successive samples,
// which changes of level barely move.
//
// PELT's cost is O(n) expected when changes are spread through the series
// and O(n²) in the worst case, which is also the case of a series without
// changes, where it can prune little (0.6 s for 10000 samples, 87 s for
// 100000 on a 2-vCPU VM). So the search weighs at most MaxCandidates
// positions: every sample of a series up to MaxCandidates long (exactly as
// described above), and every ⌈n/MaxCandidates⌉-th sample of a longer
// one, with the same per-sample cost and penalty: the optimum among
// segmentations cut only on that grid. Each change found there is then
// moved to the sample, within a grid step, that best splits the samples
// between its neighbours, or dropped when it no longer pays for itself
// (see refine). A clear change is thus still placed to the sample, as the
// exact search places it. What the grid gives up: a stretch shorter than
// a step (50 samples at the 100000 that --samples allows, 500 at a
// million) is not a segment of its own unless a change the grid found
// lies next to it, and a change that barely pays for its penalty may be
// missed or placed elsewhere. The search costs O(n log n) for the sorts
// of the noise estimates, O(n) for the costs' prefix sums and the
// refinement, and at most O(MaxCandidates²) for PELT itself, whatever n.
func Detect(xs []float64, penalty float64) []int {
	ys, floor, sigma, ok := prepare(xs, penalty)
	if !ok {
		return nil
	}
	return detect(ys, floor, sigma, penalty)
}

// prepare is what Detect and DetectWeighted search: the logs of xs, the
// floor of a segment's variance and the noise's sigma; false when xs are
// too few, or not all positive and finite, or the penalty is not finite.
func prepare(xs []float64, penalty float64) (ys []float64, floor, sigma float64, ok bool) {
	if len(xs) < 2*MinSegment || math.IsNaN(penalty) || math.IsInf(penalty, 0) {
		return nil, 0, 0, false
	}
	for _, x := range xs {
		if !(x > 0) || math.IsInf(x, 1) {
			return nil, 0, 0, false
		}
	}
	ys = logs(xs)
	floor = varianceFloor(ys)
	return ys, floor, noiseSigma(ys, floor), true
}

// MaxCandidates is the most positions Detect weighs as changepoints in one
// series; a longer series is searched on a grid (see Detect). PELT's worst
// case, a series without changes, is then about 2 million segment costs:
// tens of milliseconds.
const MaxCandidates = 2000

// detect is Detect on the log times ys of a valid series, with their
// variance floor and noise already estimated (Classify has them).
func detect(ys []float64, floor, sigma, penalty float64) []int {
	return detectOn(ys, floor, sigma, penalty, MaxCandidates)
}

// detectOn is detect weighing at most most positions as changepoints.
func detectOn(ys []float64, floor, sigma, penalty float64, most int) []int {
	return search(newCosts(clip(ys, sigma, spikeK), floor), len(ys), penalty, most)
}

// search is the optimal segmentation of a series of n samples under the
// costs c, weighing at most most positions as changepoints.
func search(c costs, n int, penalty float64, most int) []int {
	step := gridStep(n, most)
	cps := c.pelt(grid(n, step), max(penalty, 0), MinSegment)
	if step > 1 {
		cps = c.refine(cps, n, step, MinSegment, max(penalty, 0))
	}
	return cps
}

// varianceFloor is the variance below which a segment of the log times ys
// is not believed: (0.1%)², or the rounding variance q²/12 of the data's
// resolution q when that is larger.
func varianceFloor(ys []float64) float64 {
	s := slices.Sorted(slices.Values(ys))
	q := math.Inf(1)
	for i := 1; i < len(s); i++ {
		if d := s[i] - s[i-1]; d > 0 && d < q {
			q = d
		}
	}
	floor := floorSigma * floorSigma
	if !math.IsInf(q, 1) {
		floor = max(floor, q*q/12)
	}
	return floor
}

// noiseSigma estimates the standard deviation of the noise in ys from the
// median absolute difference of successive samples: a change of level moves
// one difference and a spike two, so the median ignores both. It is at least
// the square root of floor.
func noiseSigma(ys []float64, floor float64) float64 {
	if len(ys) < 2 {
		return math.Sqrt(floor)
	}
	d := make([]float64, len(ys)-1)
	for i := range d {
		d[i] = math.Abs(ys[i+1] - ys[i])
	}
	// For normal noise |x-y| has median 0.6745·√2·σ.
	slices.Sort(d)
	return max(stats.MedianSorted(d)/(0.6745*math.Sqrt2), math.Sqrt(floor))
}

// clip returns ys with each sample more than k·sigma from the median of
// the five samples around it (a window shifted inward at the ends) pulled
// back to k·sigma from that median. ys itself is left unchanged.
func clip(ys []float64, sigma, k float64) []float64 {
	const w = 5
	out := slices.Clone(ys)
	if len(ys) < w {
		return out
	}
	win := make([]float64, w)
	for i, y := range ys {
		lo := min(max(i-w/2, 0), len(ys)-w)
		copy(win, ys[lo:lo+w])
		slices.Sort(win)
		m := stats.MedianSorted(win)
		out[i] = min(max(y, m-k*sigma), m+k*sigma)
	}
	return out
}

// costs gives the cost of any segment of one series in O(1), from prefix
// sums of its values and of their squares; with weights (see
// DetectWeighted), of the weights and the weighted values and squares.
type costs struct {
	s1, s2          []float64
	s0              []float64 // prefix sums of the weights; nil: every weight 1
	floor, logFloor float64
}

func newCosts(ys []float64, floor float64) costs {
	n := len(ys)
	c := costs{s1: make([]float64, n+1), s2: make([]float64, n+1), floor: floor, logFloor: math.Log(floor)}
	if n == 0 {
		return c
	}
	// Prefix sums of the centred values keep the variances accurate.
	centre := stats.Median(ys)
	for i, y := range ys {
		d := y - centre
		c.s1[i+1] = c.s1[i] + d
		c.s2[i+1] = c.s2[i] + d*d
	}
	return c
}

// cost is the cost of the segment ys[s:t] (see Detect and DetectWeighted).
func (c costs) cost(s, t int) float64 {
	m := float64(t - s)
	var v float64
	if c.s0 == nil {
		mean := (c.s1[t] - c.s1[s]) / m
		v = max((c.s2[t]-c.s2[s])/m-mean*mean, 0)
	} else {
		sw, swy := c.s0[t]-c.s0[s], c.s1[t]-c.s1[s]
		v = max((c.s2[t]-c.s2[s]-swy*swy/sw)/m, 0)
	}
	if v >= c.floor {
		return m * math.Log(v)
	}
	// -2·log-likelihood with σ² held at the floor, less the same
	// constant m as above: continuous at v = floor.
	return m * (c.logFloor + v/c.floor - 1)
}

// gridStep is the least step that puts at most most positions on a grid
// over n samples: 1, every sample, up to most samples.
func gridStep(n, most int) int {
	return max(1, (n+most-1)/most)
}

// grid is the positions 0, step, 2·step, … of a series of n samples, and n.
func grid(n, step int) []int {
	pos := make([]int, 0, n/step+2)
	for p := 0; p < n; p += step {
		pos = append(pos, p)
	}
	return append(pos, n)
}

// pelt returns the changepoints, all of them in pos (ascending, from 0 to
// the series' length), that minimise the penalised cost with segments of
// at least minSeg samples: exactly, among segmentations cut only at pos.
//
// A start s that is no better than the best at t even before its
// penalty, F(s) + C(s,t) > F(t), can never win at a later end t'
// (Killick et al.'s pruning with K = 0: cutting s..t' at t never costs
// more than not cutting, for this likelihood cost). It is dropped only at
// the first end at least minSeg samples after t, because an end nearer
// than that cannot be cut at t.
func (c costs) pelt(pos []int, pen float64, minSeg int) []int {
	k := len(pos) - 1
	n := pos[k]
	if n < 2*minSeg {
		return nil
	}
	// f[t] is the least penalised cost of the samples before pos[t];
	// prev[t] the index in pos of the start of the last segment in that
	// segmentation.
	f := make([]float64, k+1)
	prev := make([]int, k+1)
	f[0] = -pen
	// A candidate start stays while the end is before "until", a sample
	// index; it is n+1 until the candidate is found beaten.
	type cand struct{ s, until int }
	var live []cand
	sums := make([]float64, 0, k)
	next := 0 // the next index of pos to become a candidate start
	for t := 1; t <= k; t++ {
		for ; next < t && pos[t]-pos[next] >= minSeg; next++ {
			// Only starts that end a valid segmentation: the first
			// sample, or one after at least minSeg samples.
			if next == 0 || pos[next] >= minSeg {
				live = append(live, cand{next, n + 1})
			}
		}
		kept := live[:0]
		for _, cd := range live {
			if cd.until > pos[t] {
				kept = append(kept, cd)
			}
		}
		live = kept
		best, arg := math.Inf(1), 0
		sums = sums[:0]
		for _, cd := range live {
			sum := f[cd.s] + c.cost(pos[cd.s], pos[t])
			sums = append(sums, sum)
			if v := sum + pen; v < best {
				best, arg = v, cd.s
			}
		}
		f[t], prev[t] = best, arg
		for i := range live {
			if live[i].until == n+1 && sums[i] > best {
				live[i].until = pos[t] + minSeg
			}
		}
	}
	var cps []int
	for t := prev[k]; t > 0; t = prev[t] {
		cps = append(cps, pos[t])
	}
	slices.Reverse(cps)
	return cps
}

// refine improves the changepoints cps found on a grid of every step-th
// sample of a series of n, one at a time with its neighbours held: it
// moves each to the sample within step of it that best splits the samples
// between its neighbours, keeping segments of at least minSeg samples, and
// drops it when one segment there costs no more than those two plus the
// penalty pen. Dropping undoes the way a grid fits a change that falls
// inside a step: two changes a step apart, around the step that holds both
// levels; once one of them is moved onto the change, the other marks
// nothing. No move or drop raises the total cost, so the result fits at
// least as well as the grid's. It sweeps until nothing changes, at most
// maxRefine times, each sweep O(len(cps)·step), within O(n). It returns the
// changepoints kept, in place in cps.
func (c costs) refine(cps []int, n, step, minSeg int, pen float64) []int {
	const maxRefine = 4
	for range maxRefine {
		changed := false
		for i := 0; i < len(cps); i++ {
			left, right := 0, n
			if i > 0 {
				left = cps[i-1]
			}
			if i+1 < len(cps) {
				right = cps[i+1]
			}
			cp := cps[i]
			best, at := c.cost(left, cp)+c.cost(cp, right), cp
			for x := max(cp-step+1, left+minSeg); x <= min(cp+step-1, right-minSeg); x++ {
				if v := c.cost(left, x) + c.cost(x, right); v < best {
					best, at = v, x
				}
			}
			if c.cost(left, right) <= best+pen {
				cps = slices.Delete(cps, i, i+1)
				i--
				changed = true
				continue
			}
			changed = changed || at != cp
			cps[i] = at
		}
		if !changed {
			break
		}
	}
	return cps
}
