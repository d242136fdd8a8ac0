package render

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// percentileTicks are the percentiles marked on a percentile plot's x
// axis, as far as the calls reach: each the next nine of 1/(1-p).
var percentileTicks = []struct {
	p     float64
	label string
}{{0, "0%"}, {0.5, "50%"}, {0.9, "90%"}, {0.99, "99%"}, {0.999, "99.9%"}, {0.9999, "99.99%"}, {0.99999, "99.999%"}, {0.999999, "99.9999%"}}

// nines is where p sits on a percentile plot's x axis: log10(1/(1-p)),
// so 90%, 99% and 99.9% are equally far apart and the tail, where the
// slow calls are, takes most of the width instead of its last pixel.
func nines(p float64) float64 { return -math.Log10(1 - p) }

// plotLevel is the level of a percentile plot's band: the report's
// percentiles' (95%, as for every interval of a median).
const plotLevel = 0.95

// A plotLine is one line of a percentile plot: a histogram of calls.
type plotLine struct {
	class, label, color string
	l                   *result.Latency
	h                   *latency.Histogram
}

// percentilePlot is the latency of e's calls by percentile, drawn as
// HdrHistogram's plots are: the x axis is the percentile on a log scale of
// 1/(1-p) (ticks 50%, 90%, 99%, 99.9%, ... as far as the calls reach: n
// calls reach 1-1/n, and the max is drawn there), the y axis the call's
// time, on a log scale when the times span more than 10x. With --rate, the
// closed loop and the open loop are two lines with a legend. The band
// around a line is the 95% interval of each percentile (order statistics,
// latency.Percentiles), drawn where it is reported: where 10 calls lie
// beyond it. Empty when no call was timed.
//
// The curve is read from the stored histogram at every pixel column with
// the histogram's own Quantile, so the plot and the report's table agree
// to the bucket.
func percentilePlot(e result.Experiment) string {
	l := e.Latency
	if l == nil || l.Calls == 0 {
		return ""
	}
	lines := plotLines(l)
	top, lo, hi := plotExtent(lines)
	ys := timeAxis(lo, hi)
	title := "latency by percentile"
	if ys.log {
		title += " (log scales)"
	}
	const w, h = 560.0, 280.0
	c := newChart(w, h, 0, top, ys.lo, ys.hi, title)
	c.yAxis(ys.ticks)
	c.xAxis(percentileAxis(top))
	columns := int(w - marginL - marginR)
	for _, pl := range lines {
		ps := columnPercentiles(top, pl.end(), columns)
		pl.band(c, ps, ys.y)
		pl.curve(c, ps, ys.y)
		pl.dots(c, ys.y)
	}
	plotLegend(c, lines)
	c.text(marginL, c.h-2, "start", "percentile, a log scale of 1/(1-p); dots: p50 to p99.9; shaded: their 95% intervals")
	return c.svg()
}

// plotLines are the lines of l's percentile plot, their histograms
// loaded: the calls from each one's start and, with --rate and open-loop
// calls, from each one's intended start, labelled apart.
func plotLines(l *result.Latency) []plotLine {
	lines := []plotLine{{class: "closed", label: "each " + callNoun(l), color: "#3569a8", l: l}}
	if l.Rate != nil && l.Rate.Open.Calls > 0 {
		lines[0].label = "closed loop: from each call's start"
		lines = append(lines, plotLine{class: "open", label: "open loop: from its intended start", color: "#d83", l: &l.Rate.Open})
	}
	for i := range lines {
		lines[i].h = latency.Load(*lines[i].l)
	}
	return lines
}

// plotExtent is what the lines need of a percentile plot's axes: the x
// axis ends at the most calls' 1-1/n (top, in nines), the y axis spans
// the fastest call (at least 1ns, for a log scale) to the slowest.
func plotExtent(lines []plotLine) (top, lo, hi float64) {
	lo = math.Inf(1)
	for _, pl := range lines {
		top = math.Max(top, pl.end())
		lo = math.Min(lo, float64(max(pl.h.Min(), 1)))
		hi = math.Max(hi, float64(pl.h.Max()))
	}
	return top, lo, hi
}

// A timeScale is a percentile plot's y axis: where a call's time is
// drawn on it, its ends and its ticks, in those units, and whether it is
// a log scale.
type timeScale struct {
	y      func(ns int64) float64
	lo, hi float64
	ticks  []tick
	log    bool
}

// timeAxis is the y axis for calls of lo to hi ns: a log scale when they
// span more than 10x, so both the median and the tail have room.
func timeAxis(lo, hi float64) timeScale {
	if !(hi > 10*lo) {
		return timeScale{y: func(ns int64) float64 { return float64(ns) }, lo: lo, hi: hi, ticks: durationTicks(lo, hi, 4)}
	}
	// From the decade below the fastest call, so the bottom of the
	// axis, where the median is, has a label.
	lo = math.Pow(10, math.Floor(math.Log10(lo)))
	var ticks []tick
	for _, t := range logTicks(lo, hi) {
		ticks = append(ticks, tick{math.Log10(t.v), units.Duration(t.v)})
	}
	return timeScale{
		y:  func(ns int64) float64 { return math.Log10(float64(max(ns, 1))) },
		lo: math.Log10(lo), hi: math.Log10(hi), ticks: ticks, log: true,
	}
}

