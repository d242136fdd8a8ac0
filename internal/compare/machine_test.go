package compare

import (
	"encoding/json"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

func TestFmtHz(t *testing.T) {
	for _, tt := range []struct {
		hz   float64
		want string
	}{{2.95e9, "2.95 GHz"}, {8e8, "800 MHz"}} {
		if got := units.Hz(tt.hz); got != tt.want {
			t.Errorf("FormatHz(%v) = %q, want %q", tt.hz, got, tt.want)
		}
	}
}

func TestRowJSONKeepsTheName(t *testing.T) {
	r := Row{Name: "sum/sink", Pair: judgeUnpaired([]float64{1, 2}, []float64{1, 2}, 0.02)}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if back["name"] != "sum/sink" || back["verdict"] != result.NotComparable || back["p"] != nil {
		t.Errorf("row json %s: want the name, the verdict and p null", b)
	}
}

func TestGeomeanJSONWithoutComparableRows(t *testing.T) {
	b, err := json.Marshal(Geomean{})
	if err != nil || string(b) != `{"n":0}` {
		t.Errorf("empty geomean = %s (%v), want only n", b, err)
	}
	b, _ = json.Marshal(Geomean{N: 2, Old: 10, New: 5, Ratio: 0.5})
	if string(b) != `{"n":2,"old":10,"new":5,"ratio":0.5}` {
		t.Errorf("geomean = %s", b)
	}
}
