package compare

import (
	"math"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

func TestBasis(t *testing.T) {
	clean := &result.Experiment{Samples: resulttest.OnCPU([]float64{100, 100}, []float64{100, 100}), Clock: &result.EffectiveClock{BeforeHz: 3e9, AfterHz: 3e9}}
	noOnCPU := &result.Experiment{Samples: []result.Sample{{Iters: 1000, Ns: 100000}, {Iters: 1000, Ns: 100000}}}
	// A run delay read as longer than its sample leaves that sample's
	// on-CPU time unknown (it once read as 0, which no statistic takes).
	waitedAll := &result.Experiment{Samples: []result.Sample{{Iters: 1000, Ns: 100000, Counters: map[string]int64{result.CounterRunDelay: 100}},
		{Iters: 1000, Ns: 100000, Counters: map[string]int64{result.CounterRunDelay: 120000}}},
		Findings: []finding.Finding{{Code: result.CodeDisturbed, Severity: finding.Warn}}}
	warn := func(code string) *result.Experiment {
		e := *clean
		e.Findings = []finding.Finding{{Code: code, Severity: finding.Warn}}
		return &e
	}
	tests := []struct {
		name          string
		sides         []Side
		separate      bool
		basis, inconc string
	}{
		{"clean, wall", []Side{{"a", clean, nil}, {"b", clean, nil}}, false, result.BasisWall, ""},
		{"clean, cycles", []Side{{"a", clean, nil}, {"b", clean, nil}}, true, result.BasisCycles, ""},
		{"no clock, no cycles", []Side{{"a", clean, nil}, {"b", noOnCPU, nil}}, true, result.BasisWall, ""},
		{"disturbed: on-CPU", []Side{{"old", warn(result.CodeDisturbed), nil}, {"new", clean, nil}}, false, result.BasisOnCPU, ""},
		{"disturbed in cycles", []Side{{"old", warn(result.CodeDisturbed), nil}, {"new", clean, nil}}, true, result.BasisOnCPUCycles, ""},
		{"steal during the run", []Side{{"old", clean, []string{"steal"}}, {"new", clean, nil}}, false, result.BasisOnCPU, ""},
		{"disturbed without on-CPU time", []Side{{"old", warn(result.CodeDisturbed), nil}, {"new", noOnCPU, nil}}, false, "",
			"the machine was busy (old: time off the CPU; no on-CPU time in new to leave it out)"},
		{"a sample that waited all its time", []Side{{"old", clean, nil}, {"new", waitedAll, nil}}, false, "",
			"the machine was busy (new: time off the CPU; no on-CPU time in new to leave it out)"},
		{"shared core", []Side{{"old", clean, nil}, {"new", warn(result.CodeSlowCore), nil}}, true, result.BasisCycles, "the machine was busy (new: slow-core, the core was shared with a busy sibling hardware thread or the host)"},
		{"busy sibling", []Side{{"old", clean, []string{"sibling-busy"}}, {"new", clean, nil}}, true, result.BasisCycles, "the machine was busy (old: sibling-busy, the SMT sibling of the measured CPU was busy)"},
		{"shared core in interleaved rounds is paired out", []Side{{"a", warn(result.CodeSlowCore), nil}, {"b", warn(result.CodeSlowCore), nil}}, false, result.BasisWall, ""},
		{"busy sibling in interleaved rounds is paired out", []Side{{"a", clean, []string{"sibling-busy"}}, {"b", clean, []string{"sibling-busy"}}}, false, result.BasisWall, ""},
		{"slow clock in cycles is left out", []Side{{"old", warn(result.CodeSlowClock), nil}, {"new", clean, nil}}, true, result.BasisCycles, ""},
		{"slow clock in interleaved rounds is paired out", []Side{{"old", warn(result.CodeSlowClock), nil}, {"new", clean, nil}}, false, result.BasisWall, ""},
		{"slow clock, separate runs without a clock", []Side{{"old", &result.Experiment{Samples: clean.Samples, Findings: []finding.Finding{{Code: result.CodeSlowClock, Severity: finding.Warn}}}, nil}, {"new", noOnCPU, nil}}, true, "",
			"the machine was busy (old: slow-clock, the CPU's clock dropped while measuring)"},
		{"an info disturbance is none", []Side{{"old", &result.Experiment{Samples: clean.Samples, Findings: []finding.Finding{{Code: result.CodeDisturbed, Severity: finding.Info}}}, nil}, {"new", clean, nil}}, false, result.BasisWall, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			basis, busy := Basis(tt.sides, tt.separate)
			if basis != tt.basis || busy.Reason != tt.inconc {
				t.Errorf("Basis = %q, %q; want %q, %q", basis, busy.Reason, tt.basis, tt.inconc)
			}
		})
	}
}

// Where time off the CPU cannot be left out, the bound is what each side
// could have lost off the CPU: its finding's share where it has one, up to
// 2x where nothing counted its on-CPU time (it may have been off the CPU as
// long), nothing where its on-CPU time shows it was not.
func TestBasisBoundOffCPU(t *testing.T) {
	counted := resulttest.OnCPU([]float64{100, 100}, []float64{100, 100})
	uncounted := []result.Sample{{Iters: 1000, Ns: 100000}, {Iters: 1000, Ns: 100000}}
	quarter := []finding.Finding{{Code: result.CodeDisturbed, Severity: finding.Warn, Evidence: map[string]any{"median_off_cpu_share": 0.2}}}
	tests := []struct {
		name  string
		a, b  result.Experiment
		bound float64
	}{
		{"a side that did not count it", result.Experiment{Samples: uncounted, Findings: quarter}, result.Experiment{Samples: uncounted}, 1},
		{"a side whose on-CPU time shows none", result.Experiment{Samples: uncounted, Findings: quarter}, result.Experiment{Samples: counted}, 0.25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, busy := Basis([]Side{{"a", &tt.a, nil}, {"b", &tt.b, nil}}, false)
			if math.Abs(busy.Bound-tt.bound) > 1e-9 || busy.Reason == "" {
				t.Errorf("bound %v (%q), want %v", busy.Bound, busy.Reason, tt.bound)
			}
		})
	}
}
