package analyze

import (
	"slices"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
)

// seriesOf is an experiment of samples at ns per op (1000 iterations
// each) whose reference checks read 0.25 ns per iteration, except at the
// indices in slowed, where the host shared the core: the checks read
// 0.45 ns and the samples took 1.7 times as long.
func seriesOf(ns []float64, slowed ...int) result.Experiment {
	e := result.Experiment{Name: "x/y", Kind: result.KindLoop, Iters: 1000, Samples: perOpF(ns...)}
	for i := range e.Samples {
		e.Samples[i].CPU, e.Samples[i].RefNs = 1, 0.25
		if slices.Contains(slowed, i) {
			e.Samples[i].RefNs, e.Samples[i].Ns = 0.45, e.Samples[i].Ns*17/10
		}
	}
	return e
}

// Whatever the class of an experiment's series, what Analyze stores
// agrees with it: the class stored is that of the samples no slowed core
// touched, the one series finding is the class's (none when flat), and
// the statistics are over the steady samples. Series as a heap that
// grows from sample to sample makes them (a warm-up, a gradual rise, a
// rise that steepens), with and without a stretch the host slowed, in
// one process and in two.
func TestSeriesClassFindingsAndStatsAgree(t *testing.T) {
	twoWarmups := seriesOf(cat(level(6, 150), level(16, 100), level(5, 140), level(17, 100)))
	for i := range twoWarmups.Samples {
		twoWarmups.Samples[i].Process = min(i/22, 1)
	}
	steepening := make([]float64, 31)
	for i := range steepening {
		steepening[i] = 100 * (1 + 0.0005*float64(i*i))
	}
	tests := []struct {
		name  string
		e     result.Experiment
		class string
		n     int // the statistics' samples
	}{
		{"flat", seriesOf(level(31, 100)), "flat", 31},
		{"a gradual rise", seriesOf(trend(31, 0.12, 0.03, 1)), "flat", 31},
		{"warm-up", seriesOf(cat(level(8, 150), level(23, 100))), "warmup", 23},
		// Samples 20 and 21 slowed, and 22 after them: 20 steady left.
		{"warm-up, a stretch slowed", seriesOf(cat(level(8, 150), level(23, 100)), 20, 21), "warmup", 20},
		{"warm-up in each of two processes", twoWarmups, "warmup", 33},
		{"slowdown", seriesOf(cat(level(16, 100), level(15, 115))), "slowdown", 31},
		{"a rise that steepens", seriesOf(steepening), "slowdown", 31},
		{"no steady state", seriesOf(cat(level(10, 100), level(11, 180), level(10, 100))), "no steady state", 31},
	}
	classCode := map[string]string{"warmup": result.CodeWarmup, "slowdown": result.CodeSlowdown, "no steady state": result.CodeNoSteadyState}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := analyzed(tt.e)
			e := r.Experiments[0]
			view := e.WithoutSlowed()
			ser := ClassifySeries(view)
			if !ser.Judged() || string(ser.Class) != tt.class || e.Series == nil || e.Series.Class != tt.class {
				t.Fatalf("class %s (stored %+v), want %s", ser.Class, e.Series, tt.class)
			}
			var got []string
			for _, f := range e.Findings {
				if slices.Contains([]string{result.CodeWarmup, result.CodeSlowdown, result.CodeNoSteadyState, result.CodeInconsistent}, f.Code) {
					got = append(got, f.Code)
				}
			}
			want := classCode[tt.class]
			if (want == "" && len(got) > 0) || (want != "" && !slices.Equal(got, []string{want})) {
				t.Errorf("class %s, series findings %v; want %q alone", ser.Class, got, want)
			}
			if steady := len(ser.Steady(view.Samples)); e.Stats.N != steady || steady != tt.n {
				t.Errorf("statistics over %d samples, the steady state holds %d; want %d", e.Stats.N, steady, tt.n)
			}
		})
	}
}
