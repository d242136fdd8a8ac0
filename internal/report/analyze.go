package report

import "fmt"

import "github.com/benchy-dev/benchy/internal/machine"

// Analyze recomputes, in place and from the raw data only (samples,
// counters, GC figures, and the run's clock facts), the statistics,
// findings and verdict of every experiment. Findings whose code Analyze
// does not compute (see Codes) are kept, so findings the run added from
// elsewhere survive `benchy report`. When the result holds the machine
// snapshot taken before the run, the environment findings are recomputed
// from it too (machine.Check gives every machine code), so an old file is
// judged by today's machine checks; without one they are kept as stored.
func Analyze(r *Result) {
	if r == nil {
		return
	}
	if r.Before != nil {
		r.Environment = machine.Check(r.Before, r.CPU)
	}
	facts := r.Facts()
	facts.RunClockHz = max(r.EffectiveClock.BeforeHz, r.EffectiveClock.AfterHz)
	for _, e := range r.Experiments {
		if e.Clock != nil {
			facts.RunClockHz = max(facts.RunClockHz, e.Clock.BeforeHz, e.Clock.AfterHz)
		}
		if ref := e.Reference; ref != nil && ref.BeforeNs > 0 && ref.AfterNs > 0 {
			if facts.RunRefNs == 0 {
				facts.RunRefNs = min(ref.BeforeNs, ref.AfterNs)
			}
			facts.RunRefNs = min(facts.RunRefNs, ref.BeforeNs, ref.AfterNs)
			facts.RunRefFrom = "the fastest around any experiment of the run"
		}
	}
	refFloor(r, &facts)
	for i := range r.Experiments {
		e := &r.Experiments[i]
		e.Stats = Compute(e.Samples)
		fs := CheckExperiment(*e, facts)
		for _, f := range e.Findings {
			if !ownCode(f.Code) {
				fs = append(fs, f)
			}
		}
		e.Findings = fs
		e.Verdict, e.Reasons = Verdict(e.Findings, r.Environment)
	}
	r.Comparison = compareInterleaved(r)
}

// refFloor lowers the run's best reference-loop time to one cycle per
// iteration at the run's highest clock, where that is known to be the
// loop's speed on a core of its own: on amd64 every core since Haswell and
// Zen runs a loop of one store and one taken branch at one iteration per
// cycle. Without it a run spent entirely on a shared core would compare
// with itself and look fine.
func refFloor(r *Result, facts *Facts) {
	if r.GOARCH != "amd64" || facts.RunClockHz <= 0 || facts.RunRefNs <= 0 {
		return
	}
	if floor := 1e9 / facts.RunClockHz; floor < facts.RunRefNs {
		facts.RunRefNs = floor
		facts.RunRefFrom = fmt.Sprintf("one cycle per iteration at %s, the loop's speed on an unshared amd64 core", fmtHz(facts.RunClockHz))
	}
}
