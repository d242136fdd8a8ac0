package cli

import (
	"errors"
	"os"
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
		"--sample-time", "5ms", "--warmup", "1ms", "--window", "10ms", "--format", "json", "--profile", dir)
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
	refused := func(cmd, dir, stderr string, code int) {
		t.Helper()
		if code != ExitUsage || !strings.HasPrefix(stderr, "benchy: --profile "+dir+": ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%s --profile %s: exit %d, %q; want exit 2 and one line naming --profile", cmd, dir, code, stderr)
		}
	}
	// run in process; gotest is benchy's own (toolcmd), which only the
	// binary has.
	for _, dir := range dirs {
		_, stderr, code := runMain("run", "--bench", "^sum/keep$", "--samples", "3", "--sample-time", "1ms", "--window", "5ms", "--profile", dir)
		refused("run", dir, stderr, code)
	}
	for _, dir := range dirs {
		_, stderr, code := runBinary(t, "gotest", "--bench", "^BenchmarkNone$", "--profile", dir, "./nosuchpackage")
		refused("gotest", dir, stderr, code)
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
		err := (&ProfileOptions{Profile: path}).Validate(false)
		_, checked := outfile.CheckDir("--profile", path)
		var ue *UsageError
		if !errors.As(err, &ue) || checked == nil || err.Error() != checked.Error() || !strings.Contains(err.Error(), want) {
			t.Errorf("--profile %s: %v; want usage, as outfile.CheckDir says it (%v), saying %q", path, err, checked, want)
		}
	}
}
