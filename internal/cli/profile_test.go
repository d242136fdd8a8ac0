package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/outfile"
	"github.com/benchy-dev/benchy/internal/profiles"
	"github.com/benchy-dev/benchy/internal/result"
)

// TestRunProfile: run --profile writes a CPU profile per experiment that
// pprof's reader reads, records its path and summary in the result, and
// says on stderr where the profiles are.
func TestRunProfile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "prof")
	stdout, stderr, code := runBinary(t, "run", "--bench", "^(sum/keep|concat/builder)$", "--samples", "5",
		"--sample-time", "5ms", "--window", "10ms", "--format", "json", "--profile", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := result.Decode(strings.NewReader(stdout))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Experiments {
		p := e.Profile
		if p == nil || p.CPU == "" || filepath.Dir(p.CPU) != dir || p.Ops <= 0 {
			t.Fatalf("%s: profile %+v", e.Name, p)
		}
		if _, err := profiles.Read(p.CPU); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
		if e.Name == "concat/builder" && (p.Alloc == "" || p.AllocBytesPerOp <= 0) {
			t.Errorf("concat/builder allocates, but its profile has no allocations: %+v", p)
		}
		if e.Name == "sum/keep" && p.Alloc != "" {
			t.Errorf("sum/keep allocates nothing, but has an allocation profile %s", p.Alloc)
		}
	}
	if !strings.Contains(stderr, "profiles of the measured calls in "+dir) {
		t.Errorf("stderr %q does not say where the profiles are", stderr)
	}
	// 5 samples of 5ms hold a few profile samples at most.
	if !strings.Contains(stderr, "too few profile samples to read") {
		t.Errorf("stderr %q does not warn of the sparse profiles", stderr)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 3 {
		t.Errorf("%d files in the profile directory, want 3 (two CPU, one allocation)", len(files))
	}
}

// TestGotestAgainstProfile: both revisions profiled, the difference listed
// under the comparison and written as a profile, a function only the new
// revision calls listed with nothing on the old side.
func TestGotestAgainstProfile(t *testing.T) {
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
	if code != ExitOK && code != ExitCannotJudge {
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

// A --profile DIR that cannot be used is refused before anything is
// measured (exit 2, one line), on run and gotest: one under a file, and,
// as root, a link another user planted in a shared sticky directory.
func TestProfileDirRefusedBeforeMeasuring(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "f")
	os.WriteFile(file, nil, 0o644)
	dirs := []string{filepath.Join(file, "prof")}
	if os.Geteuid() == 0 {
		tmp := filepath.Join(base, "tmp") // like /tmp: root's, 1777
		os.Mkdir(tmp, 0o755)
		os.Chmod(tmp, os.ModeSticky|0o777)
		link := filepath.Join(tmp, "prof")
		os.Symlink(t.TempDir(), link)
		if err := os.Lchown(link, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, link)
	}
	for _, dir := range dirs {
		for _, args := range [][]string{
			{"run", "--bench", "^sum/keep$", "--samples", "3", "--sample-time", "1ms", "--window", "5ms", "--profile", dir},
			{"gotest", "--bench", "^BenchmarkNone$", "--profile", dir, "./nosuchpackage"},
		} {
			_, stderr, code := runBinary(t, args...)
			if code != ExitUsage || !strings.HasPrefix(stderr, "benchy: --profile "+dir+": ") || strings.Count(stderr, "\n") != 1 {
				t.Errorf("%s --profile %s: exit %d, %q; want exit 2 and one line naming --profile", args[0], dir, code, stderr)
			}
		}
	}
}

// --profile's directory is vetted by outfile.CheckDir alone, links and
// all: validate refuses a file, and, as root, a link to a file that
// another user planted in a shared sticky directory, with CheckDir's words
// (for the link, that it is not followed), as usage.
func TestProfileDirVettedByCheckDir(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "f")
	os.WriteFile(file, nil, 0o644)
	paths := map[string]string{file: "not a directory"}
	if os.Geteuid() == 0 {
		tmp := filepath.Join(base, "tmp") // like /tmp: root's, 1777
		os.Mkdir(tmp, 0o755)
		os.Chmod(tmp, os.ModeSticky|0o777)
		link := filepath.Join(tmp, "prof")
		os.Symlink(file, link)
		if err := os.Lchown(link, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		paths[link] = "protected_symlinks"
	}
	for path, want := range paths {
		err := (&profileOptions{Profile: path}).validate(false)
		_, checked := outfile.CheckDir("--profile", path)
		var ue *UsageError
		if !errors.As(err, &ue) || checked == nil || err.Error() != checked.Error() || !strings.Contains(err.Error(), want) {
			t.Errorf("--profile %s: %v; want usage, as outfile.CheckDir says it (%v), saying %q", path, err, checked, want)
		}
	}
}
