package render

import (
	"math"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Levels of a sparkline, lowest first: eight block heights, or eight
// ASCII characters of growing ink for terminals that cannot show them.
var (
	sparkBlocks = []rune("▁▂▃▄▅▆▇█")
	sparkASCII  = []rune("_.-:=+*#")
)

// sparkMarks are what a sparkline's second line puts under a sample:
// another task took the CPU in it, or a changepoint starts there.
const (
	markDisturbed = 'x'
	markChange    = '^'
)

// Sparkline draws e's samples in run order in at most width cells: one
// cell a sample, or the median of a run of them when there are more
// samples than cells; the height is the time per op between the min and
// the max. Processes are separated by '|'. The second line, empty when
// there is nothing to mark, has an 'x' under a cell with a disturbed
// sample and a '^' where a changepoint starts a new level.
func Sparkline(e result.Experiment, width int, ascii bool) (line, marks string) {
	levels := sparkBlocks
	if ascii {
		levels = sparkASCII
	}
	if width < 4 {
		return "", ""
	}
	index := e.ProcessIndex()
	if len(index) == 0 {
		return "", ""
	}
	total := 0
	for _, idx := range index {
		total += len(idx)
	}
	cells := max(1, width-(len(index)-1)) // '|' between processes
	per := (total + cells - 1) / cells    // samples per cell
	lo, hi := sampleRange(e)
	var b, m strings.Builder
	disturbed := disturbedSet(e)
	anyMark := false
	for p, idx := range index {
		if p > 0 {
			b.WriteRune('|')
			m.WriteRune(' ')
		}
		changes := map[int]bool{}
		if ps := processSeries(e, p); ps.Judged && ps.Class != flat {
			for _, c := range ps.Changes {
				changes[c] = true
			}
		}
		for start := 0; start < len(idx); start += per {
			end := min(start+per, len(idx))
			var xs []float64
			mark := ' '
			for k := start; k < end; k++ {
				s := e.Samples[idx[k]]
				xs = append(xs, s.NsPerOp())
				if changes[k] && mark == ' ' {
					mark = markChange
				}
				if disturbed[idx[k]] {
					mark = markDisturbed
				}
			}
			b.WriteRune(levels[sparkLevel(stats.Median(xs), lo, hi, len(levels))])
			m.WriteRune(mark)
			anyMark = anyMark || mark != ' '
		}
	}
	if !anyMark {
		return b.String(), ""
	}
	return b.String(), strings.TrimRight(m.String(), " ")
}

// sparkLevel is the index, 0..n-1, of x between lo and hi.
func sparkLevel(x, lo, hi float64, n int) int {
	if hi <= lo {
		return 0
	}
	return min(n-1, max(0, int((x-lo)/(hi-lo)*float64(n-1)+0.5)))
}

// sampleRange is the least and the most time per op of e's samples with
// iterations (e.Stats may leave out a warm-up); NaN when there are none.
func sampleRange(e result.Experiment) (lo, hi float64) {
	xs := result.NsPerOp(e.Samples)
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	return slices.Min(xs), slices.Max(xs)
}

// flat is the class of a series without changepoints worth the name.
const flat = "flat"

// processSeries is the stored shape of e's p-th process's series; not
// judged when the result holds none (it was not analysed).
func processSeries(e result.Experiment, p int) result.ProcessSeries {
	if e.Series == nil || p >= len(e.Series.Processes) {
		return result.ProcessSeries{}
	}
	return e.Series.Processes[p]
}

// disturbedSet is e.Disturbed as a set of sample indices.
func disturbedSet(e result.Experiment) map[int]bool {
	set := make(map[int]bool, len(e.Disturbed))
	for _, i := range e.Disturbed {
		set[i] = true
	}
	return set
}
