package compare

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Defaults of an interleaved comparison (run --compare), from
// docs/statistics.md ("The threshold of an interleaved comparison").
const (
	// DefaultRounds is the number of rounds of a comparison: the sign
	// test's interval of the median ratio narrows as 1/sqrt(rounds). With
	// the noise of a small kernel on a quiet machine (an A/A interval of
	// ±0.5% at 31 rounds) a real +1% was claimed in 79% of simulated runs
	// at 31 rounds and in all but 1 of 4000 at 101; 70 more rounds of two
	// 10 ms samples add about 1.4 s.
	DefaultRounds = 101
	// DefaultFloor is the least threshold of an interleaved comparison,
	// 0.25%: what one run cannot see at all (where the linker placed A and
	// B, which a run cannot change). Each run raises it to the drift it
	// measured (Rule.Measured). In simulation identical code was
	// claimed in 3 of 4000 runs at 31 rounds and 0 at 101 (4.8% with no
	// threshold at all), while a fixed 2% claimed a real +2% in 2%.
	DefaultFloor = 0.0025
	// MinDriftRounds is the fewest rounds whose drift a run can measure
	// (the first look of the default rounds): with fewer, the fixed 2%
	// threshold stands in for it.
	MinDriftRounds = 31
	// DefaultBudget is the wall time from the start of a run after which
	// a comparison with looks stops at the end of the round it is in, so
	// that a default run stays within about 10 s however busy the machine
	// is (101 rounds took up to 68 s at a load of 12). It counts from the
	// start, not from the first round: at a load of 14 reading the
	// machine, the warm-up and the calibration took 2.4-5.6 s.
	DefaultBudget = 8500 * time.Millisecond
)

// Looks are the looks of a comparison of rounds rounds that may stop early
// (stats.Looks): 31, 61 and 101 for the default.
func Looks(rounds int) []int { return stats.Looks(rounds) }

// MinRounds are the fewest rounds a comparison of m candidates with the
// baseline takes before its budget may end it: twice the fewest for which
// the sign test has an interval at the family's level (12 for one).
func MinRounds(m int) int {
	return 2 * stats.SignRoundsFor(stats.FamilyLevel(max(m, 1), stats.DefaultAlpha))
}

// Decided reports whether every candidate's comparison with the baseline
// (es[0]) is already clear at a look of a run with the settings st: its
// interval, at the look's level (stats.LookShare), lies wholly beyond the
// threshold (claimed) or wholly within it (no change the threshold lets
// through can be there). The basis the analysis will choose is not known
// yet, so the comparison must be clear in wall time and, where the
// samples have it, on on-CPU time with its fixed floor (comparePaired):
// on a busy machine wall time alone can look clear where on-CPU time is
// not. A basis choice that differs can cost a claim, not the interval's
// coverage: each look's level holds whatever made the run stop there.
func Decided(st result.Settings, es []result.Experiment) bool {
	level := stats.FamilyLevel(len(es)-1, stats.DefaultAlpha)
	for _, basis := range []string{result.BasisWall, result.BasisOnCPU} {
		rule := Rule{Threshold: st.Threshold, Measured: true}
		if basis == result.BasisOnCPU {
			rule.Threshold = max(rule.Threshold, DefaultThreshold)
		}
		base, ok := result.PerOp(es[0], basis)
		if !ok {
			continue // no on-CPU time in these samples
		}
		d := stats.Design{Level: level, Share: stats.LookShare(st.Looks, len(base), true)}
		for _, e := range es[1:] {
			c, ok := result.PerOp(e, basis)
			if !ok {
				return false
			}
			p := Judge(stats.PairedWith(base, c, d), rule)
			claimed := p.Verdict == result.Faster || p.Verdict == result.Slower
			within := p.CILow > 1/(1+p.Threshold) && p.CIHigh < 1+p.Threshold
			if p.Verdict == result.NotComparable || !(claimed || within) {
				return false
			}
		}
	}
	return true
}

// Interleaved judges an interleaved run (--compare): every
// candidate against the first, the baseline, paired round by round
// (stats.PairedWith: the sign test and its interval). With more than one
// candidate the comparisons are one family: intervals at
// stats.FamilyLevel and Bonferroni-adjusted p-values, since the chance
// that one of several comparisons shows noise as a difference grows with
// their number. The threshold is measured (Rule.Measured): the
// larger of the floor in the settings and the drift of the ratio over the
// run. A side that failed or cannot be right makes its pair "not
// comparable": a verdict on a number that cannot be right would be worse
// than none. When the machine interfered, the pair is judged on on-CPU time
// or is inconclusive (Basis).
func Interleaved(r *result.Result) []result.Pair {
	names := r.Settings.Compare
	if len(names) < 2 {
		return nil
	}
	base := r.Find(names[0])
	run := RunInterference(r)
	judge := func(level float64) []result.Pair {
		var pairs []result.Pair
		for _, name := range names[1:] {
			cand := r.Find(name)
			if base == nil || cand == nil {
				p := result.Pair{Paired: true, Threshold: r.Settings.Threshold}
				p.Base, p.Candidate = names[0], name
				markNotComparable(&p, "not measured: the run ended before it")
				pairs = append(pairs, p)
				continue
			}
			rule := Rule{Threshold: r.Settings.Threshold, Measured: true}
			p := comparePaired(base, cand, withBusyMachine(r, base, cand, run), level, rule, r.Settings.Looks, r.RoundsStop)
			pairs = append(pairs, p)
		}
		return pairs
	}
	pairs := Family(judge)
	if r.Settings.Latency {
		p := cmp.Or(r.Settings.Percentile, DefaultPercentile)
		for i := range pairs {
			cand := r.Find(pairs[i].Candidate)
			if base == nil || cand == nil {
				continue
			}
			pairs[i].Tail = tail(base, cand, run, p, len(names)-1, r.Settings.Threshold)
		}
	}
	return pairs
}

