package pipeline

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
)

// A comparison without a verdict that places the commit is measured again
// when more runs may tell (a busy machine made it inconclusive, or the
// interval still reaches past the threshold), and skipped when they
// cannot (runs that cannot be compared).
func TestUnjudged(t *testing.T) {
	for _, tt := range []struct {
		verdict string
		want    bisect.Side
	}{
		{result.Inconclusive, bisect.Undecided},
		{result.Slower, bisect.Undecided},
		{result.NoDifference, bisect.Undecided},
		{result.NotComparable, bisect.Skipped},
	} {
		r := compare.Row{Name: "Work", Pair: result.Pair{Verdict: tt.verdict}}
		if got := unjudged(r); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.verdict, got, tt.want)
		}
	}
}

// A --cpu that cannot be used is refused first, before anything of the
// repository is read or built.
func TestBisectChecksTheCPUFirst(t *testing.T) {
	_, err := Bisect(BisectPlan{GoTest: GoTestPlan{Plan: Plan{CPU: 4095, CPUSet: true}, Dir: t.TempDir(), Notes: io.Discard},
		Good: "HEAD~1", Bad: "HEAD"})
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "4095") {
		t.Errorf("%v, want a usage error about --cpu 4095", err)
	}
}
