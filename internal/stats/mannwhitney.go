package stats

import (
	"math"
	"slices"
)

// MannWhitney is the two-sided p-value of the Mann-Whitney U test that a
// and b come from one distribution, as benchstat computes it (benchmath's
// AssumeNothing): no assumption on the shape of the distribution, which
// benchmark times rarely meet. The p-value is exact for small samples, from
// the distribution of U over every way of splitting the pooled ranks: up to
// 50 values a side without ties, up to 25 with ties (where U counts a tie
// between the sides as ½); beyond, the normal approximation with the tie
// and continuity corrections. With 5 values per side the smallest p is
// 0.008. When a side is empty, or every value is equal, nothing tells the
// samples apart and p is 1. The tests hold it to benchmath's: the same
// float64 without ties, within 1e-12 with them.
func MannWhitney(a, b []float64) float64 {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	u1, ties := rankSum(a, b)
	u2 := float64(n1*n2) - u1
	hasTies := len(ties) < n1+n2
	if !hasTies && max(n1, n2) <= 50 || hasTies && max(n1, n2) <= 25 {
		switch {
		case len(ties) == 1:
			return 1 // every value equal
		case u1 == u2:
			// The median of a symmetric distribution: the two tails
			// together are all of it.
			return 1
		case !hasTies:
			return uCDF(n1, n2, int(min(u1, u2))) * 2
		}
		return uCDFTies(n1, ties, int(2*min(u1, u2))) * 2
	}
	// The normal approximation: U's mean n1·n2/2 and its variance
	// n1·n2/12 · (N+1 - Σ(t³-t)/(N(N-1))), narrowed by the ties;
	// moved ½ towards the mean for the continuity of the discrete U.
	var t float64
	for _, k := range ties {
		t += float64(k*k*k - k)
	}
	n := float64(n1 + n2)
	sigma := math.Sqrt(float64(n1*n2) * ((n + 1) - t/(n*(n-1))) / 12)
	if sigma == 0 {
		return 1
	}
	d := u1 - float64(n1*n2)/2
	switch {
	case d > 0:
		d -= 0.5
	case d < 0:
		d += 0.5
	}
	cdf := math.Erfc(-(d/sigma)/math.Sqrt2) / 2
	return 2 * min(cdf, 1-cdf)
}

// rankSum is U of a against b — the pairs (x from a, y from b) with x > y,
// a tie counting ½ — from the sum of a's ranks in the pooled sample (a
// tied group shares the mean of its ranks), and the sizes of the pooled
// sample's groups of equal values in ascending order (all 1 without ties).
func rankSum(a, b []float64) (u float64, ties []int) {
	type value struct {
		x     float64
		fromA bool
	}
	pooled := make([]value, 0, len(a)+len(b))
	for _, x := range a {
		pooled = append(pooled, value{x, true})
	}
	for _, x := range b {
		pooled = append(pooled, value{x, false})
	}
	slices.SortFunc(pooled, func(v, w value) int { return compareFloat(v.x, w.x) })
	var r1 float64
	for i := 0; i < len(pooled); {
		j, inA := i, 0
		for ; j < len(pooled) && pooled[j].x == pooled[i].x; j++ {
			if pooled[j].fromA {
				inA++
			}
		}
		// Ranks i+1..j, their mean (i+1+j)/2.
		r1 += float64(i+1+j) / 2 * float64(inA)
		ties = append(ties, j-i)
		i = j
	}
	n1 := float64(len(a))
	return r1 - n1*(n1+1)/2, ties
}

// compareFloat orders float64s as sort.Float64s does: NaN first.
func compareFloat(x, y float64) int {
	switch {
	case x < y || math.IsNaN(x) && !math.IsNaN(y):
		return -1
	case x > y || math.IsNaN(y) && !math.IsNaN(x):
		return 1
	}
	return 0
}

// uCDF is P(U <= u) for samples of n1 and n2 values without ties, from
// Mann and Whitney's (1947) recurrence on the probability of each U,
//
//	p(n, m; u) = (n·p(n-1, m; u-m) + m·p(n, m-1; u)) / (n+m),
//
// with p(n, 0; 0) = p(0, m; 0) = 1: the largest of the n+m values comes
// from the first sample with probability n/(n+m), and then beats the m
// of the other. The distribution is symmetric about n1·n2/2, so the
// smaller tail is summed.
func uCDF(n1, n2, u int) float64 {
	flip := u >= (n1*n2+1)/2
	if flip {
		u = n1*n2 - u - 1
	}
	if n1 > n2 {
		n1, n2 = n2, n1
	}
	// row[n][u] is p(n, m; u) for the current m, n <= min(m, n1); m
	// grows from 0 to n2, and each row is rewritten in place from its
	// largest u down, reading p(n-1, m) (already this m's) and p(n, m-1)
	// (still the last m's). p(n, m) = p(m, n) gives p(n, m-1) for
	// n = m from the row of m-1.
	row := make([][]float64, n1+1)
	for n := range row {
		row[n] = make([]float64, u+1)
	}
	for m := 0; m <= n2; m++ {
		row[0][0] = 1
		for n := 1; n <= min(n1, m); n++ {
			prev := row[n]
			if n == m {
				prev = row[m-1]
			}
			for v := min(u, n*m); v >= 0; v-- {
				var l float64
				if v >= m {
					l = float64(n) * row[n-1][v-m]
				}
				row[n][v] = (l + float64(m)*prev[v]) / float64(n+m)
			}
		}
	}
	var p float64
	for _, pv := range row[n1][:u+1] {
		p += pv
	}
	if flip {
		return 1 - p
	}
	return p
}

// uCDFTies is P(U <= twoU/2) for n1 values of the first sample among
// ranks tied in groups of the sizes ties (ascending values), each of the
// C(N, n1) ways of choosing which of the N pooled values are the first
// sample's equally likely. It counts them by dynamic programming over the
// groups: taking r of a group's t values into the first sample, after c
// values below the group of which k are the first sample's, adds
// r·(c-k) + r·(t-r)/2 to U (those r beat the c-k of the second sample
// below and tie with the t-r in their group). Every count is an integer
// below C(50, 25) < 2^53, exact in a float64.
func uCDFTies(n1 int, ties []int, twoU int) float64 {
	// ways[k][w] counts the choices of k first-sample values among the
	// groups so far with 2U = w; 2U never exceeds 2·n1·N.
	n := 0
	for _, t := range ties {
		n += t
	}
	width := min(twoU, 2*n1*n) + 1
	ways := make([][]float64, n1+1)
	next := make([][]float64, n1+1)
	for k := range ways {
		ways[k] = make([]float64, width)
		next[k] = make([]float64, width)
	}
	ways[0][0] = 1
	below := 0
	for _, t := range ties {
		for k := range next {
			clear(next[k])
		}
		for k := 0; k <= min(n1, below); k++ {
			for w, c := range ways[k] {
				if c == 0 {
					continue
				}
				for r := 0; r <= t && k+r <= n1; r++ {
					w2 := w + 2*r*(below-k) + r*(t-r)
					if w2 >= width {
						continue // above twoU: not counted
					}
					next[k+r][w2] += c * choose(t, r)
				}
			}
		}
		ways, next = next, ways
		below += t
	}
	var count float64
	for _, c := range ways[n1] {
		count += c
	}
	return count / choose(n, n1)
}

// choose is the binomial coefficient C(n, k), exact while k·C(n, k) is
// below 2^53 (each step's product is i·C(n-k+i, i), an integer).
func choose(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	k = min(k, n-k)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}
