package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
)

// --samples is the total over the processes: every sample is taken once.
func TestProcessShare(t *testing.T) {
	for _, tt := range []struct{ samples, processes int }{{31, 1}, {31, 3}, {30, 3}, {5, 5}, {100000, 7}} {
		total, lo, hi := 0, tt.samples, 0
		for k := range tt.processes {
			n := processShare(tt.samples, tt.processes, k)
			total, lo, hi = total+n, min(lo, n), max(hi, n)
		}
		if total != tt.samples || hi-lo > 1 {
			t.Errorf("%d samples over %d processes: %d in all, from %d to %d each", tt.samples, tt.processes, total, lo, hi)
		}
	}
}

// The processes of these tests are this test binary, acting as one
// process of benchy: it reads its spec, and writes a result of as many
// samples as the spec gives it, on the spec's CPU (or cpu 1, "chosen"), or
// fails as BENCHY_TEST_FAIL says.
func TestMain(m *testing.M) {
	if spec := os.Getenv("BENCHY_TEST_CHILD"); spec != "" {
		os.Exit(fakeProcess(spec))
	}
	os.Exit(m.Run())
}

func fakeProcess(path string) int {
	spec, err := ReadChildSpec(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchy:", err)
		return 2
	}
	if fail := os.Getenv("BENCHY_TEST_FAIL"); fail != "" && spec.Plan.CPUSet {
		fmt.Fprintln(os.Stderr, "benchy: "+fail)
		return 1 // every process after the first
	}
	r := &result.Result{Schema: result.SchemaVersion, Tool: "benchy test", Settings: spec.Plan.Settings, CPU: 1, CPUChoice: "least busy"}
	if spec.Plan.CPUSet {
		r.CPU, r.CPUChoice = spec.Plan.CPU, spec.Plan.CPUWhy
	}
	cpu := r.CPU
	if !spec.Plan.StayOnCPU {
		cpu = r.CPU + 1 // as a process whose re-measure moved it would
	}
	for _, name := range spec.Experiments {
		e := result.Experiment{Name: name}
		for range spec.Plan.Settings.Samples {
			e.Samples = append(e.Samples, result.Sample{Iters: 10, Ns: 1000, CPU: cpu})
		}
		r.Experiments = append(r.Experiments, e)
	}
	f, err := os.Create(spec.Out)
	if err == nil {
		err = result.Encode(f, r)
		f.Close()
	}
	if err != nil {
		return 1
	}
	return 0
}

func fakeProcesses(t *testing.T, k int, fail string) Processes {
	t.Setenv("BENCHY_TEST_FAIL", fail)
	return Processes{K: k, Command: func(spec string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "BENCHY_TEST_CHILD="+spec)
		return cmd
	}}
}

// Three processes: --samples spread over them, each sample marked with
// its process, the CPU the first chose kept by the others and said so,
// and by every process's re-measures (StayOnCPU).
func TestRunProcessesMerges(t *testing.T) {
	plan := Plan{Settings: result.Settings{Samples: 10}, CPU: -1}
	r, err := RunProcesses(context.Background(), plan, []string{"a", "a#2"}, fakeProcesses(t, 3, ""))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Experiments) != 2 || r.Experiments[1].Name != "a#2" || r.Settings.Samples != 10 || r.Interrupted {
		t.Fatalf("experiments %d, samples %d, interrupted %v", len(r.Experiments), r.Settings.Samples, r.Interrupted)
	}
	var procs []int
	for _, s := range r.Experiments[0].Samples {
		procs = append(procs, s.Process)
		if s.CPU != r.CPU {
			t.Errorf("process %d's sample on cpu%d, the run on cpu%d", s.Process, s.CPU, r.CPU)
		}
	}
	if want := []int{0, 0, 0, 0, 1, 1, 1, 2, 2, 2}; !slices.Equal(procs, want) {
		t.Errorf("processes of the samples %v, want %v", procs, want)
	}
	if r.CPU != 1 || r.CPUChoice != "least busy" {
		t.Errorf("cpu%d (%s), want the first process's: cpu1, least busy", r.CPU, r.CPUChoice)
	}
}

// A process that fails ends the run: what finished is kept, every
// experiment says which process failed, and the error says how.
func TestRunProcessesKeepsWhatFinishedBeforeAFailure(t *testing.T) {
	plan := Plan{Settings: result.Settings{Samples: 6}, CPU: -1}
	r, err := RunProcesses(context.Background(), plan, []string{"a"}, fakeProcesses(t, 3, "out of luck"))
	var pe *ProcessError
	if !errors.As(err, &pe) || pe.Kept != 1 || pe.Usage || !strings.Contains(pe.Msg, "process 2 of 3 failed (exit 1): out of luck") {
		t.Fatalf("error %v, want process 2 of 3 failed, 1 kept", err)
	}
	if r == nil || !r.Interrupted || len(r.Experiments[0].Samples) != 2 || !strings.Contains(r.Experiments[0].Error, "process 2 of 3") {
		t.Fatalf("result %+v: want the first process's 2 samples, interrupted, the failure named", r)
	}
}

// With --latency the calls of every process are one histogram (open loop
// too), and the first process's result is left as it was.
func TestMergeProcessesLatency(t *testing.T) {
	proc := func(times ...int64) *result.Result {
		h, open := latency.New(), latency.New()
		for _, v := range times {
			h.Record(v)
			open.Record(2 * v)
		}
		l := &result.Latency{Windows: []result.LatencyWindow{{Calls: uint64(len(times))}}, Rate: &result.LatencyRate{PerSecond: 1000, Achieved: 1000}}
		h.Store(l)
		open.Store(&l.Rate.Open)
		return &result.Result{Experiments: []result.Experiment{{Name: "tail/stall", Samples: []result.Sample{{Iters: int64(len(times))}}, Latency: l}}}
	}
	rs := []*result.Result{proc(1000, 2000), proc(3000), proc(4000, 5000, 6000)}
	m := mergeProcesses(rs)
	l := m.Experiments[0].Latency
	if l.Calls != 6 || l.MinNs != 1000 || l.MaxNs != 6000 || len(l.Windows) != 3 || l.Rate.Open.Calls != 6 || l.Rate.Open.MaxNs != 12000 {
		t.Errorf("merged: %d calls in %d windows, %d..%d ns, open %d calls to %d ns: want the 6 calls of the 3 processes",
			l.Calls, len(l.Windows), l.MinNs, l.MaxNs, l.Rate.Open.Calls, l.Rate.Open.MaxNs)
	}
	if first := rs[0].Experiments[0].Latency; first.Calls != 2 || len(first.Windows) != 1 || first.Rate.Open.Calls != 2 {
		t.Errorf("the first process's latency changed: %d calls, %d windows, open %d", first.Calls, len(first.Windows), first.Rate.Open.Calls)
	}
}
