package pipeline

import (
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
)

// A step passes as not confirmed only when the interleaved run rules out
// a slowdown beyond the threshold.
func TestConfirmOutcome(t *testing.T) {
	row := func(verdict string, lo, hi float64) compare.Row {
		return compare.Row{Pair: result.Pair{Verdict: verdict, CILow: lo, CIHigh: hi, Threshold: 0.05}}
	}
	for _, tt := range []struct {
		name string
		row  compare.Row
		want string
	}{
		{"claimed slower", row(result.Slower, 1.08, 1.12), Confirmed},
		{"ruled out", row(result.NoDifference, 0.98, 1.03), NotConfirmed},
		{"faster", row(result.Faster, 0.8, 0.9), NotConfirmed},
		{"significant, reaching back within the threshold", row(result.NoDifference, 1.03, 1.09), NotJudged},
		{"too wide to tell", row(result.NoDifference, 0.9, 1.2), NotJudged},
		{"inconclusive", row(result.Inconclusive, 0.9, 1.2), NotJudged},
	} {
		if got, why := outcome(tt.row); got != tt.want {
			t.Errorf("%s: %s (%s), want %s", tt.name, got, why, tt.want)
		}
	}
}
