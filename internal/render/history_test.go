package render

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/benchy-dev/benchy/internal/history"
)

// The history page returns on series whose axis has no span to divide:
// equal values of 2^53 and more (k+1 == k there, and the tick loop never
// ended) and infinite ones. The goroutine and its timeout only guard
// against the hang: the page takes milliseconds.
func TestHistoryHTMLDegenerateSeries(t *testing.T) {
	series := func(unit string, vs ...float64) history.Judgement {
		s := history.Series{Key: history.Key{Benchmark: "x"}, Basis: history.BasisInstructions, Unit: unit}
		for i, v := range vs {
			s.Commits = append(s.Commits, history.Commit{Value: v, Lo: v, Hi: v, Runs: 1,
				Source: history.Source{Commit: strings.Repeat(string(rune('a'+i)), 40)}})
		}
		return history.Judge(s, 0.05)
	}
	for name, j := range map[string]history.Judgement{
		"equal 2e16":        series("instructions", 2e16, 2e16, 2e16, 2e16, 2e16, 2e16),
		"equal 2^60 ns":     series("ns", 1<<60, 1<<60),
		"+Inf":              series("instructions", 5, math.Inf(1), 5),
		"-Inf and +Inf":     series("ns", math.Inf(-1), math.Inf(1)),
		"equal 5":           series("instructions", 5, 5, 5),
		"2e16 and one more": series("instructions", 2e16, 2e16+4),
	} {
		done := make(chan string, 1)
		go func() {
			var b bytes.Buffer
			err := WriteHistory(&b, []history.Judgement{j}, "html", HistoryOptions{Store: "s.db", Threshold: 0.05})
			if err != nil {
				done <- err.Error()
				return
			}
			done <- b.String()
		}()
		select {
		case page := <-done:
			// (An infinite value has no place on the chart; the store
			// refuses such rows, TestRowsRefuseImpossibleValues.)
			if !strings.Contains(page, "<svg") || !strings.Contains(page, `class="tick y"`) {
				t.Errorf("%s: no chart, or no axis:\n%.2000s", name, page)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: the page did not return in 20 s", name)
		}
	}
}

// linearTicks: a known count of ticks for any ends.
func TestLinearTicksDegenerate(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   int
	}{
		{0, 10, 3}, {2e16, 2e16, 1}, {1 << 60, 1 << 60, 1}, {5, 5, 1}, {2e16, 2e16 + 4, 1},
		{math.Inf(-1), 1, 0}, {0, math.Inf(1), 0}, {math.NaN(), 1, 0}, {3, 1, 0},
	} {
		if got := linearTicks(c.lo, c.hi, 4, plainLabel); len(got) < min(c.want, 1) || c.want == 0 && len(got) != 0 || c.want == 1 && len(got) != 1 {
			t.Errorf("linearTicks(%g, %g): %d ticks %v, want %d", c.lo, c.hi, len(got), got, c.want)
		}
	}
}
