package cli

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/fit"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

const machinesDir = "../../testdata/machines"

// TestMachineGolden runs `benchy machine` on every fixture machine, with a
// fixed time and Go runtime, in text and JSON.
func TestMachineGolden(t *testing.T) {
	// vm-short's two reads of /proc/stat are one tick apart, as in a 5 ms
	// window, and it has no proc/self/cgroup.
	window := map[string]time.Duration{"vm-short": 5 * time.Millisecond}
	for _, m := range []string{"laptop-hybrid", "server-2socket", "vm", "arm-biglittle", "amd-desktop", "vm-short"} {
		for _, format := range []string{"text", "json"} {
			t.Run(m+"/"+format, func(t *testing.T) {
				opts := &machineOptions{
					Root: filepath.Join(machinesDir, m), CPU: -1, Window: cmp.Or(window[m], time.Second), Format: format,
					Now:     func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
					Runtime: &machine.Runtime{GoVersion: "go1.26.0", GOOS: "linux", GOARCH: "amd64", GOMAXPROCS: 4, NumCPU: 4},
				}
				var out bytes.Buffer
				if err := machineRun(opts, &out); err != nil {
					t.Fatal(err)
				}
				if format == "json" {
					var r render.MachineReport
					if err := json.Unmarshal(out.Bytes(), &r); err != nil {
						t.Fatalf("output is not a machine report: %v", err)
					}
					if r.Machine == nil || len(r.Machine.CPUs) == 0 || r.CPUChoice == "" || r.Findings == nil {
						t.Errorf("report misses parts: cpu %d, choice %q, findings %v", r.CPU, r.CPUChoice, r.Findings)
					}
				}
				ext := map[string]string{"text": ".txt", "json": ".json"}[format]
				resulttest.CheckFile(t, filepath.Join(machinesDir, m+ext), out.Bytes())
			})
		}
	}
}

