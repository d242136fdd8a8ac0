package latency

import "github.com/benchy-dev/benchy/internal/result"

// MergeStored adds to dst the calls another process stored in src (run
// --processes): the histograms added bucket by bucket, the windows
// appended in order, the collections counted, and with --rate the open
// loop's calls added the same way. The percentiles and the tail are the
// analysis's to derive again from the sum.
//
// The clock's cost is each process's own, subtracted there; dst keeps
// their mean weighted by calls, the cost subtracted from a call on
// average. The rate achieved is the calls over the time on the timetable
// of both (each process's calls over its rate).
func MergeStored(dst *result.Latency, src result.Latency) {
	n, m := float64(dst.Calls), float64(src.Calls)
	if n+m > 0 {
		dst.ClockCostNs = (dst.ClockCostNs*n + src.ClockCostNs*m) / (n + m)
	}
	h := Load(*dst)
	h.Merge(Load(src))
	h.Store(dst)
	dst.GCCycles += src.GCCycles
	dst.Windows = append(dst.Windows, src.Windows...)
	dst.Percentiles, dst.Tail = nil, nil
	if dst.Rate == nil || src.Rate == nil {
		return
	}
	r, s := dst.Rate, src.Rate
	if r.Achieved > 0 && s.Achieved > 0 {
		r.Achieved = (n + m) / (n/r.Achieved + m/s.Achieved)
	}
	r.MaxLagNs = max(r.MaxLagNs, s.MaxLagNs)
	r.FellBehind = r.FellBehind || s.FellBehind
	MergeStored(&r.Open, s.Open)
}
