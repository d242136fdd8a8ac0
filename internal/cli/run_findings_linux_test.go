package cli

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// TestRunSeesABusyCPU keeps the measured CPU busy with another process,
// pinned there for a bounded time, and expects benchy to say so.
func TestRunSeesABusyCPU(t *testing.T) {
	if onlyInProcess() {
		t.Skip("runs a busy loop for a few seconds")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hog := exec.CommandContext(ctx, "sh", "-c", "while :; do :; done")
	if err := hog.Start(); err != nil {
		t.Skipf("cannot start a busy loop: %v", err)
	}
	defer func() { cancel(); hog.Wait() }()
	var set unix.CPUSet
	set.Set(0)
	if err := unix.SchedSetaffinity(hog.Process.Pid, &set); err != nil {
		t.Fatalf("pin the busy loop to cpu 0: %v", err)
	}
	r, _ := runJSON(t, "--cpu", "0", "--bench", "^sum/sink$", "--samples", "20", "--sample-time", "5ms", "--window", "600ms")
	e := experiment(t, r, "sum/sink")
	env := r.Environment
	if !finding.Has(e.Findings, "disturbed") && !finding.Has(env, "cpu-busy") {
		t.Errorf("busy cpu 0: findings %v, environment %v; want disturbed or cpu-busy", e.Findings, env)
	}
	if e.Verdict == result.VerdictBelievable {
		t.Errorf("busy cpu 0: verdict %q, want doubtful", e.Verdict)
	}
}
