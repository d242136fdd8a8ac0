package latency

import (
	"math"
	"strconv"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Reported are the percentiles a latency report gives, besides the max.
var Reported = []float64{0.5, 0.9, 0.99, 0.999}

// Beyond is how many calls must lie above a percentile for it to be
// reported: with 10 expected beyond it, its interval has an upper end at
// 95% (that needs about 3.7 of them) and the estimate is not the max
// under another name. So p99 needs 1,000 calls and p99.9 10,000.
const Beyond = 10

// Need is the fewest calls that report the p-quantile: Beyond/(1-p).
func Need(p float64) uint64 { return uint64(math.Ceil(Beyond/(1-p) - 1e-9)) }

// Name is a percentile's label: "p50", "p99.9".
func Name(p float64) string {
	return "p" + strconv.FormatFloat(math.Round(p*1e4)/100, 'f', -1, 64)
}

// Percentiles are the percentiles ps of h, each with its
// distribution-free interval at level: the order statistics that
// stats.QuantileOrders gives, read from the histogram (so each end is
// also within a bucket of the true order statistic). A percentile that
// needs more calls than h holds is listed, not reported.
func Percentiles(h *Histogram, ps []float64, level float64) []result.Percentile {
	var out []result.Percentile
	for _, p := range ps {
		q := result.Percentile{P: p, Name: Name(p), Need: Need(p)}
		if n := h.Count(); n >= q.Need {
			lo, hi, cov := stats.QuantileOrders(int(n), p, level)
			q.Reported, q.Ns, q.Level, q.Coverage = true, h.Quantile(p), level, cov
			q.LoNs, q.HiNs = -1, -1
			if lo >= 1 {
				q.LoNs = h.AtRank(uint64(lo))
			}
			if hi <= int(n) {
				q.HiNs = h.AtRank(uint64(hi))
			}
		}
		out = append(out, q)
	}
	return out
}
