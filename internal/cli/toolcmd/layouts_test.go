package toolcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/cli"
)

// TestLayoutFlagBounds: --layouts takes 2 or more links, a bounded number.
func TestLayoutFlagBounds(t *testing.T) {
	for _, k := range []string{"1", "-3", "51"} {
		_, stderr, code := runBinary(t, "gotest", "--layouts", k, ".")
		if code != cli.ExitUsage || !strings.Contains(stderr, "--layouts") {
			t.Errorf("--layouts %s: exit %d, %q", k, code, stderr)
		}
	}
}

// TestGotestAgainstLayouts: each revision linked twice, the four binaries
// interleaved, the seeds and every layout's median recorded.
func TestGotestAgainstLayouts(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds two revisions twice and measures them")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n",
		"work.go":      "package work\n\nfunc Work(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n",
		"work_test.go": againstBench})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "one")
	out := filepath.Join(t.TempDir(), "c.json")
	_, stderr, code := runBinaryIn(t, dir, "gotest", "--against", "HEAD", "--layouts", "2", "--samples", "4", "--processes", "2",
		"--sample-time", "5ms", "--window", "100ms", "--out", out)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, stderr)
	}
	c := decodeComparison(t, string(data), stderr)
	if c.Layouts == nil || !slices.Equal(c.Layouts.Seeds, []int64{1, 2}) || c.Layouts.Processes != 2 {
		t.Fatalf("layouts %+v", c.Layouts)
	}
	if len(c.Layouts.Benchmarks) != 1 {
		t.Fatalf("layout spreads %+v", c.Layouts.Benchmarks)
	}
	sp := c.Layouts.Benchmarks[0]
	if sp.Name != "Work" || len(sp.Old) != 2 || len(sp.New) != 2 || sp.Old[0] <= 0 || sp.New[1] <= 0 {
		t.Errorf("spread %+v", sp)
	}
	if len(c.Rows) != 1 || c.Rows[0].BaseRuns != 4 || c.Rows[0].CandidateRuns != 4 {
		t.Errorf("rows %+v: want 4 processes a side (2 layouts of 2)", c.Rows)
	}
}

// What --layouts and --profile become: the links of each revision (none
// unless given), and the profile directory, made (absolute) by validate.
func TestGotestLayoutsProfileFlags(t *testing.T) {
	var got *gotestOptions
	capture := func(o *gotestOptions) error { got = o; return nil }
	prof := filepath.Join(t.TempDir(), "prof")
	parse(t, newGotestCmd(testGlobals(), capture), "--layouts", "4", "--profile", prof, "--against", "HEAD")
	if got.Layouts != 4 || got.Profile != prof {
		t.Errorf("layouts %d, profile %q", got.Layouts, got.Profile)
	}
	if err := got.ProfileOptions.Validate(false); err != nil || !filepath.IsAbs(got.ProfileOptions.Path()) || filepath.Base(got.ProfileOptions.Path()) != "prof" {
		t.Errorf("profile directory %q (%v), want an absolute path ending in prof", got.ProfileOptions.Path(), err)
	}
	parse(t, newGotestCmd(testGlobals(), capture))
	if got.Layouts != 0 || got.Profile != "" {
		t.Errorf("defaults: layouts %d, profile %q", got.Layouts, got.Profile)
	}
}
