package result

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestPairJSONWritesUnknownAsNull(t *testing.T) {
	nan := math.NaN()
	p := Pair{Base: "a", Candidate: "b", Paired: true, Ratio: nan, CILow: nan, CIHigh: nan, Confidence: nan,
		P: nan, AdjustedP: nan, BaseMedian: 1.5, CandidateMedian: 1.5, N: 2, Verdict: NotComparable,
		Reason: "too few rounds"} // too few rounds: NaN statistics
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("marshal a pair with too few rounds: %v", err)
	}
	if !strings.Contains(string(b), `"p":null`) || !strings.Contains(string(b), `"verdict":"not comparable"`) {
		t.Errorf("json %s: want p null and the verdict", b)
	}
	var back Pair
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(back.P) || back.Verdict != NotComparable || back.Base != "a" || back.N != p.N {
		t.Errorf("read back %+v", back)
	}
}

func TestPairJSONRoundTrip(t *testing.T) {
	p := Pair{Base: "a", Candidate: "b", Paired: true, Basis: BasisCycles, BaseMedian: 100, CandidateMedian: 50,
		Ratio: 0.5, CILow: 0.49, CIHigh: 0.51, Confidence: 0.9922, P: 0.0078, AdjustedP: 0.0078, Comparisons: 1,
		Alpha: 0.05, N: 8, BaseN: 8, CandidateN: 8, Threshold: 0.02, Verdict: Faster, Sentence: "b vs a: faster"}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var back Pair
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != p {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, p)
	}
}
