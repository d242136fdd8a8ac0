package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
