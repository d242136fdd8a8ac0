package compare

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// The gate is judged once, when the document is made, and read back from
// its file as it was judged: a regression fails it, a row it cannot judge
// alone leaves it unable to judge, and without a limit there is no gate.
func TestDocumentOutcome(t *testing.T) {
	slower := Row{Name: "Slow", Pair: result.Pair{Verdict: result.Slower, Ratio: 1.5, CILow: 1.4, CIHigh: 1.6, P: 0.001, AdjustedP: 0.001, Alpha: 0.05}}
	same := Row{Name: "Same", Pair: result.Pair{Verdict: result.NoDifference, Ratio: 1, CILow: 0.99, CIHigh: 1.01, P: 0.5, AdjustedP: 0.5, Alpha: 0.05}}
	busy := Row{Name: "Busy", Pair: result.Pair{Verdict: result.Inconclusive, Reason: "the machine was busy"}}
	tests := []struct {
		name string
		rows []Row
		fail float64
		want string
	}{
		{"no gate", []Row{slower}, -1, GateNone},
		{"passed", []Row{same}, 0.05, GatePassed},
		{"a regression beyond the limit", []Row{same, slower, busy}, 0.05, GateFailed},
		{"a limit above the change", []Row{slower}, 0.5, GatePassed},
		{"cannot judge", []Row{same, busy}, 0.05, GateCannotJudge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := Files{Threshold: 0.02, Alpha: 0.05, Rows: tt.rows, OnlyOld: []string{}, OnlyNew: []string{}}
			d := NewDocument("benchy test", nil, nil, nil, nil, files, tt.fail)
			if got := d.Outcome(); got != tt.want {
				t.Fatalf("outcome %q, want %q (gate %+v)", got, tt.want, d.Gate)
			}
			if tt.want == GateFailed && !slices.Equal(d.Regressions, []string{"Slow"}) {
				t.Errorf("regressions %v, want Slow", d.Regressions)
			}
			var b bytes.Buffer
			if err := json.NewEncoder(&b).Encode(d.JSON()); err != nil {
				t.Fatal(err)
			}
			back, err := ReadDocument(b.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if back.Outcome() != tt.want || back.Tool != "benchy test" || len(back.Gate.Regressions) != len(d.Gate.Regressions) {
				t.Errorf("read back: outcome %q, tool %q, gate %+v; want %q as written", back.Outcome(), back.Tool, back.Gate, tt.want)
			}
		})
	}
}

// The instructions of the experiments counted on both sides are compared
// when the document is made, each row judged with its time row: what the
// two bases say together is the document's, not a writer's.
func TestDocumentJudgesCountsWithTime(t *testing.T) {
	counted := func(seed uint64, ns, perOp float64) []*result.Result {
		r := run(seed, 10, map[string]float64{"Work": ns})
		r.Experiments[0].Count = countedResult("Work", perOp).Experiments[0].Count
		return []*result.Result{r}
	}
	olds, news := counted(1, 100, 1000), counted(2, 150, 1500)
	files, err := Results(olds, news, 0.02)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDocument("benchy test", nil, nil, olds, news, files, -1)
	if len(d.Instructions) != 1 || d.Instructions[0].Verdict != MoreInstructions || d.Instructions[0].Both == "" {
		t.Errorf("instructions %+v: want Work with more instructions, judged with its time", d.Instructions)
	}
}
