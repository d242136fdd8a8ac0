package compare

import (
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Interleaved judges an interleaved run (--compare): every
// candidate against the first, the baseline, paired round by round. With
// more than one candidate the p-values are Holm-adjusted, since the chance
// that one of several comparisons shows noise as a difference grows with
// their number. A side that failed or cannot be right makes its pair "not
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
	var pairs []result.Pair
	for _, name := range names[1:] {
		cand := r.Find(name)
		if base == nil || cand == nil {
			p := result.Pair{Paired: true, Threshold: r.Settings.Threshold}
			p.Base, p.Candidate = names[0], name
			stats.MarkNotComparable(&p, "not measured: the run ended before it")
			pairs = append(pairs, p)
			continue
		}
		pairs = append(pairs, comparePaired(base, cand, run, r.Settings.Threshold))
	}
	if len(pairs) > 1 {
		stats.Holm(pairs, stats.DefaultAlpha)
	}
	return pairs
}

// comparePaired is one pair of an interleaved run.
func comparePaired(base, cand *result.Experiment, run []string, threshold float64) result.Pair {
	basis, busy := Basis([]Side{{Label: base.Name, E: base, Run: run}, {Label: cand.Name, E: cand, Run: run}}, false)
	b, _ := result.PerOp(*base, basis)
	c, _ := result.PerOp(*cand, basis)
	p := stats.Paired(b, c, threshold)
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
		stats.MarkNotComparable(&p, strings.Join(why, "; "))
	case busy.Reason != "":
		stats.Despite(&p, busy.Reason, busy.Bound)
	}
	return p
}
