package analyze

import "github.com/benchy-dev/benchy/internal/result"

// likelyCause names the most likely cause of the numbers that are not
// believable or doubtful: the first reason shared by most of them (an
// error's first), the experiments it applies to, and what to do, from the
// registry of codes; nil when all are believable.
func likelyCause(r *result.Result) *result.Cause {
	count := map[string][]string{}
	var order []string
	for _, sev := range []string{result.VerdictNotBelievable, result.VerdictDoubtful} {
		for _, e := range r.Experiments {
			if e.Verdict != sev || len(e.Reasons) == 0 {
				continue
			}
			c := e.Reasons[0]
			if _, ok := count[c]; !ok {
				order = append(order, c)
			}
			count[c] = append(count[c], e.Label())
		}
	}
	if len(order) == 0 {
		return nil
	}
	best := order[0]
	for _, c := range order {
		if len(count[c]) > len(count[best]) {
			best = c
		}
	}
	info, _ := result.LookupCode(best)
	return &result.Cause{Code: best, Text: info.Cause, Experiments: count[best], OtherReasons: len(order) - 1}
}
