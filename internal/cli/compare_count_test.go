package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
)

// withCounts writes file (a compare fixture) with a count of perOp
// instructions an op on every experiment, scaled by scale[name].
func withCounts(t *testing.T, dir, file, out string, scale map[string]float64) string {
	t.Helper()
	r, err := result.Load(compareFile(file))
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Experiments {
		e := &r.Experiments[i]
		k := 1.0
		if v, ok := scale[e.Name]; ok {
			k = v
		}
		c := &result.Count{Counter: result.CounterCallgrind, Tool: "callgrind-3.19.0"}
		for _, n := range []int64{1000, 2000, 3000, 4000} {
			c.Samples = append(c.Samples, result.CountSample{Iters: n, Events: map[string]int64{result.EventInstructions: int64(16396*k*float64(n)) + 60_000}})
		}
		e.Count = c
	}
	var b bytes.Buffer
	if err := render.Write(&b, r, "json"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, out)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Separate runs, compared on both bases: sum/sink 25% slower in time
// and 1% more instructions (both claimed, with both figures);
// sort/copy-8000 3% slower in time (not claimed from one run a side) and
// 1% more instructions (claimed: the count is exact); fold/opaque the
// same on both.
func TestCompareInstructions(t *testing.T) {
	dir := t.TempDir()
	old := withCounts(t, dir, "old.json", "old.json", nil)
	cur := withCounts(t, dir, "slower.json", "new.json", map[string]float64{"sum/sink": 1.01, "sort/copy-8000": 1.01})
	out, stderr, code := runCompare(old, cur)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"instructions    old", "sum/sink is slower on both bases: time +25.2%, instructions +1.0%",
		"sort/copy-8000: instructions +1.0% (beyond their noise", "the code changed by less than time can tell between runs",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "fold/opaque ") && strings.Contains(line, "instructions") && !strings.Contains(line, compare.SameInstructions) {
			t.Errorf("an unchanged count claimed: %q", line)
		}
	}
	js, _, _ := runCompare("--format", "json", old, cur)
	var doc struct {
		Instructions []compare.CountRow `json:"instructions"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]string{}
	for _, r := range doc.Instructions {
		verdicts[r.Name] = r.Verdict
	}
	if verdicts["sum/sink"] != compare.MoreInstructions || verdicts["sort/copy-8000"] != compare.MoreInstructions || verdicts["fold/opaque"] != compare.SameInstructions {
		t.Errorf("verdicts %v", verdicts)
	}
	md, _, _ := runCompare("--format", "markdown", old, cur)
	if !strings.Contains(md, "| instructions | old | new |") || !strings.Contains(md, "**more instructions**") {
		t.Errorf("markdown lacks the instructions table:\n%s", md)
	}
	// Without counts nothing of the second basis is written.
	plain, _, _ := runCompare(compareFile("old.json"), compareFile("slower.json"))
	if strings.Contains(plain, "instructions") {
		t.Errorf("a comparison without counts speaks of instructions:\n%s", plain)
	}
}
