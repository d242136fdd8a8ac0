package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/result"
)

// A lock file benchy cannot use (here a FIFO, which once blocked open for
// good) neither hangs a run nor turns the CPU lock off without a word:
// the run measures, and the result says the CPU may be shared and why.
func TestRunWithAnUnusableLock(t *testing.T) {
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		t.Skip("no affinity mask:", err)
	}
	first := -1
	tmp := t.TempDir()
	locks := filepath.Join(tmp, "benchy-"+strconv.Itoa(os.Getuid()))
	if err := os.Mkdir(locks, 0o700); err != nil {
		t.Fatal(err)
	}
	for cpu := range 1024 {
		if !allowed.IsSet(cpu) {
			continue
		}
		if first < 0 {
			first = cpu
		}
		if err := unix.Mkfifo(filepath.Join(locks, fmt.Sprintf("cpu%d.lock", cpu)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name, cpu := range map[string][]string{"chosen": nil, "--cpu": {"--cpu", strconv.Itoa(first)}} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			args := append([]string{"run", "--bench", "^sum/sink$", "--smoke", "--no-asm", "--format", "json"}, cpu...)
			cmd := exec.CommandContext(ctx, benchyBinary(t), args...)
			cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "XDG_RUNTIME_DIR=")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if ctx.Err() != nil {
				t.Fatalf("benchy run blocked on a FIFO lock file: %s", stderr.String())
			}
			if err != nil {
				t.Fatalf("benchy run: %v: %s", err, stderr.String())
			}
			r, err := result.Decode(&stdout)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(r.SharedCPU, fmt.Sprintf("no lock on cpu%d", r.CPU)) || !strings.Contains(r.SharedCPU, "not a regular file") {
				t.Errorf("shared_cpu %q; want it to say the lock of cpu%d could not be taken", r.SharedCPU, r.CPU)
			}
			found := false
			for _, f := range r.Environment {
				found = found || f.Code == result.CodeCPUShared && f.Message == r.SharedCPU
			}
			if !found {
				t.Errorf("no %s finding in %v", result.CodeCPUShared, r.Environment)
			}
		})
	}
}
