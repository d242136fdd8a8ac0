package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/callgrind"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
)

// run --measure instructions, end to end: the real binary counts the loop
// of sum/sink in a process of its own (the hidden count-loop command),
// exactly as the loop's code says: the same count at every N. It lives
// here, not in internal/cli, whose tests already take most of go test's
// ten minutes on a busy machine.
func TestRunMeasureInstructions(t *testing.T) {
	if _, err := callgrind.Path(); err != nil {
		t.Skip("valgrind is not installed (apt-get install valgrind)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "benchy")
	// Without DWARF (-w): valgrind reads a program's debugging
	// information as it starts each of the six counted runs, which with
	// the longer link cost 3.5 s of the test's 11.4 s of CPU; the count
	// needs only the symbol table, for its marks.
	if out, err := exec.Command("go", "build", "-ldflags=-w", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "r.json")
	cmd := exec.Command(bin, "run", "--bench", "^sum/sink$", "--smoke", "--measure", "instructions", "--out", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r result.Result
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Experiments) != 1 {
		t.Fatalf("%d experiments", len(r.Experiments))
	}
	c := r.Experiments[0].Count
	if c == nil || c.Error != "" || c.Counter != result.CounterCallgrind || len(c.Samples) != 4 || !c.Sloped() || c.Symbol == "" {
		t.Fatalf("count %+v", c)
	}
	// 4096 words, a load and an add each at least.
	if per, _ := compare.CountPerOp(c, result.EventInstructions); per < 8192 || per > 4096*8 {
		t.Errorf("sum/sink: %.0f instructions per op", per)
	}
	if s := compare.CountSpread(c, result.EventInstructions); s > 0.001 {
		t.Errorf("sum/sink: spread %v of a loop that neither allocates nor calls", s)
	}
	// The count goes to gobench output, for benchstat.
	gb, err := exec.Command(bin, "report", out, "--format", "gobench").Output()
	if err != nil || !strings.Contains(string(gb), "instructions/op") {
		t.Errorf("gobench: %v\n%s", err, gb)
	}
}
