package toolcmd

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"

	"github.com/benchy-dev/benchy/internal/cli"
)

// The slowdown TestGotestAgainst makes, judged on recorded samples: benchy
// gotest results of its Work benchmark (12 samples in 4 processes, 10ms,
// cpu1 of a 2-vCPU VM) with one pass over the data (gotest-old.json) and
// with two (gotest-slower.json), recorded with other builds running, and
// again with a busy loop pinned to each CPU (gotest-hogs-*.json). gotest
// --against compares its two sides with compare's code (compare.Results
// and the gate), so the verdict and the exit are compare's.
func TestGotestSlowdownRecorded(t *testing.T) {
	old, slower := compareFile("gotest-old.json"), compareFile("gotest-slower.json")
	hogsOld, hogsSlower := compareFile("gotest-hogs-old.json"), compareFile("gotest-hogs-slower.json")
	tests := []struct {
		name, old, new, gate string
		verdict              string
		code                 int
		busy                 bool // the claim names what the machine did
	}{
		{"two passes for one", old, slower, "10%", result.Slower, cli.ExitFailed, false},
		{"under the hogs: claimed despite them", hogsOld, hogsSlower, "10%", result.Slower, cli.ExitFailed, true},
		{"a gate above the change", old, slower, "500%", result.Slower, cli.ExitOK, false},
		{"faster is no regression", slower, old, "10%", result.Faster, cli.ExitOK, false},
		{"one run against itself", old, old, "0%", result.NoDifference, cli.ExitOK, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, errb bytes.Buffer
			code := testMain([]string{"compare", "--format", "json", "--fail-on-regression", tt.gate, tt.old, tt.new}, &stdout, &errb)
			out, stderr := stdout.String(), errb.String()
			var c struct {
				Rows        []compare.Row `json:"experiments"`
				Regressions []string      `json:"regressions"`
			}
			if err := json.Unmarshal([]byte(out), &c); err != nil {
				t.Fatalf("exit %d, %v: %s", code, err, stderr)
			}
			if len(c.Rows) != 1 || c.Rows[0].Name != "Work" {
				t.Fatalf("rows %+v", c.Rows)
			}
			r := c.Rows[0]
			if r.Verdict != tt.verdict || code != tt.code || r.BaseRuns != 4 || r.CandidateRuns != 4 {
				t.Errorf("%s (%s), %d+%d runs, exit %d; want %s, 4+4 runs, exit %d\nstderr: %s",
					r.Verdict, r.Sentence, r.BaseRuns, r.CandidateRuns, code, tt.verdict, tt.code, stderr)
			}
			if regressed := len(c.Regressions) == 1 && c.Regressions[0] == "Work"; regressed != (tt.code == cli.ExitFailed) {
				t.Errorf("regressions %v with exit %d", c.Regressions, code)
			}
			if (r.Busy != "") != tt.busy {
				t.Errorf("busy %q, want named: %v", r.Busy, tt.busy)
			}
		})
	}
}
