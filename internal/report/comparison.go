package report

import (
	"fmt"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
)

// compareInterleaved judges an interleaved run (--compare): every
// candidate against the first, the baseline, paired round by round. With
// more than one candidate the p-values are Holm-adjusted, since the chance
// that one of several comparisons shows noise as a difference grows with
// their number. A side that failed or is not believable makes its pair
// "not comparable": a verdict on a number that cannot be right would be
// worse than none.
func compareInterleaved(r *Result) []compare.Pair {
	names := r.Settings.Compare
	if len(names) < 2 {
		return nil
	}
	byName := map[string]*Experiment{}
	for i := range r.Experiments {
		byName[r.Experiments[i].Name] = &r.Experiments[i]
	}
	base := byName[names[0]]
	var pairs []compare.Pair
	for _, name := range names[1:] {
		cand := byName[name]
		if base == nil || cand == nil {
			p := compare.Pair{Paired: true, Threshold: r.Settings.Threshold}
			p.SetNames(names[0], name)
			p.MarkNotComparable("not measured: the run ended before it")
			pairs = append(pairs, p)
			continue
		}
		p := compare.Paired(NsPerOp(base.Samples), NsPerOp(cand.Samples), r.Settings.Threshold)
		p.SetNames(base.Name, cand.Name)
		if why := unbelievable(base, cand); why != "" {
			p.MarkNotComparable(why)
		}
		pairs = append(pairs, p)
	}
	if len(pairs) > 1 {
		compare.Holm(pairs, compare.DefaultAlpha)
	}
	return pairs
}

// unbelievable says why a pair cannot be judged: a side failed, or its
// verdict is not believable.
func unbelievable(es ...*Experiment) string {
	var why []string
	for _, e := range es {
		switch {
		case e.Error != "":
			why = append(why, fmt.Sprintf("%s failed", e.Name))
		case e.Verdict == VerdictNotBelievable:
			why = append(why, fmt.Sprintf("%s is not believable (%s)", e.Name, strings.Join(e.Reasons, ", ")))
		}
	}
	return strings.Join(why, "; ")
}

// writeComparison writes the verdicts of an interleaved run, one sentence
// per candidate.
func writeComparison(w *errWriter, r *Result) {
	if len(r.Comparison) == 0 {
		return
	}
	w.printf("\ncomparison (interleaved rounds on cpu%d, baseline %s", r.CPU, r.Settings.Compare[0])
	if m := r.Comparison[0].Comparisons; m > 1 {
		w.printf("; p-values Holm-adjusted over %d comparisons", m)
	}
	w.printf("):\n")
	for _, p := range r.Comparison {
		w.printf("  %s\n", p.Sentence)
		if p.Reason != "" && !strings.Contains(p.Sentence, p.Reason) {
			w.printf("    why: %s\n", p.Reason)
		}
	}
}
