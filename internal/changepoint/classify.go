package changepoint

import (
	"fmt"
	"math"
	"slices"

	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// Class is the shape of one run's series of samples.
type Class string

const (
	// Flat: no change of level worth the name; every sample is steady.
	Flat Class = "flat"
	// Warmup: the last segment is the fastest, faster than every earlier
	// one, and starts after the first sample: the run got faster and
	// stayed so.
	Warmup Class = "warmup"
	// Slowdown: the last segment is slower than the fastest earlier one:
	// the run got slower and stayed so.
	Slowdown Class = "slowdown"
	// NoSteadyState: the run did not settle: the last segment is too
	// short, the level turned too often, or the run left a level and came
	// back to it.
	NoSteadyState Class = "no steady state"
	// Inconsistent: processes of one experiment disagree (see Across).
	Inconsistent Class = "inconsistent"
)

// Segment is a run of samples between changepoints: xs[Start:End].
type Segment struct {
	Start, End   int
	Mean, Median float64
}

// Result is the classification of one series.
type Result struct {
	Class    Class
	Changes  []int     // changepoints (indices), ascending
	Segments []Segment // in run order, covering every sample
	// SteadyFrom is the index where the steady state starts: 0 for Flat,
	// the last segment's start for Warmup and Slowdown, -1 for
	// NoSteadyState.
	SteadyFrom int
	// Change is the steady segment's median relative to that of
	// Segments[Ref], minus one: -0.12 for 12% faster, 0.10 for 10% slower.
	// Ref is the first segment for a warm-up and the fastest earlier one
	// for a slowdown; for other classes Change is 0 and Ref is -1.
	Change float64
	Ref    int
	// Reason is one line a person reads, e.g. "the last 22 of 31 samples
	// run 12% faster than the first 9".
	Reason string
	// Judged is false when the series could not be judged (too short, or
	// a value that is not a positive finite time); Class is then Flat, so
	// that callers fall back to using every sample.
	Judged bool
}

// MinSamples is the shortest series Classify judges. A warm-up needs an
// earlier segment and a steady one of at least five samples, and with the
// 15·log(n) penalty fewer than ten samples cannot show any change but a
// gross one.
const MinSamples = 10

// Tolerance is the relative difference of two segments' medians below which
// they are one level. Benchmark comparisons rarely resolve less than 1%, and
// a warm-up or slowdown smaller than that is not worth a finding.
const Tolerance = 0.01

// maxTurns is how often the level may turn from rising to falling, or
// back, before the run counts as wandering (see Classify).
const maxTurns = 2

// equivZ is how many standard errors of the difference of two segments'
// medians they may differ by and still be one level (see equivalent).
const equivZ = 3

// Classify finds the changepoints of xs, a benchmark's times in run order,
// with Detect and DefaultPenalty and says what shape the run has, following
// Barrett et al.:
//
//   - Segments whose medians are within the noise of each other are merged,
//     neighbours first (see below). A change of variance alone thus makes no
//     new level. If one segment is left the run is Flat.
//   - The last segment is the steady state. If it holds fewer than
//     max(5, n/4) samples the run is NoSteadyState: the run was still
//     changing in its last quarter, the rule Barrett et al. apply to their
//     last 500 of 2000 iterations.
//   - A level that turns, from rising to falling or back, more than twice
//     is NoSteadyState: it wanders, and its last level is likely just the
//     next stop. The limit is on turns, not on changes, because a smooth
//     warm-up is followed by Detect as a staircase whose steps grow in
//     number with n (ten for a clean run of 1000), all in one direction.
//   - A last segment slower than the fastest earlier one is a Slowdown.
//   - A last segment faster than every earlier one, after a first segment
//     that no later one is slower than, is a Warmup: the run is fastest at
//     its end, later than its first sample, and slowest at its start.
//   - Otherwise a middle stretch was slower than both the start and the
//     end, which are one level or nearly so: the run left its level and
//     came back (a hog, a GC storm), so no one state describes it and it is
//     NoSteadyState. Calling it a warm-up would credit noise with the small
//     difference between start and end.
//
// Two segments are one level when their medians differ by no more than
// Tolerance (1%) or 3 standard errors of that difference, whichever is
// larger; the standard errors come from one noise estimate for the whole
// series, from the differences of successive samples, since a warm-up
// segment's own spread is mostly its slope. Barrett et al. likewise merge
// segments that overlap within a noise allowance.
//
// Series shorter than MinSamples, or holding a value that is not positive
// and finite (NaN, ±Inf, zero, negative), are not judged: the Result is
// Flat over one segment with Judged false and a Reason that says why.
//
// A series longer than MaxCandidates is searched on a grid (see Detect);
// the rest costs O(n log n) and, for merging, at most the length of each
// merged segment for each merge.
func Classify(xs []float64) Result {
	return classify(xs, MaxCandidates)
}

// classify is Classify with Detect weighing at most most positions.
func classify(xs []float64, most int) Result {
	n := len(xs)
	res := Result{Class: Flat, Ref: -1}
	if n > 0 {
		res.Segments = []Segment{segment(xs, 0, n)}
	}
	for i, x := range xs {
		if !(x > 0) || math.IsInf(x, 1) {
			res.Reason = fmt.Sprintf("cannot judge: sample %d is %v; times must be positive and finite", i, x)
			return res
		}
	}
	if n < MinSamples {
		res.Reason = fmt.Sprintf("too few samples to find a change: %d (need %d)", n, MinSamples)
		return res
	}
	res.Judged = true
	ys := logs(xs)
	floor := varianceFloor(ys)
	sigma := noiseSigma(ys, floor)
	raw := detectOn(ys, floor, sigma, DefaultPenalty(n), most) // Detect, with what is known here
	if len(raw) == 0 {
		res.Reason = fmt.Sprintf("no change in %d samples", n)
		return res
	}
	segs := merge(xs, raw, sigma)
	if len(segs) == 1 {
		res.Reason = fmt.Sprintf("%s found (at %s), but the levels either side are within the noise: flat over %d samples",
			units.Count(len(raw), "change"), joinInts(raw), n)
		return res
	}
	res.Segments = segs
	for _, s := range segs[1:] {
		res.Changes = append(res.Changes, s.Start)
	}
	classifySegments(&res, n, sigma)
	return res
}

func classifySegments(res *Result, n int, sigma float64) {
	segs := res.Segments
	last := segs[len(segs)-1]
	res.SteadyFrom = -1
	res.Class = NoSteadyState
	if minSteady := max(5, (n+3)/4); last.End-last.Start < minSteady {
		res.Reason = fmt.Sprintf("the last segment (%s, %d of %d) is shorter than %d samples: the run had not settled by its end",
			span(last), last.End-last.Start, n, minSteady)
		return
	}
	if t := turns(segs); t > maxTurns {
		res.Reason = fmt.Sprintf("the level changed at %s, turning %d times: it wanders rather than settles",
			joinInts(res.Changes), t)
		return
	}
	// Sort the earlier segments by how they stand to the last one: faster
	// (the last one is slower), one level with it, or slower.
	faster, same, slower := -1, -1, -1
	for i, s := range segs[:len(segs)-1] {
		switch {
		case equivalent(s, last, sigma):
			same = i
		case s.Median < last.Median:
			if faster < 0 || s.Median < segs[faster].Median {
				faster = i
			}
		default:
			if slower < 0 || s.Median > segs[slower].Median {
				slower = i
			}
		}
	}
	steady := fmt.Sprintf("the last %d of %d samples", last.End-last.Start, n)
	switch {
	case faster >= 0:
		res.Class, res.Ref = Slowdown, faster
		res.Change = last.Median/segs[faster].Median - 1
		res.Reason = fmt.Sprintf("%s run %s slower than %s", steady, pct(res.Change), describe(segs[faster]))
	case same < 0 && (slower == 0 || equivalent(segs[slower], segs[0], sigma)):
		res.Class, res.Ref = Warmup, 0
		res.Change = last.Median/segs[0].Median - 1
		res.Reason = fmt.Sprintf("%s run %s faster than %s", steady, pct(res.Change), describe(segs[0]))
	default:
		// The run came back to the level of an earlier segment (or,
		// with none one level with the last, near the first) after a
		// slower stretch; name the slowest segment of that stretch.
		back := max(same, 0)
		hump := back + 1
		for i := hump; i < len(segs)-1; i++ {
			if segs[i].Median > segs[hump].Median {
				hump = i
			}
		}
		to := "the level of " + describe(segs[back])
		if same < 0 {
			to = "within " + pct(segs[0].Median/last.Median-1) + " of " + describe(segs[0])
		}
		res.Reason = fmt.Sprintf("%s ran %s slower, then the run came back to %s: it did not settle into one state",
			describe(segs[hump]), pct(segs[hump].Median/last.Median-1), to)
		return
	}
	res.SteadyFrom = last.Start
}

// equivalent reports whether a and b are one level: their medians differ
// by at most Tolerance or equivZ standard errors of the difference, with
// sigma the noise of the log times.
func equivalent(a, b Segment, sigma float64) bool {
	return closeness(a, b, sigma) <= 1
}

// closeness is the log-ratio of a's and b's medians over the largest
// difference that still makes them one level; at most 1 means equivalent.
func closeness(a, b Segment, sigma float64) float64 {
	d := math.Abs(math.Log(a.Median / b.Median))
	// The median of m normal samples has a standard error of 1.2533·σ/√m.
	se := 1.2533 * sigma * math.Sqrt(1/float64(a.End-a.Start)+1/float64(b.End-b.Start))
	return d / max(math.Log1p(Tolerance), equivZ*se)
}

// merge turns the changepoints cps of xs into segments and merges
// neighbours that are one level (sigma is the noise of the log times), the
// closest pair first, until no neighbouring pair is.
//
// Each segment's samples are kept sorted in the segment's own place in a
// copy of xs, so that merging two neighbours is one linear merge of their
// sorted samples and the median of the merged segment a look-up: merging
// costs O(n log n) for the first sorts and, at most, the length of each
// merged segment for each merge.
func merge(xs []float64, cps []int, sigma float64) []Segment {
	bounds := append(append([]int{0}, cps...), len(xs))
	sorted := slices.Clone(xs)
	var segs []Segment
	for i := 1; i < len(bounds); i++ {
		s := Segment{Start: bounds[i-1], End: bounds[i]}
		slices.Sort(sorted[s.Start:s.End])
		s.Median = stats.MedianSorted(sorted[s.Start:s.End])
		segs = append(segs, s)
	}
	var buf []float64
	for len(segs) > 1 {
		best, at := math.Inf(1), -1
		for i := 1; i < len(segs); i++ {
			if c := closeness(segs[i-1], segs[i], sigma); c <= 1 && c < best {
				best, at = c, i
			}
		}
		if at < 0 {
			break
		}
		a, b := segs[at-1], segs[at]
		buf = mergeSorted(sorted[a.Start:b.End], a.End-a.Start, buf)
		segs[at-1] = Segment{Start: a.Start, End: b.End, Median: stats.MedianSorted(sorted[a.Start:b.End])}
		segs = slices.Delete(segs, at, at+1)
	}
	for i := range segs {
		segs[i].Mean = stats.Mean(xs[segs[i].Start:segs[i].End])
	}
	return segs
}

// mergeSorted sorts s, whose first m values and the rest are each sorted,
// by merging the two, with buf as room for the first; it returns buf for
// the next call.
func mergeSorted(s []float64, m int, buf []float64) []float64 {
	buf = append(buf[:0], s[:m]...)
	i, j, k := 0, m, 0
	for ; i < len(buf) && j < len(s); k++ {
		if s[j] < buf[i] {
			s[k], j = s[j], j+1
		} else {
			s[k], i = buf[i], i+1
		}
	}
	copy(s[k:], buf[i:]) // what is left of s[j:] is in place
	return buf
}

// turns counts how often the medians of segs turn from rising to falling
// or back.
func turns(segs []Segment) int {
	t, dir := 0, 0
	for i := 1; i < len(segs); i++ {
		d := 1
		if segs[i].Median < segs[i-1].Median {
			d = -1
		}
		if dir != 0 && d != dir {
			t++
		}
		dir = d
	}
	return t
}

func segment(xs []float64, start, end int) Segment {
	return Segment{Start: start, End: end, Mean: stats.Mean(xs[start:end]), Median: stats.Median(xs[start:end])}
}

func logs(xs []float64) []float64 {
	ys := make([]float64, len(xs))
	for i, x := range xs {
		ys[i] = math.Log(x)
	}
	return ys
}
