package toolcmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/cli"
	"github.com/benchy-dev/benchy/internal/profiles"
)

// TestGotestAgainstProfile: both revisions profiled, the difference listed
// under the comparison and written as a profile, a function only the new
// revision calls listed with nothing on the old side.
func TestGotestAgainstProfile(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds two revisions and measures them")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	work := func(extra string) string {
		return "package work\n\n// Work sums xs.\nfunc Work(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s" + extra + "\n}\n\n" +
			"//go:noinline\nfunc Extra(xs []int) int {\n\ts := 0\n\tfor p := 0; p < 3; p++ {\n\t\tfor _, x := range xs {\n\t\t\ts += x ^ p\n\t\t}\n\t}\n\treturn s\n}\n"
	}
	dir := writeModule(t, map[string]string{"go.mod": "module example.com/work\n\ngo 1.24\n",
		"work.go": work(""), "work_test.go": againstBench})
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-q", "-m", "one pass")
	if err := os.WriteFile(filepath.Join(dir, "work.go"), []byte(work(" + Extra(xs)")), 0o644); err != nil {
		t.Fatal(err)
	}
	prof, page := filepath.Join(t.TempDir(), "prof"), filepath.Join(t.TempDir(), "r.html")
	stdout, stderr, code := runBinaryIn(t, dir, "gotest", "--against", "HEAD", "--samples", "6", "--processes", "2",
		"--sample-time", "50ms", "--window", "100ms", "--format", "json", "--profile", prof, "--html", page)
	c := decodeComparison(t, stdout, stderr)
	if code != cli.ExitOK && code != cli.ExitCannotJudge {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if len(c.ProfileDiffs) != 1 || c.ProfileDiffs[0].Name != "Work" || c.ProfileDiffs[0].Error != "" {
		t.Fatalf("profile differences %+v", c.ProfileDiffs)
	}
	d := c.ProfileDiffs[0]
	if _, err := profiles.Read(d.Path); err != nil {
		t.Errorf("the difference does not read as a profile: %v", err)
	}
	found := false
	for _, r := range d.Rows {
		if strings.HasSuffix(r.Func, "work.Extra") {
			found = true
			if r.OldFlat != 0 || r.NewFlat <= 0 {
				t.Errorf("Extra, only in new: %+v", r)
			}
		}
	}
	if !found {
		t.Errorf("Extra, most of new's time, is not in the difference: %+v", d.Rows)
	}
	for _, f := range []string{"old_Work.cpu.pprof", "new_Work.cpu.pprof", "Work.diff.cpu.pprof"} {
		if _, err := os.Stat(filepath.Join(prof, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "Profiles, new less old") {
		t.Errorf("the page lacks the difference (%v)", err)
	}
}
