//go:build linux

package toolcmd

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/benchy-dev/benchy/internal/counters"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
	"github.com/benchy-dev/benchy/internal/render"
	"github.com/benchy-dev/benchy/internal/result"
)

// A benchmark pinned to its CPU runs at GOMAXPROCS 1, as taskset -c CPU go
// test runs it; one that runs b.RunParallel at the machine's; --gomaxprocs
// sets both. What the test binary saw (its own runtime.GOMAXPROCS, as a
// metric) is what the result records and the header says.
func TestGotestGOMAXPROCS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	t.Parallel()
	machine := runtime.GOMAXPROCS(0)
	for _, tt := range []struct {
		name     string
		args     []string
		seq, par int
	}{
		{"default", nil, 1, machine},
		{"--gomaxprocs 2", []string{"--gomaxprocs", "2"}, 2, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var r *result.Result
			var stderr string
			var code int
			if tt.args == nil {
				r, stderr, code = maxprocsRun.get(t, "./maxprocs")
			} else {
				r, stderr, code = gotestJSON(t, gotestData, append([]string{"./maxprocs"}, tt.args...)...)
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if r.GOMAXPROCS != tt.seq {
				t.Errorf("the result's GOMAXPROCS is %d, want %d", r.GOMAXPROCS, tt.seq)
			}
			for name, want := range map[string]int{"Seq": tt.seq, "Par": tt.par} {
				e := r.Find(name)
				if e == nil {
					t.Fatalf("no experiment %s", name)
				}
				if e.GOMAXPROCS != want {
					t.Errorf("%s: recorded GOMAXPROCS %d, want %d", name, e.GOMAXPROCS, want)
				}
				if len(e.Samples) == 0 {
					t.Fatalf("%s: no samples: %s", name, e.Error)
				}
				for i, s := range e.Samples {
					if got := s.Metrics["gomaxprocs"]; got != float64(want) {
						t.Errorf("%s, sample %d: the test binary ran at GOMAXPROCS %v, want %d", name, i, got, want)
					}
				}
			}
			// The header of the text gotest writes: the same writer, of
			// the same result, without measuring again.
			var text strings.Builder
			if err := render.Write(&text, r, "text"); err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("GOMAXPROCS %d,", tt.seq)
			if tt.par != tt.seq {
				want = fmt.Sprintf("GOMAXPROCS %d (%d for b.RunParallel),", tt.seq, tt.par)
			}
			if !strings.Contains(text.String(), want) {
				t.Errorf("the header does not say %q:\n%s", want, text.String())
			}
		})
	}
}

// The GOMAXPROCS of a benchmark that runs b.RunParallel is in its
// not-pinned finding.
func TestGotestParallelFinding(t *testing.T) {
	t.Parallel()
	r, stderr, code := maxprocsRun.get(t, "./maxprocs")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	e := r.Find("Par")
	if e == nil {
		t.Fatal("no experiment Par")
	}
	for _, f := range e.Findings {
		if f.Code == result.CodeNotPinned {
			if want := fmt.Sprintf("at GOMAXPROCS %d", runtime.GOMAXPROCS(0)); !strings.Contains(f.Message, want) {
				t.Errorf("not-pinned says %q, want %q in it", f.Message, want)
			}
			return
		}
	}
	t.Errorf("Par: no not-pinned finding: %v", codes(*e))
}

// The busy window runs while the test binary builds, with benchy's own
// CPU time (its threads, go and the compilers) counted per CPU and taken
// out of it, where perf lets benchy count it; else after the build, as a
// window of its own. Tens of milliseconds at least are the build's: a
// window read after it holds a few of benchy's own.
func TestGotestWindowDuringBuild(t *testing.T) {
	t.Parallel()
	r, stderr, code := maxprocsRun.get(t, "./maxprocs")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if r.Before == nil || !r.Before.Busy.Known() {
		t.Fatalf("no busy window: %+v", r.Before)
	}
	cpus, _ := sysread.AllowedCPUs().Get()
	p, err := counters.OpenPerCPU([]int{unix.Gettid()}, cpus)
	if err != nil {
		if r.Before.BusyOwn != 0 {
			t.Errorf("per-CPU counters are refused here (%v), yet %v of benchy's own work was taken out", err, r.Before.BusyOwn)
		}
		t.Skipf("per-CPU counters refused here: %v", err)
	}
	p.Close()
	if r.Before.BusyNote != "" {
		t.Skipf("the window was read after the build: %s", r.Before.BusyNote)
	}
	if r.Before.BusyOwn < 50*time.Millisecond {
		t.Errorf("the window ran during the build, but only %v of benchy's own work was taken out of it", r.Before.BusyOwn)
	}
	// What gotest -v writes of it: the same writer, of the same result.
	var text strings.Builder
	if err := render.WriteWith(&text, r, "text", render.Options{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "of CPU left out):") && !strings.Contains(text.String(), "(read after the build: ") {
		t.Errorf("-v says neither how much of benchy's own work was left out of the busy window nor why it was not:\n%s", text.String())
	}
}
