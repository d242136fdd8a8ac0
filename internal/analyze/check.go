package analyze

import (
	"math"
	"slices"
	"strconv"

	"github.com/benchy-dev/benchy/internal/changepoint"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// examine checks e (whose Slowed is set) and returns its findings, with
// the view of e its statistics are of and that view's series. The samples
// a slowed core touched are left out of everything judged of the code
// (slowed-samples says how many) when enough are left; the series and its
// positions are then of the others.
func examine(e result.Experiment, f Facts) (view result.Experiment, ser Series, fs []finding.Finding) {
	view = e.WithoutSlowed()
	ser = ClassifySeries(view)
	fs = checkExperiment(view, ser, f)
	if x, found, checked := checkSlowedSamples(e, f); checked {
		fs = slices.DeleteFunc(fs, func(f finding.Finding) bool { return f.Code == result.CodeSlowCore })
		if found {
			fs = append(fs, x)
		}
	}
	add := func(x finding.Finding, ok bool) {
		if ok {
			fs = append(fs, x)
		}
	}
	add(checkRemeasured(e, f))
	return view, ser, fs
}

// checkExperiment returns the findings on e's samples and GC figures,
// given the facts of the run and the shape of e's series in run order
// (changepoints, per process), already classified: after a warm-up,
// the statistics judged are the steady samples'.
func checkExperiment(e result.Experiment, ser Series, f Facts) []finding.Finding {
	var fs []finding.Finding
	add := func(x finding.Finding, ok bool) {
		if ok {
			fs = append(fs, x)
		}
	}
	st := Compute(ser.Steady(e.Samples))
	if e.Error != "" {
		fs = append(fs, finding.Finding{
			Code: result.CodeFailed, Severity: finding.Error,
			Message:  "the workload failed: " + e.Error,
			Evidence: map[string]any{"error": e.Error},
		})
	} else if st.N == 0 {
		fs = append(fs, finding.Finding{
			Code: result.CodeNoSamples, Severity: finding.Error,
			Message:  "no sample with iterations: nothing was measured",
			Evidence: map[string]any{"samples": len(e.Samples)},
		})
	}
	add(checkFewSamples(st))
	add(checkImpossible(e, st, f))
	add(checkBelowClock(e, f))
	add(checkShortSamples(e, f))
	add(checkUnstable(st))
	add(checkOutliers(e))
	// A step is a warm-up, a slowdown, or no steady state. A gradual
	// trend has no step: drift (halves) looks for it in a flat series.
	// A series too short to classify keeps the first-slow rule. Across
	// processes the halves and the first sample mean nothing (the next
	// process is not a late sample of this one).
	add(checkSeries(e, ser))
	add(checkTargetCI(e, f))
	if !multiProcess(e) {
		if !ser.Judged() {
			add(checkFirstSlow(e))
		}
		if ser.Class == changepoint.Flat {
			add(checkDrift(e))
		}
	}
	if e.Kind != result.KindProcess {
		// A program waits (sleeps, reads, waits for its children) and
		// maps its memory at start-up as part of its work: time off the
		// CPU and page faults say nothing of interference there.
		add(checkDisturbed(e))
	}
	if e.Kind == result.KindLoop {
		add(checkPageFaults(e, f))
	}
	add(checkSpawn(e, st, f))
	add(checkMigrated(e, f))
	add(checkGC(e, f))
	add(checkGOMAXPROCS(e, st))
	add(checkAllocs(e, f))
	add(checkFreqChange(f))
	add(checkSlowClock(e, f))
	add(checkSlowCore(e, f))
	fs = append(fs, checkLatency(e)...)
	for _, x := range fs {
		finiteEvidence(x.Evidence)
	}
	return fs
}

// multiProcess reports whether e's samples come from more than one
// process.
func multiProcess(e result.Experiment) bool {
	for _, s := range e.Samples {
		if s.Process != 0 {
			return true
		}
	}
	return false
}

// finiteEvidence replaces infinite and NaN numbers, which JSON cannot
// hold, by their names. They only arise from absurd facts in a damaged
// file (a clock of 1e308 Hz), but such a file must still be reported.
func finiteEvidence(ev map[string]any) {
	for k, v := range ev {
		if x, ok := v.(float64); ok && (math.IsInf(x, 0) || math.IsNaN(x)) {
			ev[k] = strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
}

// ownCode reports whether code is one of the findings examine computes.
func ownCode(code string) bool {
	c, ok := result.LookupCode(code)
	return ok && c.Scope == result.ScopeAnalysis
}