// withBusyMachine adds to run, for programs compared (exec), the machine's
// own warning that other tasks were running (cpu-busy, load, read in the
// window before the run). A loop in benchy's process counts the time
// another task took from it (disturbed); a program's time off the CPU is
// partly its own (it sleeps, reads, waits for its children), so no
// finding of the program's says it was preempted. Interleaving leaves out
// what hits both sides of a round alike, not a hog that takes a share of
// one run and not of the next: identical commands under two CPU hogs read
// 11% apart in 10 rounds. So on a busy machine programs are judged on
// their on-CPU time, which other tasks do not lengthen.
func withBusyMachine(r *result.Result, base, cand *result.Experiment, run []string) []string {
	if base.Kind != result.KindProcess && cand.Kind != result.KindProcess {
		return run
	}
	for _, f := range r.Environment {
		if f.Severity >= finding.Warn && (f.Code == machine.CodeCPUBusy || f.Code == machine.CodeLoad) {
			run = result.AppendOnce(slices.Clone(run), machine.CodeCPUBusy)
		}
	}
	return run
}

// Family judges a family of comparisons: judge(level) makes every pair
// with its interval at level. They are judged at 95% first to learn how
// many have a test (m); with more than one, again at stats.FamilyLevel(m)
// and with Bonferroni-adjusted p-values, so that each interval agrees with
// its adjusted p-value.
func Family(judge func(level float64) []result.Pair) []result.Pair {
	pairs := judge(stats.Confidence)
	if m := tested(pairs); m > 1 {
		pairs = judge(stats.FamilyLevel(m, stats.DefaultAlpha))
		bonferroni(pairs, stats.DefaultAlpha)
	}
	return pairs
}

// withoutSlowedRounds leaves out of the per-round values b and c (of base
// and cand, round k their k-th sample) the rounds in which a slowed core
// touched either side's sample (Experiment.Slowed): a slowdown that began
// between the two samples of a round moves their ratio. Rounds are left
// out only while as many remain as the samples of one experiment would
// keep (result.CleanEnough) and a comparison needs (stats.MinSamples);
// else every round stays.
func withoutSlowedRounds(base, cand *result.Experiment, b, c []float64) ([]float64, []float64) {
	if len(base.Slowed)+len(cand.Slowed) == 0 || len(b) != len(base.Samples) || len(c) != len(cand.Samples) {
		return b, c
	}
	n := min(len(b), len(c))
	var kb, kc []float64
	for k := range n {
		_, sb := slices.BinarySearch(base.Slowed, k)
		_, sc := slices.BinarySearch(cand.Slowed, k)
		if !sb && !sc {
			kb, kc = append(kb, b[k]), append(kc, c[k])
		}
	}
	if len(kb) < stats.MinSamples || !result.CleanEnough(n, n-len(kb)) {
		return b, c
	}
	return kb, kc
}

// comparePaired is one pair of an interleaved run, its interval at level,
// held to rule, and judged at its last look when the run had looks
// (stopped says why it ended early).
func comparePaired(base, cand *result.Experiment, run []string, level float64, rule Rule, looks []int, stopped string) result.Pair {
	basis, busy := Basis([]Side{{Label: base.Name, E: base, Run: run}, {Label: cand.Name, E: cand, Run: run}}, false)
	b, _ := result.PerOp(*base, basis)
	c, _ := result.PerOp(*cand, basis)
	b, c = withoutSlowedRounds(base, cand, b, c)
	d := stats.Design{Level: level, Share: stats.LookShare(looks, min(len(b), len(c)), stopped == result.StopDecided)}
	if basis == result.BasisOnCPU || basis == result.BasisOnCPUCycles {
		// The machine took the CPU away: on-CPU time leaves out the time
		// off it, not what the other work did to the thread's caches and
		// pipeline while it ran, and the interval cannot see that either.
		// Measured here under load: with the 0.25% floor, 3 of 38 runs of
		// identical code were claimed on on-CPU time (+2.3%, CI +0.55% to
		// +5.9%); so on this basis the floor is the fixed one.
		rule.Threshold = max(rule.Threshold, DefaultThreshold)
	}
	if min(len(b), len(c)) < MinDriftRounds {
		// Too few rounds to measure a drift: each half's interval is
		// wider than any drift, so the measured one reads 0 and the low
		// floor alone would stand. Measured under load: identical code
		// at 15 rounds read +2.1% (CI +0.28% to +8.5%), claimed against
		// the 0.25% floor; so below MinDriftRounds the floor is the fixed one.
		rule.Threshold = max(rule.Threshold, DefaultThreshold)
	}
	p := Judge(stats.PairedWith(b, c, d), rule)
	if len(looks) > 0 {
		p.PlannedRounds, p.Stop = looks[len(looks)-1], stopped
	}
	p.Basis = basis
	p.Base, p.Candidate = base.Name, cand.Name
	var why []string
	for _, e := range []*result.Experiment{base, cand} {
		if u := Unusable(e); u != "" {
			why = append(why, e.Name+" "+u)
		}
	}
	switch {
	case len(why) > 0:
		markNotComparable(&p, strings.Join(why, "; "))
	case busy.Reason != "":
		despite(&p, busy.Reason, busy.Bound)
	}
	return p
}
