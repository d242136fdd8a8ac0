package compare

import (
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// Rows of the same program on both sides claim nothing, whatever was
// measured: a claimed change and a busy machine's inconclusive alike
// become no difference with the reason, the figures kept; other rows and
// a side that failed are left as they were.
func TestSameProgram(t *testing.T) {
	f := Files{Rows: []Row{
		{Name: "a", Pair: result.Pair{Verdict: result.Faster, Ratio: 0.931, CILow: 0.903, CIHigh: 0.961}},
		{Name: "b", Pair: result.Pair{Verdict: result.Inconclusive, Ratio: 1.2, Busy: "the machine was busy", BusyBound: 0.5}},
		{Name: "c", Pair: result.Pair{Verdict: result.NotComparable, Reason: "new failed"}},
		{Name: "d", Pair: result.Pair{Verdict: result.Slower, Ratio: 1.3, CILow: 1.2, CIHigh: 1.4}},
	}}
	f.SameProgram([]string{"a", "b", "c"})
	want := []struct{ verdict, reason string }{
		{result.NoDifference, SameProgramReason},
		{result.NoDifference, SameProgramReason},
		{result.NotComparable, "new failed"},
		{result.Slower, ""},
	}
	for i, r := range f.Rows {
		if r.Verdict != want[i].verdict || r.Reason != want[i].reason {
			t.Errorf("%s: %s (%s), want %s (%s)", r.Name, r.Verdict, r.Reason, want[i].verdict, want[i].reason)
		}
	}
	if a := f.Rows[0]; a.Ratio != 0.931 || a.CILow != 0.903 || a.CIHigh != 0.961 {
		t.Errorf("a's figures changed: %+v", a.Pair)
	}
	if b := f.Rows[1]; b.Busy != "" || b.BusyBound != 0 {
		t.Errorf("b still busy: %q %v", b.Busy, b.BusyBound)
	}
}

// A gate never fails on a row of the same program, however far its
// interval lies: the figures kept are the machine's.
func TestGatePassesTheSameProgram(t *testing.T) {
	f := Files{Rows: []Row{{Name: "a", Pair: result.Pair{Verdict: result.Slower, Ratio: 1.2,
		CILow: 1.1, CIHigh: 1.3, AdjustedP: 0.001, Alpha: 0.05}}}}
	if g := f.Gate(0.05); g.Passed() {
		t.Fatalf("a 20%% slowdown passed the gate at 5%%: %+v", g)
	}
	f.SameProgram([]string{"a"})
	if g := f.Gate(0.05); !g.Passed() {
		t.Errorf("the same program failed the gate: %+v", g)
	}
}
