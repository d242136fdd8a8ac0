package benchy_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
)

// TestUserModule builds examples/mine as a user would: a module of its own
// whose go.mod replaces benchy with this checkout, registering two
// closures. Its run must list only them, catch the one whose result is
// discarded, leave the honest one alone, and keep every sample on the
// pinned CPU.
func TestUserModule(t *testing.T) {
	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skipf("pinning and the machine-code check need Linux on amd64 or arm64; this is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	bin := filepath.Join(t.TempDir(), "mine")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join("examples", "mine")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the user module: %v\n%s", err, out)
	}
	// small, the kernels the comparison defaults were measured with, must
	// keep building too.
	small := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "small"), "./small")
	small.Dir = build.Dir
	if out, err := small.CombinedOutput(); err != nil {
		t.Fatalf("build examples/mine/small: %v\n%s", err, out)
	}

	// It links what it uses: none of benchy's own commands (gotest,
	// bisect, history), no SQL store, no SQL and no store driver (it
	// imports no store package).
	nm, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	for _, l := range strings.Split(string(nm), "\n") {
		f := strings.Fields(l)
		if len(f) < 3 {
			continue
		}
		sym := f[len(f)-1]
		for _, p := range []string{"github.com/benchy-dev/benchy/internal/cli.newGotestCmd", "github.com/benchy-dev/benchy/internal/cli.newBisectCmd",
			"github.com/benchy-dev/benchy/internal/cli.newHistoryCmd", "github.com/benchy-dev/benchy/internal/history/sqlstore.", "database/sql.Open", "github.com/jackc/", "modernc.org/"} {
			if strings.HasPrefix(sym, p) {
				t.Errorf("the user's program links %s", sym)
			}
		}
	}

	list, err := exec.Command(bin, "list").Output()
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if !strings.Contains(string(list), "mine/sum ") || !strings.Contains(string(list), "mine/sum-discarded") || strings.Contains(string(list), "sum/sink") {
		t.Errorf("list:\n%s\nwant the program's two experiments and no built-in", list)
	}

	// A program that imports no store package links no driver: asked for
	// a store, it names the package to import, in one line, exit 2.
	store := exec.Command(bin, "run", "--store", filepath.Join(t.TempDir(), "h.db"))
	store.Dir = build.Dir
	out, err := store.CombinedOutput()
	if code := exitCode(err); code != 2 || strings.Count(string(out), "\n") != 1 || !strings.Contains(string(out), `import _ "github.com/benchy-dev/benchy/store/sqlite"`) {
		t.Errorf("run --store without a driver: exit %d, output:\n%s\nwant exit 2 and one line naming store/sqlite", code, out)
	}

	// exec starts its runs from the program re-executed as the spawner
	// helper (the public package serves it in its init), not from the
	// program itself, whose own memory would be every run's floor.
	var execErr bytes.Buffer
	ex := exec.Command(bin, "exec", "--runs", "3", "--format", "json", "true")
	ex.Stderr = &execErr
	if err := ex.Run(); err != nil {
		t.Fatalf("exec: %v\n%s", err, execErr.String())
	}
	if strings.Contains(execErr.String(), "spawner did not start") {
		t.Errorf("exec from a user's program fell back:\n%s", execErr.String())
	}

	var stdout, stderr bytes.Buffer
	run := exec.Command(bin, "run", "--format", "json", "--samples", "5", "--sample-time", "1ms", "--window", "10ms")
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	r, err := result.Decode(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Experiments) != 2 {
		t.Fatalf("%d experiments in the result, want 2", len(r.Experiments))
	}
	for _, e := range r.Experiments {
		discarded := e.Name == "mine/sum-discarded"
		if got := finding.Has(e.Findings, "no-load-in-loop"); got != discarded {
			t.Errorf("%s: no-load-in-loop %v, want %v (findings %v)", e.Name, got, discarded, e.Findings)
		}
		if len(e.Samples) != 5 {
			t.Errorf("%s: %d samples, want 5", e.Name, len(e.Samples))
		}
		for i, s := range e.Samples {
			if s.CPU != r.CPUOf(e) { // the run's CPU, or the one it moved to
				t.Errorf("%s sample %d on cpu %d, pinned to %d", e.Name, i, s.CPU, r.CPUOf(e))
			}
		}
	}
}

// exitCode is the exit status err reports: 0 for nil, -1 when the program
// did not exit (it could not start, or a signal ended it).
func exitCode(err error) int {
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	return -1
}
