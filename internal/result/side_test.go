package result_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// One benchmark measured on both sides of an interleaved comparison is
// two experiments of one name told apart by their side: each is found by
// its side, shown with it, and kept through a file; the same side and
// name twice is refused.
func TestExperimentSide(t *testing.T) {
	r := resulttest.Fixture()
	e := r.Experiments[0]
	e.Samples = resulttest.Spread(5, 1, 100, 0, 1, 2, 3, 4)
	old, cur := e, e
	old.Side, cur.Side = result.SideOld, result.SideNew
	r.Experiments = []result.Experiment{old, cur}
	if got := r.FindSide(result.SideNew, e.Name); got != &r.Experiments[1] {
		t.Errorf("FindSide(new) = %p, want the second experiment", got)
	}
	if r.Find(e.Name) != nil {
		t.Errorf("Find without a side found a side's experiment")
	}
	if got := r.Experiments[0].Label(); got != "old "+e.Name {
		t.Errorf("label %q", got)
	}
	if got := e.Label(); got != e.Name {
		t.Errorf("label without a side %q, want the name", got)
	}
	var buf bytes.Buffer
	if err := result.Encode(&buf, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `"name": "old `) || strings.Contains(buf.String(), `"layout"`) {
		t.Errorf("the side went into the name, or a first layout was written:\n%s", buf.String())
	}
	got, err := result.Unmarshal(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got.Experiments[0].Side != result.SideOld || got.Experiments[1].Side != result.SideNew || got.Experiments[1].Name != e.Name {
		t.Errorf("read back: %q %q, %q %q", got.Experiments[0].Side, got.Experiments[0].Name, got.Experiments[1].Side, got.Experiments[1].Name)
	}
	r.Experiments[1].Side = result.SideOld
	buf.Reset()
	if err := result.Encode(&buf, r); err != nil {
		t.Fatal(err)
	}
	if _, err := result.Unmarshal(buf.Bytes()); err == nil || !strings.Contains(err.Error(), "names each experiment once") {
		t.Errorf("one side's benchmark twice: %v", err)
	}
}
