package render

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// comparisonHTML is an interleaved run's comparison c on the page of its
// run r: a section per candidate with its sentence and the ratio of every
// round (r holds the rounds' samples).
func comparisonHTML(c compare.Document, r *result.Result) string {
	var b strings.Builder
	b.WriteString("<h2>Comparisons</h2>\n")
	for _, row := range c.Rows {
		fmt.Fprintf(&b, "<section class=\"comparison\">\n<p>%s</p>\n%s</section>\n", esc(Sentence(row.Pair)), roundsChart(r, row.Pair))
	}
	return b.String()
}

// roundsChart is, for an interleaved comparison, the candidate/base ratio
// of every round, with the interval of the ratio and the threshold
// band around 1 (inside it no difference is claimed).
func roundsChart(r *result.Result, p result.Pair) string {
	base, cand := r.Find(p.Base), r.Find(p.Candidate)
	if base == nil || cand == nil || !p.Paired {
		return ""
	}
	var ratios []float64
	for i := range min(len(base.Samples), len(cand.Samples)) {
		b, c := base.Samples[i], cand.Samples[i]
		if b.Iters > 0 && c.Iters > 0 && b.NsPerOp() > 0 {
			ratios = append(ratios, c.NsPerOp()/b.NsPerOp())
		}
	}
	if len(ratios) == 0 {
		return ""
	}
	// On a log scale: a ratio of 300 and the band around 1 both show.
	lg := func(x float64) float64 { return math.Log(math.Max(x, 1e-12)) }
	lo := lg(math.Min(slices.Min(ratios), math.Min(p.CILow, 1-p.Threshold)))
	hi := lg(math.Max(slices.Max(ratios), math.Max(p.CIHigh, 1+p.Threshold)))
	c := newChart(520, 200, 0, float64(len(ratios)), lo, hi, p.Candidate+" / "+p.Base+" per round (log scale)")
	ts := logTicks(math.Exp(lo), math.Exp(hi))
	for i := range ts {
		ts[i].v = lg(ts[i].v)
	}
	c.yAxis(ts)
	band := func(class string, a, b float64, color, opacity string) {
		fmt.Fprintf(&c.b, "<rect class=\"%s\" x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" fill-opacity=\"%s\"/>\n",
			class, marginL, c.Y(lg(b)), c.w-marginL-marginR, c.Y(lg(a))-c.Y(lg(b)), color, opacity)
	}
	band("threshold", 1-p.Threshold, 1+p.Threshold, "#ddd", "1")
	if p.CIHigh > p.CILow {
		band("interval", p.CILow, p.CIHigh, "#fc9", "0.6")
	}
	c.line(marginL, c.Y(0), c.w-marginR, c.Y(0), "#888", "3 3")
	c.line(marginL, c.Y(lg(p.Ratio)), c.w-marginR, c.Y(lg(p.Ratio)), "#c60", "")
	for i, x := range ratios {
		fmt.Fprintf(&c.b, "<circle class=\"round\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#3569a8\"/>\n", c.X(float64(i)+0.5), c.Y(lg(x)))
	}
	c.text(marginL, c.h-2, "start", "first round")
	c.text(c.w-marginR, c.h-2, "end", "grey: threshold band; orange: ratio and its "+units.Level(p.Level)+" interval")
	return c.svg()
}
