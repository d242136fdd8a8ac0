package compare

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestPairJSONWritesUnknownAsNull(t *testing.T) {
	p := Paired([]float64{1, 2}, []float64{1, 2}, 0.02) // too few rounds: NaN statistics
	p.SetNames("a", "b")
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
	base := []float64{100, 101, 99, 100, 102, 100, 101, 99}
	p := Paired(base, []float64{50, 51, 49, 50, 51, 50, 50, 49}, 0.02)
	p.SetNames("a", "b")
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