// TestMachineCommand runs the real command for exit codes and messages.
func TestMachineCommand(t *testing.T) {
	vm := filepath.Join(machinesDir, "vm")
	vmShort := filepath.Join(machinesDir, "vm-short")
	notMachine := t.TempDir()
	tests := []struct {
		name      string
		args      []string
		code      int
		stderr    string // exact, "" for none
		stdout    string // a substring of stdout
		notStdout string // not in stdout, "" for no such check
	}{
		{"text", []string{"machine", "--sysroot", vm}, ExitOK, "", "cpu1: governor unknown", ""},
		{"chosen cpu", []string{"machine", "--sysroot", vm, "--cpu", "0"}, ExitOK, "", "cpu0 chosen: --cpu 0", ""},
		{"json", []string{"machine", "--sysroot", vm, "--format", "json"}, ExitOK, "", `"cpu_choice": "not cpu0`, ""},
		{"cpu out of range", []string{"machine", "--sysroot", vm, "--cpu", "7"}, ExitUsage,
			"benchy: cpu 7 is not available: online 0-1, allowed to this process 0-1\n", "", ""},
		{"cpu not allowed", []string{"machine", "--sysroot", filepath.Join(machinesDir, "server-2socket"), "--cpu", "40"}, ExitUsage,
			"benchy: cpu 40 is not available: online 0-31, allowed to this process 0-1,4-17,20-31, isolated 2-3,18-19\n", "", ""},
		{"negative cpu", []string{"machine", "--sysroot", vm, "--cpu", "-2"}, ExitUsage,
			"benchy: --cpu -2: must be a CPU number (0 or more)\n", "", ""},
		{"cpu not a number", []string{"machine", "--sysroot", vm, "--cpu", "two"}, ExitUsage, "", "", ""},
		{"window 0", []string{"machine", "--sysroot", vm, "--window", "0s"}, ExitUsage,
			"benchy: --window 0s: must be more than 0 and at most 1m0s\n", "", ""},
		{"window too long", []string{"machine", "--sysroot", vm, "--window", "61s"}, ExitUsage,
			"benchy: --window 1m1s: must be more than 0 and at most 1m0s\n", "", ""},
		{"window negative", []string{"machine", "--sysroot", vm, "--window", "-1s"}, ExitUsage,
			"benchy: --window -1s: must be more than 0 and at most 1m0s\n", "", ""},
		{"window garbage", []string{"machine", "--sysroot", vm, "--window", "soon"}, ExitUsage, "", "", ""},
		{"format", []string{"machine", "--sysroot", vm, "--format", "yaml"}, ExitUsage,
			"benchy: --format \"yaml\": valid formats are text, json\n", "", ""},
		{"argument", []string{"machine", "--sysroot", vm, "extra"}, ExitUsage, "benchy: machine takes no arguments, got \"extra\"\n", "", ""},
		{"sysroot missing", []string{"machine", "--sysroot", filepath.Join(machinesDir, "no-such-machine")}, ExitUsage, "", "", ""},
		{"plain strict: errors only, as on every command", []string{"machine", "--sysroot", vm, "--strict"}, ExitOK, "", "warn  steal", ""},
		{"strict warn with a space", []string{"machine", "--sysroot", vm, "--strict", "warn"}, ExitStrict, "", "warn  steal", ""},
		{"strict, info only", []string{"machine", "--sysroot", filepath.Join(machinesDir, "server-2socket"), "--strict", "--cpu", "0"}, ExitOK, "", "info  cpu0", ""},
		{"strict, clean server", []string{"machine", "--sysroot", filepath.Join(machinesDir, "server-2socket"), "--strict"}, ExitOK, "", "findings for cpu2: none", ""},
		{"strict json", []string{"machine", "--sysroot", filepath.Join(machinesDir, "laptop-hybrid"), "--strict=warn", "--format", "json"}, ExitStrict, "", `"code": "governor"`, ""},
		{"strict=warn", []string{"machine", "--sysroot", vm, "--strict=warn"}, ExitStrict, "", "warn  steal", ""},
		{"strict=error, warnings only", []string{"machine", "--sysroot", vm, "--strict=error"}, ExitOK, "", "warn  steal", ""},
		{"strict bogus", []string{"machine", "--sysroot", vm, "--strict=bogus"}, ExitUsage,
			"benchy: --strict bogus: valid values are error (the default) and warn\n", "", ""},
		{"strict=true", []string{"machine", "--sysroot", vm, "--strict=true"}, ExitUsage,
			"benchy: --strict true: valid values are error (the default) and warn\n", "", ""},
		{"not a machine tree", []string{"--sysroot", notMachine, "machine"}, ExitUsage,
			"benchy: --sysroot " + notMachine + " is not the /proc and /sys of a machine: it has neither proc/stat nor sys/devices/system/cpu\n", "", ""},
		{"one tick is not judged", []string{"machine", "--sysroot", vmShort, "--window", "5ms", "--cpu", "0", "--strict"}, ExitOK, "",
			"cpu0 ~100%  cpu1     ?\n~ cpu0: 1 tick, fewer than the 50 (500ms) it takes to judge busy\n", "warn  cpu-busy"},
		{"one tick, no busy-unknown warning", []string{"machine", "--sysroot", vmShort, "--window", "5ms"}, ExitOK, "",
			"info  busy-unknown: busy over 5ms cannot be judged for cpu1 (unknown: no tick between the two reads of /proc/stat); judging takes at least 50 ticks", "warn  "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := testMain(tt.args, &out, &errb)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tt.code, errb.String())
			}
			if tt.code == ExitUsage {
				if lines := strings.Count(errb.String(), "\n"); lines != 1 || !strings.HasPrefix(errb.String(), "benchy: ") {
					t.Errorf("usage error is not one line: %q", errb.String())
				}
			}
			if tt.stderr != "" && errb.String() != tt.stderr {
				t.Errorf("stderr %q, want %q", errb.String(), tt.stderr)
			}
			if tt.code == ExitStrict && (strings.Count(errb.String(), "\n") != 1 || !strings.HasPrefix(errb.String(), "benchy: --strict=")) {
				t.Errorf("strict exit: stderr %q, want one line naming the findings", errb.String())
			}
			// Long lines wrap at 80 columns: compare the words.
			flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
			if !strings.Contains(flat(out.String()), flat(tt.stdout)) {
				t.Errorf("stdout misses %q:\n%s", tt.stdout, out.String())
			}
			if tt.notStdout != "" && strings.Contains(out.String(), tt.notStdout) {
				t.Errorf("stdout has %q:\n%s", tt.notStdout, out.String())
			}
		})
	}
}

