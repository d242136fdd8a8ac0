package cli

import "github.com/benchy-dev/benchy/internal/targets/inproc"

// didYouMean is " (did you mean X?)" for the experiment names closest to
// name, by edit distance, when one is close enough to be a typo; "" else.
func didYouMean(all []inproc.Workload, name string) string {
	best, bestD := "", 0
	for _, w := range all {
		d := editDistance(name, w.Name)
		if best == "" || d < bestD {
			best, bestD = w.Name, d
		}
	}
	if best == "" || bestD > max(2, len(name)/4) {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
