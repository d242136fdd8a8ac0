package pipeline

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/harness"
	"github.com/benchy-dev/benchy/internal/machine"
	"github.com/benchy-dev/benchy/internal/machine/fit"
	"github.com/benchy-dev/benchy/internal/machine/sysread"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/targets/fake"
)

// fakeTarget is the fake harness target as the pipeline sees one.
type fakeTarget struct{ *fake.Target }

func (f fakeTarget) Info() result.Info {
	return result.Info{Name: f.ID, Description: "takes no time", Units: 1, Unit: "op"}
}
func (f fakeTarget) Counters() result.CounterReport { return result.CounterReport{} }
func (f fakeTarget) Check() []finding.Finding {
	return []finding.Finding{{Code: result.CodeAsm, Severity: finding.Info, Message: "checked " + f.ID}}
}

func quickPlan() Plan {
	return Plan{
		Settings: result.Settings{Samples: 5, Warmup: time.Millisecond, SampleTime: time.Millisecond,
			Window: 10 * time.Millisecond, Isolate: true},
		Tool: "benchy test", Command: []string{"benchy", "test"},
	}
}

// Run reads the machine, claims a CPU, measures every target pinned there
// and analyses the result: every sample on the chosen CPU, the code
// checked, the settings and the machine recorded.
func TestRunMeasuresTargets(t *testing.T) {
	if !harness.CanPin {
		t.Skip("pinning needs Linux")
	}
	a, b := fake.New("a", 100*time.Nanosecond), fake.New("b", 200*time.Nanosecond)
	r, err := Run(context.Background(), quickPlan(), []Target{fakeTarget{a}, fakeTarget{b}})
	if err != nil {
		t.Fatal(err)
	}
	if r.CPUChoice == "" || r.Before == nil || r.After == nil || r.Summary == nil || r.Interrupted {
		t.Errorf("cpu %d (%q), before %v, after %v, summary %v, interrupted %v", r.CPU, r.CPUChoice, r.Before != nil, r.After != nil, r.Summary, r.Interrupted)
	}
	if len(r.Experiments) != 2 {
		t.Fatalf("%d experiments, want 2", len(r.Experiments))
	}
	for i, e := range r.Experiments {
		if e.Name != []string{"a", "b"}[i] || len(e.Samples) != 5 || e.Verdict == "" || !finding.Has(e.Findings, result.CodeAsm) {
			t.Errorf("experiment %d: %s, %d samples, verdict %q, findings %v", i, e.Name, len(e.Samples), e.Verdict, e.Findings)
		}
		for _, s := range e.Samples {
			if s.CPU != r.CPU {
				t.Errorf("%s: a sample on cpu%d, pinned to cpu%d", e.Name, s.CPU, r.CPU)
			}
		}
	}
	if r.GOMAXPROCS != runtime.GOMAXPROCS(0) || r.Settings.Samples != 5 {
		t.Errorf("gomaxprocs %d, settings %+v", r.GOMAXPROCS, r.Settings)
	}
}

// The busy window times the reference loop on every CPU the run may use,
// whichever CPU is chosen (or named with --cpu), and the chosen CPU is
// one of them. What the speeds are depends on the machine: only that each
// is measured or says why not.
func TestRunProbesEveryCPU(t *testing.T) {
	if !harness.CanPin {
		t.Skip("pinning needs Linux")
	}
	for _, named := range []bool{false, true} {
		onEveryCPU(t) // cpu 0 may be named whichever CPU an earlier run isolated, the one before included
		plan := quickPlan()
		plan.CPU, plan.CPUSet = 0, named
		r, err := Run(context.Background(), plan, []Target{fakeTarget{fake.New("a", 100*time.Nanosecond)}})
		if err != nil {
			t.Fatal(err)
		}
		avail, err := r.Before.Available()
		if err != nil {
			t.Fatal(err)
		}
		var probed machine.CPUList
		for _, sp := range r.Before.Speed {
			probed = append(probed, sp.CPU)
			if v, ok := sp.RefNs.Get(); ok && !(v > 0 && len(sp.RepeatsNs) > 0) || !ok && sp.RefNs.Reason == "" {
				t.Errorf("--cpu %v: cpu%d probe %+v: want a time per iteration and its repeats, or why not", named, sp.CPU, sp)
			}
		}
		if !slices.Equal(probed, avail) || !avail.Has(r.CPU) {
			t.Errorf("--cpu %v: probed %v, available %v, chosen cpu%d", named, probed, avail, r.CPU)
		}
	}
}

// A CPU named with --cpu is used and said so; one that does not exist is
// bad usage, refused before anything runs; no-check plans skip the code.
func TestRunCPUChoice(t *testing.T) {
	if !harness.CanPin {
		t.Skip("pinning needs Linux")
	}
	onEveryCPU(t) // the CPU it runs on may be one an earlier run isolated
	cpu, _ := harness.CurrentCPU()
	a := fake.New("a", 100*time.Nanosecond)
	plan := quickPlan()
	plan.CPU, plan.CPUSet, plan.NoCheck = cpu, true, true
	r, err := Run(context.Background(), plan, []Target{fakeTarget{a}})
	if err != nil {
		t.Fatal(err)
	}
	if r.CPU != cpu || r.CPUChoice == "" || finding.Has(r.Experiments[0].Findings, result.CodeAsm) {
		t.Errorf("cpu %d (%q), want %d; findings %v", r.CPU, r.CPUChoice, cpu, r.Experiments[0].Findings)
	}
	plan.CPU = 4096
	b := fake.New("b", time.Nanosecond)
	if _, err := Run(context.Background(), plan, []Target{fakeTarget{b}}); !errors.Is(err, ErrUsage) || len(b.Calls) != 0 {
		t.Errorf("--cpu 4096: %v, calls %v; want a usage error before any call", err, b.Calls)
	}
}

// A stop before the busy window ends means nothing was measured.
func TestRunStoppedBeforeMeasuring(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	stop()
	plan := quickPlan()
	a := fake.New("a", time.Nanosecond)
	if _, err := Run(ctx, plan, []Target{fakeTarget{a}}); !errors.Is(err, context.Canceled) || len(a.Calls) != 0 {
		t.Errorf("stopped: %v, calls %v", err, a.Calls)
	}
}

// pickCPU takes the CPU the plan names when the machine has it, and
// otherwise lets the machine choose, with its reason.
func TestPickCPU(t *testing.T) {
	if !harness.CanPin {
		t.Skip("pinning needs Linux")
	}
	s, err := sysread.Read(context.Background(), filepath.Join("..", "..", "testdata", "machines", "amd-desktop"), sysread.ReadOptions{Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	best, why, err := fit.ChooseCPU(s)
	if err != nil {
		t.Fatal(err)
	}
	if cpu, got, err := pickCPU(s, Plan{}); err != nil || cpu != best || got != why {
		t.Errorf("no --cpu: cpu%d (%q, %v), want the machine's choice cpu%d (%q)", cpu, got, err, best, why)
	}
	if cpu, got, err := pickCPU(s, Plan{CPU: 3, CPUSet: true}); err != nil || cpu != 3 || got != "--cpu 3" {
		t.Errorf("--cpu 3: cpu%d (%q, %v)", cpu, got, err)
	}
	// A usage error is one by its type; its message is the complaint
	// alone, the line the command prints.
	if _, _, err := pickCPU(s, Plan{CPU: 999, CPUSet: true}); !errors.Is(err, ErrUsage) || !strings.HasPrefix(err.Error(), "cpu 999 is not available") {
		t.Errorf("--cpu 999: %v, want a usage error that starts with the complaint", err)
	}
}
