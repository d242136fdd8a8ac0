package analyze

import (
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/machine/fit"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Analyze recomputes, in place and from the raw data only (samples,
// counters, GC figures, and the run's clock facts), the statistics,
// findings and verdict of every experiment. Findings whose code Analyze
// does not compute (those of result.ScopeAnalysis) are kept, so findings the run added from
// elsewhere survive `benchy report`. When the result holds the machine
// snapshot taken before the run, the environment findings are recomputed
// from it too (fit.Check gives every machine code), so an old file is
// judged by today's machine checks; without one they are kept as stored.
func Analyze(r *result.Result) {
	if r == nil {
		return
	}
	if r.Before != nil {
		r.Environment = fit.Check(r.Before, r.CPU)
		if r.SharedCPU != "" {
			r.Environment = append(r.Environment, finding.Finding{Code: result.CodeCPUShared, Severity: finding.Warn, Message: r.SharedCPU})
		}
	}
	facts := FactsOf(r)
	runProbes(r, &facts)
	for i := range r.Experiments {
		e := &r.Experiments[i]
		f := facts
		f.CPU = r.CPUOf(*e) // measured again elsewhere, or after the run moved
		e.Slowed = Slowed(*e, f.RunRefNs)
		for j := range e.Attempts {
			a := &e.Attempts[j]
			a.Slowed = Slowed(result.Experiment{Samples: a.Samples, Reference: a.Reference}, f.RunRefNs)
		}
		if e.Kind == result.KindProcess {
			e.Latency = nil // derived from the steady runs, below
		}
		view, ser, fs := examine(*e, f)
		// After a warm-up the headline numbers are the steady state's
		// (the warmup finding says how many samples it left out).
		steady := ser.Steady(view.Samples)
		e.Stats = Compute(steady)
		// Of the same samples: over all of them, a warm-up's slower
		// samples put the on-CPU median above the steady wall median
		// (fold/opaque: 21 of 31 samples of warm-up, on-CPU 6% above).
		if on, ok := result.OnCPUPerOp(result.Experiment{Samples: steady}); ok {
			e.Stats.OnCPUMedian = stats.Median(on)
		}
		e.Reported = reported(steady)
		if at := e.AtGoTestSettings; at != nil && len(at.NsPerOp) > 0 {
			at.Median = stats.Median(at.NsPerOp)
		}
		if e.Kind == result.KindProcess {
			e.Latency = runLatency(steady)
			fs = append(fs, checkLatency(*e)...)
		}
		if l := e.Latency; l != nil {
			l.Percentiles, l.Tail = summarizeLatency(*l)
			if r := l.Rate; r != nil {
				r.Open.Percentiles = latency.Percentiles(latency.Load(r.Open), latency.Reported, latencyLevel)
			}
		}
		e.Series = ser.stored()
		e.Disturbed = disturbedSamples(*e, f.CPU)
		for _, f := range e.Findings {
			if !ownCode(f.Code) {
				fs = append(fs, f)
			}
		}
		e.Findings = fs
		e.Verdict, e.Reasons = Verdict(e.Findings, r.Environment)
	}
	r.Comparison = compare.Interleaved(r)
	r.Summary = countVerdicts(r)
	r.Cause = likelyCause(r)
}

// countVerdicts is the summary of r's verdicts.
func countVerdicts(r *result.Result) *result.Counts {
	c := &result.Counts{Line: Summary(r)}
	c.Believable, _ = tally(r, result.VerdictBelievable)
	// The reasons in the summary line's order: the doubtful ones, then
	// the not believable ones.
	var doubtful, not []string
	c.Doubtful, doubtful = tally(r, result.VerdictDoubtful)
	c.NotBelievable, not = tally(r, result.VerdictNotBelievable)
	for _, code := range append(doubtful, not...) {
		c.Reasons = result.AppendOnce(c.Reasons, code)
	}
	return c
}

// runProbes fills the run-wide bests the probe findings judge against:
// the clock the run sustained (RunClock) of those the dependent-add
// chains measured, around every attempt too (never cpufreq's figure,
// which some drivers report above the real clock), and the fewest cycles
// per iteration of the reference loop around any experiment.
func runProbes(r *result.Result, facts *Facts) {
	clocks := ClocksOf(r.Experiments)
	if r.EffectiveClock.Source == chainSource {
		clocks = append(clocks, r.EffectiveClock.BeforeHz, r.EffectiveClock.AfterHz)
	}
	for _, e := range r.Experiments {
		for _, c := range refCycles(e) {
			if facts.RunRefCycles == 0 || c < facts.RunRefCycles {
				facts.RunRefCycles = c
			}
		}
	}
	facts.RunClockHz = RunClock(clocks)
	facts.RunRefFrom = "the fewest around any experiment of the run"
	facts.RunRefNs = BestRefNs(r)
	// On amd64 every core since Haswell and Zen runs a loop of one store
	// and one taken branch at one iteration per cycle. When the run came
	// near that (within RefNearOneCycle), the core is one of those, and
	// one cycle is its best: so a run spent mostly on a shared core does
	// not compare with itself and look fine.
	if r.GOARCH == "amd64" && facts.RunRefCycles > 1 && facts.RunRefCycles <= RefNearOneCycle {
		facts.RunRefCycles = 1
		facts.RunRefFrom = "one per iteration, the loop's speed on an unshared amd64 core"
	}
}

// BestRefNs is the least ns per iteration of the reference loop measured
// anywhere in r (Facts.RunRefNs); 0 when none was.
func BestRefNs(r *result.Result) float64 {
	best := 0.0
	least := func(x float64) {
		if x > 0 && (best == 0 || x < best) {
			best = x
		}
	}
	if r.Before != nil {
		for _, sp := range r.Before.Speed {
			if ns, ok := sp.RefNs.Get(); ok {
				least(ns)
			}
		}
	}
	for _, e := range r.Experiments {
		if ref := e.Reference; ref != nil {
			least(ref.BeforeNs)
			least(ref.AfterNs)
		}
		for _, s := range e.Samples {
			least(s.RefNs)
		}
		for _, a := range e.Attempts {
			for _, s := range a.Samples {
				least(s.RefNs)
			}
		}
	}
	return best
}

// chainSource names the effective clock benchy measures itself.
const chainSource = "dependent-add chain"

// RefNearOneCycle: a run whose best reference-loop probe took at most
// 1.05 cycles per iteration ran it at one cycle per iteration, give or
// take the probe's noise; only then is one cycle taken as the best.
const RefNearOneCycle = 1.05

// refCycles returns the reference loop's cycles per iteration before and
// after e's samples, each probe's time at the clock measured with it;
// nothing when either is missing.
func refCycles(e result.Experiment) []float64 {
	ref, clk := e.Reference, e.Clock
	if ref == nil || clk == nil || ref.BeforeNs <= 0 || ref.AfterNs <= 0 || clk.BeforeHz <= 0 || clk.AfterHz <= 0 {
		return nil
	}
	return []float64{ref.BeforeNs * clk.BeforeHz / 1e9, ref.AfterNs * clk.AfterHz / 1e9}
}
