package analyze

import (
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/result/resulttest"
)

// A benchmark measured again as go test runs it is said to read another
// figure only beyond the noise of both, with both figures.
func TestCheckGOMAXPROCS(t *testing.T) {
	here := resulttest.Spread(9, 10, 18e6, 0, 10, -10, 20, -20, 5, -5, 0, 15)
	cases := []struct {
		name  string
		there []float64
		want  bool
	}{
		{"concat: 18 ms here, 44 ms as go test", []float64{44e6, 45e6, 43e6, 47e6, 44e6, 46e6}, true},
		{"within 10%", []float64{19e6, 19.5e6, 18.5e6, 19e6}, false},
		// +36%, but its calls vary by 18% (relative MAD): not beyond
		// three times the noise.
		{"beyond 10%, within its own noise", []float64{14e6, 30e6, 25e6, 9e6, 24e6, 28e6}, false},
		{"not measured", nil, false},
	}
	for _, c := range cases {
		e := result.Experiment{Kind: result.KindBenchmark, GOMAXPROCS: 1, Samples: here}
		if c.there != nil {
			e.AtGoTestSettings = &result.AtSettings{GOMAXPROCS: 2, NsPerOp: c.there}
		}
		f, ok := checkGOMAXPROCS(e, Compute(here))
		if ok != c.want {
			t.Errorf("%s: finding %v (%s), want %v", c.name, ok, f.Message, c.want)
			continue
		}
		if ok && (f.Code != result.CodeGOMAXPROCSMoves || f.Severity != finding.Info) {
			t.Errorf("%s: %s (%v), want gomaxprocs-moves, a note", c.name, f.Code, f.Severity)
		}
		if ok {
			for _, want := range []string{"GOMAXPROCS 2, not pinned", "44.5 ms/op against 18 ms/op here (GOMAXPROCS 1, pinned), 2.47x"} {
				if !strings.Contains(f.Message, want) {
					t.Errorf("%s: %q lacks %q", c.name, f.Message, want)
				}
			}
		}
	}
}
