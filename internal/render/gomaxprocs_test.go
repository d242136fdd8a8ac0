package render

import (
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// The header says the GOMAXPROCS of the run, and that of the experiments
// that ran with another (gotest's b.RunParallel benchmarks), once each;
// the one-screen line of Go benchmarks keeps it within 80 columns.
func TestGOMAXPROCSText(t *testing.T) {
	bench := func(name string, procs int) result.Experiment {
		return result.Experiment{Kind: result.KindBenchmark, Name: name, GOMAXPROCS: procs,
			Samples: []result.Sample{{Process: 0}, {Process: 1}, {Process: 2}}}
	}
	for _, tt := range []struct {
		name string
		exps []result.Experiment
		want string
	}{
		{"loops in benchy's process", []result.Experiment{{Name: "sum"}}, "GOMAXPROCS 1"},
		{"all at one", []result.Experiment{bench("A", 1), bench("B", 1)}, "GOMAXPROCS 1"},
		{"a parallel one", []result.Experiment{bench("A", 1), bench("P", 2), bench("Q", 2)}, "GOMAXPROCS 1 (2 for b.RunParallel)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &result.Result{GOMAXPROCS: 1, CPU: 1, Experiments: tt.exps,
				Settings: result.Settings{Samples: 30, SampleTime: 100e6, GC: true, Isolate: true}}
			if got := gomaxprocsText(r); got != tt.want {
				t.Errorf("gomaxprocsText = %q, want %q", got, tt.want)
			}
			line := compactSettings(r)
			if !strings.Contains(line, tt.want) {
				t.Errorf("the header %q does not say %q", line, tt.want)
			}
			if tt.name == "all at one" {
				if want := "30 samples >= 100ms in 3 processes, GC on, GOMAXPROCS 1, Go's threads off cpu1"; line != want {
					t.Errorf("the header is %q, want %q", line, want)
				}
				if len(line) > 80 {
					t.Errorf("the header is %d columns wide", len(line))
				}
			}
		})
	}
}