// percentileAxis is the x axis's ticks: the percentiles of
// percentileTicks as far as top, in nines, reaches.
func percentileAxis(top float64) []tick {
	var xt []tick
	for _, t := range percentileTicks {
		if nines(t.p) <= top+1e-9 {
			xt = append(xt, tick{nines(t.p), t.label})
		}
	}
	return xt
}

// columnPercentiles is the percentile at each of columns+1 pixel columns
// of an x axis ending at top, in nines, that a line ending at end reaches
// short of its end: the line reads its histogram there, and its max is
// drawn at end.
func columnPercentiles(top, end float64, columns int) []float64 {
	var ps []float64
	for i := range columns + 1 {
		if x := top * float64(i) / float64(columns); x < end {
			ps = append(ps, 1-math.Pow(10, -x))
		}
	}
	return ps
}

// end is where pl's line ends on the x axis, in nines: its n calls reach
// the percentile 1-1/n, where its max is drawn.
func (pl plotLine) end() float64 { return math.Log10(float64(pl.h.Count())) }

// band draws the 95% interval of each percentile of ps, where it is
// reported: the upper ends left to right, then the lower ends back, as
// one polygon. An interval with no call low enough starts at the
// fastest. A band of one column or none is not drawn.
func (pl plotLine) band(c *chart, ps []float64, y func(int64) float64) {
	var upper, lower []string
	for _, q := range latency.Percentiles(pl.h, ps, plotLevel) {
		if !q.Reported || q.HiNs < 0 {
			continue
		}
		low := q.LoNs
		if low < 0 { // no call is low enough: the band starts at the fastest
			low = pl.h.Min()
		}
		upper = append(upper, fmt.Sprintf("%.1f,%.1f", c.X(nines(q.P)), c.Y(y(q.HiNs))))
		lower = append(lower, fmt.Sprintf("%.1f,%.1f", c.X(nines(q.P)), c.Y(y(low))))
	}
	if len(upper) <= 1 {
		return
	}
	slices.Reverse(lower)
	fmt.Fprintf(&c.b, "<polygon class=\"band %s\" points=\"%s\" fill=\"%s\" fill-opacity=\"0.2\" stroke=\"none\"/>\n",
		pl.class, strings.Join(append(upper, lower...), " "), pl.color)
}

// curve draws the line: the histogram's own Quantile at every percentile
// of ps, so the plot and the report's table agree to the bucket, then
// the max at the line's end.
func (pl plotLine) curve(c *chart, ps []float64, y func(int64) float64) {
	var pts []string
	for _, p := range ps {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", c.X(nines(p)), c.Y(y(pl.h.Quantile(p)))))
	}
	pts = append(pts, fmt.Sprintf("%.1f,%.1f", c.X(pl.end()), c.Y(y(pl.h.Max()))))
	fmt.Fprintf(&c.b, "<polyline class=\"line %s\" points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
		pl.class, strings.Join(pts, " "), pl.color)
}

// dots draws the percentiles the report gives as dots to hover, each
// with its time and interval, so the plot can be read against the table.
func (pl plotLine) dots(c *chart, y func(int64) float64) {
	for _, q := range pl.l.Percentiles {
		if q.Reported {
			fmt.Fprintf(&c.b, "<circle class=\"percentile %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s %s %s</title></circle>\n",
				pl.class, c.X(nines(q.P)), c.Y(y(q.Ns)), pl.color, esc(q.Name), esc(units.Duration(float64(q.Ns))), esc(interval(q)))
		}
	}
}

// plotLegend draws the legend top left, where a percentile plot usually
// has no data (the fastest calls are at the bottom left), on white, as an
// open loop's line may run there. Each line's max is in it: the line ends
// there, and no tick need fall on it.
func plotLegend(c *chart, lines []plotLine) {
	var legend []string
	wide := 0.0
	for _, pl := range lines {
		legend = append(legend, pl.label+" (max "+units.Duration(float64(pl.h.Max()))+")")
		wide = math.Max(wide, textWidth(legend[len(legend)-1]))
	}
	fmt.Fprintf(&c.b, "<rect class=\"legend\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#fff\" fill-opacity=\"0.9\" stroke=\"#ddd\"/>\n",
		marginL+4, marginT+4, wide+36, markRow*len(lines)+6)
	for i, pl := range lines {
		ly := float64(marginT + 16 + markRow*i)
		c.line(marginL+8, ly-4, marginL+28, ly-4, pl.color, "")
		fmt.Fprintf(&c.b, "<text class=\"legend %s\" x=\"%d\" y=\"%.1f\" text-anchor=\"start\">%s</text>\n", pl.class, marginL+32, ly, esc(legend[i]))
	}
}
