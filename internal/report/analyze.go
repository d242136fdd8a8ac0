package report

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