// TestMachineLive reads this machine (Live) with a short window: the header
// must name a CPU this process may use.
func TestMachineLive(t *testing.T) {
	if _, err := os.Stat("/proc/stat"); err != nil {
		t.Skip("no /proc")
	}
	var out, errb bytes.Buffer
	if code := testMain([]string{"machine", "--sysroot", "/", "--window", "50ms", "--format", "json"}, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r render.MachineReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Machine.Live || r.Machine.AllowedFrom != "sched_getaffinity" {
		t.Errorf("live read not live: live %v, allowed from %q", r.Machine.Live, r.Machine.AllowedFrom)
	}
	if err := fit.ValidateCPU(r.Machine, r.CPU); err != nil {
		t.Errorf("chosen cpu %d: %v", r.CPU, err)
	}
}

// Trees that once hung or exited 1: a FIFO where a file should be is not
// opened (it would block until a writer came), a garbage online list is
// bad input (exit 2), and a host's /proc mounted elsewhere, without a
// second read of proc/stat in it, has its busy measured by reading
// proc/stat twice.
func TestMachineTreesThatAreNotFixtures(t *testing.T) {
	tree := func(t *testing.T) string {
		dir := t.TempDir()
		for _, d := range []string{"proc", "sys/devices/system/cpu/cpu0"} {
			if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	t.Run("fifo", func(t *testing.T) {
		dir := tree(t)
		os.WriteFile(filepath.Join(dir, "sys/devices/system/cpu/online"), []byte("0\n"), 0o644)
		if err := syscall.Mkfifo(filepath.Join(dir, "proc/stat"), 0o644); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		done := make(chan int, 1)
		var out, errb bytes.Buffer
		go func() { done <- testMain([]string{"machine", "--sysroot", dir, "--window", "50ms"}, &out, &errb) }()
		select {
		case code := <-done:
			if code != ExitOK || !strings.Contains(out.String(), "not a regular file") {
				t.Errorf("exit %d\n%s%s", code, out.String(), errb.String())
			}
		case <-time.After(10 * time.Second):
			t.Fatal("benchy machine hung on a FIFO in the tree")
		}
	})
	t.Run("garbage online list", func(t *testing.T) {
		dir := tree(t)
		os.WriteFile(filepath.Join(dir, "proc/stat"), []byte("cpu  1 0 1 100 0 0 0 0 0 0\ncpu0 1 0 1 100 0 0 0 0 0 0\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "sys/devices/system/cpu/online"), []byte("zero-one\n"), 0o644)
		var out, errb bytes.Buffer
		if code := testMain([]string{"machine", "--sysroot", dir, "--window", "10ms"}, &out, &errb); code != ExitUsage || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("exit %d, stderr %q; want 2 and one line", code, errb.String())
		}
	})
	t.Run("mounted live root", func(t *testing.T) {
		dir := tree(t)
		os.WriteFile(filepath.Join(dir, "sys/devices/system/cpu/online"), []byte("0\n"), 0o644)
		if err := os.Symlink("/proc/stat", filepath.Join(dir, "proc/stat")); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code := testMain([]string{"machine", "--sysroot", dir, "--window", "600ms", "--format", "json", "--cpu", "0"}, &out, &errb)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var m struct {
			Machine struct {
				BusyWindowNs int64 `json:"busy_window_ns"`
			} `json:"machine"`
		}
		if err := json.Unmarshal(out.Bytes(), &m); err != nil || m.Machine.BusyWindowNs < int64(500*time.Millisecond) {
			t.Errorf("busy window %v (%v): want proc/stat read twice, 600ms apart", time.Duration(m.Machine.BusyWindowNs), err)
		}
	})
}
