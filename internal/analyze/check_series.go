package analyze

import (
	"fmt"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/changepoint"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// Series is the shape of one experiment's samples in run order, per
// process: what changepoint.ClassifyProcesses says of them, with the
// indices (into the experiment's samples) of each process's series.
type Series struct {
	changepoint.Processes
	// Index maps each process's series back to the experiment's
	// samples: Index[p][i] is the sample of the i-th value of process p.
	Index [][]int
}

// ClassifySeries classifies e's samples, one series per process, in the
// order they were taken; samples without iterations take no part.
func ClassifySeries(e result.Experiment) Series {
	ser := Series{Index: e.ProcessIndex()}
	xs := make([][]float64, len(ser.Index))
	for p, idx := range ser.Index {
		xs[p] = make([]float64, len(idx))
		for j, i := range idx {
			xs[p][j] = e.Samples[i].NsPerOp()
		}
	}
	ser.Processes = changepoint.ClassifyProcesses(xs)
	return ser
}

// stored is the classification as the result keeps it.
func (s Series) stored() *result.Series {
	out := &result.Series{Class: string(s.Class), Reason: s.Reason, Processes: make([]result.ProcessSeries, len(s.Results))}
	for p, r := range s.Results {
		if !r.Judged {
			continue
		}
		ps := result.ProcessSeries{Judged: true, Class: string(r.Class), Changes: r.Changes}
		for _, seg := range r.Segments {
			ps.Segments = append(ps.Segments, result.Segment{Start: seg.Start, End: seg.End, Median: seg.Median})
		}
		out.Processes[p] = ps
	}
	return out
}

// Judged reports whether any process's series could be classified (it
// held at least changepoint.MinSamples valid samples).
func (s Series) Judged() bool {
	return slices.ContainsFunc(s.Results, func(r changepoint.Result) bool { return r.Judged })
}

// Steady is the samples of the steady state: for a warm-up, each
// process's samples from its steady segment on; else every sample.
func (s Series) Steady(samples []result.Sample) []result.Sample {
	return pick(samples, s.steadyIndex(len(samples)))
}

// steadyIndex lists the indices of the steady samples of n (Steady).
func (s Series) steadyIndex(n int) []int {
	if s.Class != changepoint.Warmup {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all
	}
	var out []int
	for p, r := range s.Results {
		from := 0
		if r.Judged && r.Class == changepoint.Warmup {
			from = r.SteadyFrom
		}
		out = append(out, s.Index[p][from:]...)
	}
	return out
}

// pick returns the samples at the indices idx.
func pick(samples []result.Sample, idx []int) []result.Sample {
	out := make([]result.Sample, 0, len(idx))
	for _, i := range idx {
		out = append(out, samples[i])
	}
	return out
}

// SmallLevelChange: a slowdown or a run that never settled whose levels
// all lie within 2% of each other is said (info), not doubted: the median
// of all its samples is then within 2% of every level, the precision
// benchy holds an honest experiment to. On a quiet 2-vCPU VM, 1.6-1.8%
// steps that the speed checks beside the samples did not see made four
// of six default runs doubtful; the steps that matter (a hog, a clock
// change, a heap that grew) are larger.
const SmallLevelChange = 0.02

// levelSpread is how far apart the levels of s are: the slowest segment's
// median over the fastest's, minus one, over every judged process.
func levelSpread(s Series) float64 {
	lo, hi := 0.0, 0.0
	for _, r := range s.Results {
		if !r.Judged {
			continue
		}
		for _, seg := range r.Segments {
			if lo == 0 || seg.Median < lo {
				lo = seg.Median
			}
			hi = max(hi, seg.Median)
		}
	}
	if lo <= 0 {
		return 0
	}
	return hi/lo - 1
}

// checkSeries turns the classification into a finding: warmup (info: the
// statistics are the steady samples'), slowdown, no steady state, or
// processes that disagree (warn). A flat series has none. A slowdown or a
// run that never settled within SmallLevelChange is info.
func checkSeries(e result.Experiment, s Series) (finding.Finding, bool) {
	if !s.Judged() || s.Class == changepoint.Flat {
		return finding.Finding{}, false
	}
	reason := s.Reason
	if len(s.Results) == 1 {
		reason = s.Results[0].Reason
	}
	ev := map[string]any{"class": string(s.Class), "processes": len(s.Results)}
	var changes [][]int
	for _, r := range s.Results {
		changes = append(changes, orEmptyInts(r.Changes))
	}
	ev["changepoints"] = changes
	switch s.Class {
	case changepoint.Warmup:
		left := len(e.Samples) - len(s.Steady(e.Samples))
		ev["warmup_samples"] = left
		return finding.Finding{Code: result.CodeWarmup, Severity: finding.Info, Evidence: ev,
			Message: fmt.Sprintf("the run warmed up: %s; min, median and p90 are those of the steady samples (%s left out)",
				reason, units.Count(left, "warm-up sample"))}, true
	case changepoint.Slowdown:
		cause := "something changed while measuring (the machine, or the program's own state)"
		if c, ok := speedBeside(e, s, ev); ok {
			cause = c
		}
		return smallOrNot(levelSpread(s), finding.Finding{Code: result.CodeSlowdown, Evidence: ev,
			Message: fmt.Sprintf("the run slowed down and stayed slower: %s; %s", reason, cause)}), true
	case changepoint.NoSteadyState:
		spread := levelSpread(s)
		msg := fmt.Sprintf("the run never settled: %s", reason)
		if spread >= SmallLevelChange {
			msg += "; no one number describes it"
		}
		if c, ok := speedBeside(e, s, ev); ok {
			msg += "; " + c
		}
		return smallOrNot(spread, finding.Finding{Code: result.CodeNoSteadyState, Evidence: ev, Message: msg}), true
	}
	return finding.Finding{Code: result.CodeInconsistent, Severity: finding.Warn, Evidence: ev,
		Message: fmt.Sprintf("the processes do not agree on the shape of their series: %s", strings.TrimPrefix(reason, "processes disagree: "))}, true
}

// smallOrNot gives f, a change of level whose levels lie spread apart
// (levelSpread), its severity: info when that is within SmallLevelChange
// (the message says so), else warn. The spread goes into the evidence.
func smallOrNot(spread float64, f finding.Finding) finding.Finding {
	f.Evidence["level_spread"] = spread
	if spread >= SmallLevelChange {
		f.Severity = finding.Warn
		return f
	}
	f.Severity = finding.Info
	f.Message += fmt.Sprintf("; its levels lie within %s of each other, so the median is within that of each", units.Pct(spread))
	return f
}

// speedBeside says whether the speed checks beside the samples
// (Sample.RefNs, the reference loop timed right after each) moved with a
// change of level, for a series of one process: it compares the slowest
// level with the fastest, in the code's times and in the checks'. When the
// checks slowed by at least half as much, the core ran slower then (its
// clock, or a neighbour on it) and the change is the machine's; when they
// stayed within a quarter of it, the clock and the part of the core the
// reference loop uses did not change, and what did is in the caches or
// memory the code uses (a neighbour's share of them) or in the program's
// own state. Neither rule leaves a sample out; each only says where to
// look. Between the two, or without enough checked samples on both
// levels, it says nothing. The two changes go into ev.
func speedBeside(e result.Experiment, s Series, ev map[string]any) (string, bool) {
	if len(s.Results) != 1 || !s.Results[0].Judged || len(s.Results[0].Segments) < 2 {
		return "", false
	}
	segs, idx := s.Results[0].Segments, s.Index[0]
	fast, slow := segs[0], segs[0]
	for _, seg := range segs[1:] {
		if seg.Median < fast.Median {
			fast = seg
		}
		if seg.Median > slow.Median {
			slow = seg
		}
	}
	checks := func(seg changepoint.Segment) []float64 {
		var refs []float64
		for _, i := range idx[seg.Start:seg.End] {
			if r := e.Samples[i].RefNs; r > 0 && !ownCollector(e.Samples[i]) {
				refs = append(refs, r)
			}
		}
		return refs
	}
	fastRefs, slowRefs := checks(fast), checks(slow)
	if len(fastRefs) < minChecked || len(slowRefs) < minChecked || !(fast.Median > 0) {
		return "", false
	}
	code := slow.Median/fast.Median - 1
	ref := stats.Median(slowRefs)/stats.Median(fastRefs) - 1
	ev["level_change"], ev["check_change"] = code, ref
	switch {
	case ref >= code/2:
		return fmt.Sprintf("the reference loop timed beside those samples slowed by %s too: the core ran slower then (its clock, or a neighbour on it)",
			units.Pct(ref)), true
	case ref <= code/4:
		return fmt.Sprintf("the reference loop timed beside those samples kept its speed (%s): not the clock; look at what the code uses that the loop does not (caches, memory) or at its own state",
			units.Change(ref)), true
	}
	return "", false
}

// minChecked is the fewest checked samples a level needs for speedBeside
// to compare it: the median of three ignores one check a preemption cut
// into.
const minChecked = 3

func orEmptyInts(xs []int) []int {
	if xs == nil {
		return []int{}
	}
	return xs
}

// checkTargetCI says when the 95% interval of the median is wider than
// the precision asked: the samples ran out of time first. The number is
// not wrong, only less precise than asked.
func checkTargetCI(e result.Experiment, f Facts) (finding.Finding, bool) {
	xs := result.NsPerOp(e.Samples)
	if f.TargetCI <= 0 || len(xs) == 0 || e.Error != "" {
		return finding.Finding{}, false
	}
	got := stats.MedianCIHalfWidth(xs)
	if !(got > f.TargetCI) {
		return finding.Finding{}, false
	}
	return finding.Finding{Code: result.CodeTargetCI, Severity: finding.Warn,
		Message: fmt.Sprintf("the 95%% interval of the median is ±%s, wider than the ±%s asked (--target-ci): --max-time %v ran out after %s",
			units.Pct(got), units.Pct(f.TargetCI), f.MaxTime, units.Count(len(xs), "sample")),
		Evidence: map[string]any{"half_width": got, "target": f.TargetCI, "samples": len(xs), "max_time_ns": f.MaxTime.Nanoseconds()}}, true
}
