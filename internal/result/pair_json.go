package result

import (
	"encoding/json"
	"math"
)

// JSON has no NaN, and a pair that could not be judged (too few samples)
// has NaN statistics: they are written as null, which reads as "unknown",
// and read back as NaN. Without this a run with too few rounds would lose
// its whole result to an encoding error.

// pairJSON shadows every float field of Pair with a pointer, nil for NaN.
type pairJSON struct {
	plainPair
	BaseMedian      *float64 `json:"base_median_ns"`
	CandidateMedian *float64 `json:"candidate_median_ns"`
	Ratio           *float64 `json:"ratio"`
	CILow           *float64 `json:"ci_low"`
	CIHigh          *float64 `json:"ci_high"`
	Confidence      *float64 `json:"confidence"`
	P               *float64 `json:"p"`
	AdjustedP       *float64 `json:"adjusted_p"`
}

// plainPair is Pair without its methods, so encoding it does not recurse.
type plainPair Pair

// MarshalJSON writes NaN statistics as null.
func (p Pair) MarshalJSON() ([]byte, error) {
	finite := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	return json.Marshal(pairJSON{
		plainPair:       plainPair(p),
		BaseMedian:      finite(p.BaseMedian),
		CandidateMedian: finite(p.CandidateMedian),
		Ratio:           finite(p.Ratio),
		CILow:           finite(p.CILow),
		CIHigh:          finite(p.CIHigh),
		Confidence:      finite(p.Confidence),
		P:               finite(p.P),
		AdjustedP:       finite(p.AdjustedP),
	})
}

// UnmarshalJSON reads null statistics back as NaN.
func (p *Pair) UnmarshalJSON(b []byte) error {
	var w pairJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	orNaN := func(x *float64) float64 {
		if x == nil {
			return math.NaN()
		}
		return *x
	}
	*p = Pair(w.plainPair)
	p.BaseMedian, p.CandidateMedian = orNaN(w.BaseMedian), orNaN(w.CandidateMedian)
	p.Ratio, p.CILow, p.CIHigh = orNaN(w.Ratio), orNaN(w.CILow), orNaN(w.CIHigh)
	p.Confidence, p.P, p.AdjustedP = orNaN(w.Confidence), orNaN(w.P), orNaN(w.AdjustedP)
	return nil
}
