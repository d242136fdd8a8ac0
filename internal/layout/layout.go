// Package layout judges code layout as a factor (gotest --layouts): each
// revision is linked K times with -ldflags=-randlayout=SEED, so every
// layout's processes say what that placing of the functions costs, and
// the variation of the process medians splits into the part between
// layouts and the part between processes of one layout (a one-way random
// effects analysis of variance). A change no larger than what layouts
// alone move a benchmark by is not a change of the code anyone can claim
// (Mytkowicz et al., ASPLOS'09; Curtsinger and Berger, STABILIZER,
// ASPLOS'13).
package layout

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/stats"
)

// Seeds are the K seeds of K layouts: 1 to K, so the same K links the
// same binaries, run after run.
func Seeds(k int) []int64 {
	out := make([]int64, k)
	for i := range out {
		out[i] = int64(i + 1)
	}
	return out
}

// Flags is buildFlags with the linker told to lay out the functions with
// seed: -randlayout=SEED added to the last -ldflags given, or a new
// -ldflags (go build takes only the last -ldflags).
func Flags(buildFlags []string, seed int64) []string {
	out := slices.Clone(buildFlags)
	opt := "-randlayout=" + strconv.FormatInt(seed, 10)
	for i := len(out) - 1; i >= 0; i-- {
		f := out[i]
		for _, pre := range []string{"-ldflags=", "--ldflags="} {
			if v, ok := strings.CutPrefix(f, pre); ok {
				out[i] = pre + strings.TrimSpace(strings.Trim(v, `'"`)+" "+opt)
				return out
			}
		}
		if (f == "-ldflags" || f == "--ldflags") && i+1 < len(out) {
			out[i+1] = strings.TrimSpace(out[i+1] + " " + opt)
			return out
		}
	}
	return append(out, "-ldflags="+opt)
}

// Medians are one side's process medians (ns/op) of one benchmark, by
// layout: Medians[l] holds the medians of layout l's processes.
type Medians [][]float64

// ProcessMedians groups e's samples by process and process by layout:
// processes [l·perLayout, (l+1)·perLayout) are layout l's.
func ProcessMedians(e *result.Experiment, layouts, perLayout int) Medians {
	byProc := map[int][]float64{}
	for _, s := range e.Samples {
		if s.Iters > 0 {
			byProc[s.Process] = append(byProc[s.Process], s.NsPerOp())
		}
	}
	m := make(Medians, layouts)
	for p, xs := range byProc {
		if l := p / perLayout; l >= 0 && l < layouts {
			m[l] = append(m[l], stats.Median(xs))
		}
	}
	return m
}

// layoutMedians is each layout's median of its process medians.
func (m Medians) layoutMedians() []float64 {
	out := make([]float64, len(m))
	for i, xs := range m {
		out[i] = stats.Median(xs)
	}
	return out
}

// parts are the variance components of m, relative to the grand mean:
// between layouts (σ²_L, the variance of the layout means less what the
// process noise adds to each, s²_w/n) and within them (s²_w, pooled), and
// their degrees of freedom. Layouts with fewer than two processes give no
// within part; ok is false when there is too little to tell.
func (m Medians) parts() (between, within float64, ok bool) {
	var means []float64
	var ss float64
	df, n, all := 0, 0, 0.0
	for _, xs := range m {
		if len(xs) == 0 {
			continue
		}
		mean := stats.Mean(xs)
		means = append(means, mean)
		for _, x := range xs {
			ss += (x - mean) * (x - mean)
			all += x
		}
		df += len(xs) - 1
		n += len(xs)
	}
	if len(means) < 2 || df < 1 || n == 0 {
		return 0, 0, false
	}
	grand := all / float64(n)
	within = ss / float64(df)
	perLayout := float64(n) / float64(len(means))
	_, v := stats.MeanVar(means)
	between = max(0, v-within/perLayout)
	return between / (grand * grand), within / (grand * grand), true
}

// Spread is what the layouts did to one benchmark: old is nil without
// --against; change is the change claimed, and claimed says the
// comparison claimed it (faster or slower). Layouts alone move a
// benchmark by twice the standard deviation between layouts (the
// process noise taken out): a claimed change no larger is
// layout-sensitive. With K layouts that standard deviation rests on K-1
// degrees of freedom per side: 4 layouts or more tell it usefully.
func Spread(name string, old, cur Medians, change float64, claimed bool) result.LayoutSpread {
	sp := result.LayoutSpread{Name: name, New: cur.layoutMedians()}
	sides := []Medians{cur}
	if old != nil {
		sp.Old = old.layoutMedians()
		sides = append(sides, old)
	}
	var b, w float64
	n := 0
	for _, m := range sides {
		if between, within, ok := m.parts(); ok {
			b, w, n = b+between, w+within, n+1
		}
		sp.Range = max(sp.Range, relRange(m.layoutMedians()))
	}
	if n > 0 {
		sp.LayoutSD, sp.ProcessSD = math.Sqrt(b/float64(n)), math.Sqrt(w/float64(n))
	}
	sp.Move = 2 * sp.LayoutSD
	if claimed {
		sp.Change = change
		sp.Sensitive = sp.Move >= math.Abs(change)
	}
	return sp
}

// relRange is (max - min) / median of xs, 0 for fewer than two.
func relRange(xs []float64) float64 {
	var ys []float64
	for _, x := range xs {
		if x > 0 && !math.IsNaN(x) {
			ys = append(ys, x)
		}
	}
	if len(ys) < 2 {
		return 0
	}
	return (slices.Max(ys) - slices.Min(ys)) / stats.Median(ys)
}

// Message is the finding's words for a layout-sensitive benchmark.
func Message(sp result.LayoutSpread, layouts int) string {
	return fmt.Sprintf("layouts alone (-randlayout, %d links of each revision) move the benchmark by ±%.1f%% (twice the standard deviation between layouts, %.1f%%, the processes' own %.1f%% taken out), as much as the change claimed (%+.1f%%): the difference may be where the linker put the functions, not the code",
		layouts, 100*sp.Move, 100*sp.LayoutSD, 100*sp.ProcessSD, 100*sp.Change)
}
