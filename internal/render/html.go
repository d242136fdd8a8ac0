package render

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/finding"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// writeHTML writes r as one self-contained page: inline SVG drawn here,
// inline CSS, no script, nothing fetched. Per experiment: the verdict
// and findings, the distribution of the samples (a histogram with min,
// median and p90 marked), the series in run order (changepoints, the
// steady levels, disturbed samples and process boundaries marked) and the
// machine around it (clock and reference loop before and after), and with
// --latency the calls' latency by percentile; then the busy CPUs of the
// run, and for an interleaved comparison the ratio of every round with its
// interval and the threshold band.
//
// The charts are drawn by hand rather than with a plotting library: each
// is a few rectangles, circles and lines, and a library would bring a
// script or a dependency to a file that must open anywhere, offline.
func writeHTML(w io.Writer, r *result.Result, c *compare.Document) error {
	tw := &errWriter{w: w}
	title := "benchy result"
	if !r.Start.IsZero() {
		title += " " + r.Start.UTC().Format("2006-01-02 15:04 UTC")
	}
	tw.printf("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(title), htmlStyle)
	tw.printf("<h1>%s</h1>\n", esc(title))
	for _, line := range compactHeader(r) {
		tw.printf("<p class=\"head\">%s</p>\n", esc(line))
	}
	tw.printf("<p class=\"summary\">summary: %s</p>\n", esc(summaryLine(r)))
	writeOverview(tw, r)
	for _, line := range []string{reportedLine(r), goTestLine(r), slowedLine(r)} {
		if line != "" {
			tw.printf("<p class=\"note\">%s</p>\n", esc(line))
		}
	}
	writeCountHTML(tw, r)
	if len(r.Experiments) > 0 {
		tw.printf("<p class=\"note\">%s</p>\n", esc(chartsNote))
	}
	if c != nil {
		tw.printf("%s", comparisonHTML(*c, r))
	}
	writeProfileDiffsHTML(tw, r.ProfileDiffs)
	for _, e := range r.Experiments {
		tw.printf("<section class=\"experiment\" id=\"%s\">\n<h2>%s <span class=\"verdict %s\">%s</span></h2>\n",
			esc(e.Label()), esc(e.Label()), verdictClass(e.Verdict), esc(verdictCell(e)))
		if e.Description != "" {
			tw.printf("<p class=\"desc\">%s</p>\n", esc(e.Description))
		}
		st := e.Stats
		if st.N > 0 {
			tw.printf("<p>min %s, median %s, p90 %s, max %s over %s</p>\n", esc(units.Duration(st.Min)), esc(units.Duration(st.Median)),
				esc(units.Duration(st.P90)), esc(units.Duration(st.Max)), esc(units.Count(st.N, "sample")))
			tw.printf("<div class=\"charts\">\n%s%s%s</div>\n", histogram(e), series(e), machineTrack(e))
		}
		if plot := percentilePlot(e); plot != "" {
			tw.printf("<div class=\"charts\">\n%s</div>\n", plot)
		}
		if len(e.Findings) > 0 {
			tw.printf("<ul class=\"findings\">\n")
			for _, f := range decidingFirst(e) {
				tw.printf("<li class=\"%s\"><b>%s</b> %s: %s</li>\n", esc(f.Severity.String()), esc(f.Severity.String()), esc(f.Code), esc(f.Message))
			}
			tw.printf("</ul>\n")
		}
		writeProfileHTML(tw, e.Profile)
		tw.printf("</section>\n")
	}
	if len(r.BusyDuring) > 0 {
		tw.printf("<h2>Busy during the run</h2>\n%s", busyChart(r))
	}
	if len(r.Environment) > 0 {
		tw.printf("<h2>Environment</h2>\n<ul class=\"findings\">\n")
		for _, f := range r.Environment {
			tw.printf("<li class=\"%s\"><b>%s</b> %s: %s</li>\n", esc(f.Severity.String()), esc(f.Severity.String()), esc(f.Code), esc(f.Message))
		}
		tw.printf("</ul>\n")
	}
	tw.printf("<p class=\"foot\">%s</p>\n</body>\n</html>\n", esc(r.Tool))
	return tw.err
}

// writeOverview is the table the page opens with: every experiment, its
// median, its verdict and the reason that decided it, linked to its
// section.
func writeOverview(tw *errWriter, r *result.Result) {
	if len(r.Experiments) == 0 {
		return
	}
	tw.printf("<table class=\"overview\">\n<tr><th>experiment</th><th>median</th><th>verdict</th><th>deciding reason</th></tr>\n")
	for _, e := range r.Experiments {
		median := "-"
		if e.Stats.N > 0 {
			median = units.Duration(e.Stats.Median)
		}
		reason := ""
		if len(e.Reasons) > 0 {
			reason = e.Reasons[0]
		}
		tw.printf("<tr><td><a href=\"#%s\">%s</a></td><td class=\"num\">%s</td><td><span class=\"verdict %s\">%s</span></td><td>%s</td></tr>\n",
			esc(e.Label()), esc(e.Label()), esc(median), verdictClass(e.Verdict), esc(cmp.Or(e.Verdict, "no verdict")), esc(reason))
	}
	tw.printf("</table>\n")
}

// chartsNote says once what each experiment's charts show.
const chartsNote = "Each experiment's charts: the distribution of its samples' time per op, with min, median and p90 marked; " +
	"the samples in run order; and the machine right before the first sample and right after the last, as the pinned thread measured it: " +
	"the clock, timed by a chain of dependent adds, and the reference loop, one store, one increment, a compare and a taken branch " +
	"per iteration, which takes one cycle on a core of its own and longer when another hardware thread or the host shares the core (slow-core)."

// decidingFirst is e's findings with those that decided the verdict
// first, in the order of its reasons, then the rest as found.
func decidingFirst(e result.Experiment) []finding.Finding {
	out := make([]finding.Finding, 0, len(e.Findings))
	used := make([]bool, len(e.Findings))
	for _, code := range e.Reasons {
		for i, f := range e.Findings {
			if !used[i] && f.Code == code {
				out, used[i] = append(out, f), true
			}
		}
	}
	for i, f := range e.Findings {
		if !used[i] {
			out = append(out, f)
		}
	}
	return out
}

const htmlStyle = `table.overview{border-collapse:collapse;margin:.8em 0}table.overview td,table.overview th{padding:.15em .8em;text-align:left;border-bottom:1px solid #eee}
table.overview td.num{text-align:right;font-family:monospace}
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
h1{font-size:20px}h2{font-size:16px;margin:1.5em 0 .3em}.head{margin:0;color:#555;font-family:monospace}
.summary{font-weight:bold}.verdict{font-weight:normal;font-size:14px;padding:0 .4em;border-radius:3px}
.believable{background:#d8f0d8}.doubtful{background:#fbeec2}.notbelievable{background:#f7d0d0}
.charts{display:flex;flex-wrap:wrap;gap:12px}svg{background:#fafafa;border:1px solid #ddd}
svg text{font:11px sans-serif;fill:#444}.findings li.error b{color:#b00}.findings li.warn b{color:#a60}
.findings li.info b{color:#666}p.warn{color:#a60}.desc,.foot,.note{color:#666}.note{max-width:900px}section{border-top:1px solid #eee}`

func esc(s string) string { return html.EscapeString(s) }

func verdictClass(v string) string { return strings.ReplaceAll(v, " ", "") }

// chart maps values into an SVG of w×h with margins for the labels.
type chart struct {
	w, h           float64
	x0, x1, y0, y1 float64 // the data range
	b              strings.Builder
}

const (
	marginL = 58
	marginR = 10
	marginT = 22
	marginB = 32
)

func newChart(w, h, x0, x1, y0, y1 float64, title string) *chart {
	if x1 <= x0 {
		x1 = x0 + 1
	}
	if y1 <= y0 {
		y0, y1 = y0-math.Max(math.Abs(y0)*0.01, 1e-9), y1+math.Max(math.Abs(y1)*0.01, 1e-9)
	}
	c := &chart{w: w, h: h, x0: x0, x1: x1, y0: y0, y1: y1}
	fmt.Fprintf(&c.b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\"><title>%s</title>\n",
		w, h, w, h, esc(title))
	c.text(marginL, 14, "start", title)
	fmt.Fprintf(&c.b, "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff\" stroke=\"#ccc\"/>\n",
		marginL, marginT, w-marginL-marginR, h-marginT-marginB)
	return c
}

func (c *chart) X(x float64) float64 {
	return marginL + (x-c.x0)/(c.x1-c.x0)*(c.w-marginL-marginR)
}

func (c *chart) Y(y float64) float64 {
	return c.h - marginB - (y-c.y0)/(c.y1-c.y0)*(c.h-marginT-marginB)
}

func (c *chart) text(x, y float64, anchor, s string) {
	fmt.Fprintf(&c.b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", x, y, anchor, esc(s))
}

func (c *chart) line(x1, y1, x2, y2 float64, color, dash string) {
	fmt.Fprintf(&c.b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\"", x1, y1, x2, y2, color)
	if dash != "" {
		fmt.Fprintf(&c.b, " stroke-dasharray=\"%s\"", dash)
	}
	c.b.WriteString("/>\n")
}

func (c *chart) svg() string { return c.b.String() + "</svg>\n" }

// histogram is the distribution of the samples' times per op, with min,
// median and p90 marked (the statistics the report gives). Samples far
// above p90 (beyond p90 + 3·(p90 − min)) are counted in one grey bar at
// the right, so that one outlier does not squeeze the rest into a line.
func histogram(e result.Experiment) string {
	xs := result.NsPerOp(e.Samples)
	st := e.Stats
	lo, hi := sampleRange(e)
	top := hi
	if clip := st.P90 + 3*(st.P90-st.Min); clip > st.P90 && clip < hi {
		top = clip
	}
	bins := max(5, min(40, int(math.Ceil(math.Sqrt(float64(len(xs)))))*2))
	width := (top - lo) / float64(bins)
	counts := make([]int, bins)
	over := 0
	for _, x := range xs {
		switch {
		case x > top:
			over++
		case width > 0:
			counts[min(bins-1, int((x-lo)/width))]++
		default:
			counts[0]++
		}
	}
	right := top
	if over > 0 {
		right = top + 2*width // room for the overflow bar
	}
	// The top rows of the plot are left free of bars for the labels of
	// min, median and p90.
	most := float64(max(slices.Max(counts), over))
	plot := 200.0 - marginT - marginB
	c := newChart(280, 200, lo, math.Max(right, lo+1e-9), 0, most*plot/(plot-markRows*markRow-4), "distribution (samples per bin)")
	c.yAxis(countTicks(most))
	c.xAxis(durationTicks(lo, top, 3))
	bar := func(x0, x1 float64, n int, color string) {
		fmt.Fprintf(&c.b, "<rect class=\"bin\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			x0, c.Y(float64(n)), math.Max(x1-x0-1, 1), c.Y(0)-c.Y(float64(n)), color)
	}
	for i, n := range counts {
		switch {
		case n == 0:
		case width == 0:
			bar(c.X(lo)-3, c.X(lo)+3, n, "#7aa6d6")
		default:
			bar(c.X(lo+float64(i)*width), c.X(lo+float64(i+1)*width), n, "#7aa6d6")
		}
	}
	if over > 0 {
		bar(c.X(top+width), c.X(top+2*width), over, "#aaa")
		c.text(c.w-marginR, c.h-2, "end", fmt.Sprintf("grey: %d above %s (max %s)", over, units.Duration(top), units.Duration(hi)))
	}
	c.marks([]mark{
		{st.Min, "min", "min " + units.Duration(st.Min), "#2a7"},
		{st.Median, "median", "median " + units.Duration(st.Median), "#000"},
		{st.P90, "p90", "p90 " + units.Duration(st.P90), "#c60"},
	})
	return c.svg()
}

// series is the samples in run order: a dot per sample (red when another
// task took the CPU in it), the level of each segment between
// changepoints, and a dashed line where a new process starts.
func series(e result.Experiment) string {
	lo, hi := sampleRange(e)
	title := "run order"
	if e.Series.Judged() {
		title += ": " + e.Series.Class
	}
	c := newChart(340, 200, 0, float64(len(e.Samples)), lo, hi, title)
	c.yAxis(durationTicks(lo, hi, 4))
	disturbed := disturbedSet(e)
	for j, s := range e.Samples {
		if s.Iters <= 0 {
			continue
		}
		color, class := "#3569a8", "sample"
		if disturbed[j] {
			color, class = "#d22", "sample disturbed"
		}
		fmt.Fprintf(&c.b, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n", class, c.X(float64(j)+0.5), c.Y(s.NsPerOp()), color)
		if j > 0 && s.Process != e.Samples[j-1].Process {
			c.line(c.X(float64(j)), marginT, c.X(float64(j)), c.h-marginB, "#888", "2 3")
		}
	}
	for p, idx := range e.ProcessIndex() {
		res := processSeries(e, p)
		if !res.Judged {
			continue
		}
		for k, seg := range res.Segments {
			x0, x1 := c.X(float64(idx[seg.Start])), c.X(float64(idx[seg.End-1])+1)
			c.line(x0, c.Y(seg.Median), x1, c.Y(seg.Median), "#e80", "")
			if k > 0 && res.Class != flat {
				fmt.Fprintf(&c.b, "<line class=\"changepoint\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#e80\" stroke-dasharray=\"1 2\"/>\n",
					x0, marginT, x0, c.h-marginB)
			}
		}
	}
	c.text(marginL, c.h-2, "start", "first sample")
	c.text(c.w-marginR, c.h-2, "end", fmt.Sprintf("%d (red: disturbed; orange: levels)", len(e.Samples)))
	return c.svg()
}

// machineTrack is what the pinned thread measured of the machine right
// before the first sample and right after the last, one chart each, with
// an axis from zero: the effective clock, and the time of the reference
// loop, against the one cycle an iteration takes at that clock on a core
// of its own (more is a shared core: slow-core).
func machineTrack(e result.Experiment) string {
	var out string
	clock := e.Clock
	if clock != nil && clock.BeforeHz > 0 && clock.AfterHz > 0 {
		out += beforeAfter("clock", clock.BeforeHz, clock.AfterHz, units.Hz,
			func(top float64) []tick { return scaledTicks(0, top, 3, "GHz", 1e9) }, nil)
	}
	if ref := e.Reference; ref != nil && ref.BeforeNs > 0 && ref.AfterNs > 0 {
		var cycle *mark
		if clock != nil && clock.BeforeHz > 0 {
			cycle = &mark{v: 1e9 / clock.BeforeHz, class: "cycle", label: "dashed: 1 cycle at " + units.Hz(clock.BeforeHz), color: "#c60"}
		}
		out += beforeAfter("reference loop", ref.BeforeNs, ref.AfterNs, units.Duration,
			func(top float64) []tick { return durationTicks(0, top, 3) }, cycle)
	}
	return out
}

// beforeAfter is one value measured before and after, as two bars on an
// axis from zero labelled by ticks, each bar with its value above it, and
// a dashed level (ref) when one is given.
func beforeAfter(title string, before, after float64, format func(float64) string, ticks func(top float64) []tick, ref *mark) string {
	top := math.Max(before, after)
	if ref != nil {
		top = math.Max(top, ref.v)
	}
	c := newChart(180, 200, 0, 2, 0, top*1.2, title)
	c.yAxis(ticks(top * 1.2))
	if ref != nil {
		y := c.Y(ref.v)
		c.line(marginL, y, c.w-marginR, y, ref.color, "4 2")
		c.text(c.w-marginR, c.h-2, "end", ref.label)
	}
	for k, v := range []float64{before, after} {
		name := []string{"before", "after"}[k]
		x := c.X(float64(k) + 0.5)
		fmt.Fprintf(&c.b, "<rect class=\"bar %s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			name, x-15, c.Y(v), 30.0, c.Y(0)-c.Y(v), []string{"#9bc", "#57a"}[k])
		fmt.Fprintf(&c.b, "<text class=\"value %s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">%s</text>\n",
			name, x, c.Y(v)-4, esc(format(v)))
		c.text(x, c.h-marginB+14, "middle", name)
	}
	return c.svg()
}

// busyChart is how busy each CPU was during the run, the measured one
// marked.
func busyChart(r *result.Result) string {
	c := newChart(math.Max(200, float64(60+40*len(r.BusyDuring))), 180, 0, float64(len(r.BusyDuring)), 0, 100, "busy during the run (%)")
	c.yAxis(linearTicks(0, 100, 4, plainLabel))
	slot := (c.w - marginL - marginR) / float64(len(r.BusyDuring))
	for i, b := range r.BusyDuring {
		v, ok := b.Busy.Get()
		label := fmt.Sprintf("cpu%d", b.CPU)
		if b.CPU == r.CPU {
			label += "*"
		}
		c.text(marginL+slot*(float64(i)+0.5), c.h-marginB+14, "middle", label)
		if !ok {
			continue
		}
		color := "#9bc"
		if b.CPU == r.CPU {
			color = "#d83"
		}
		fmt.Fprintf(&c.b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			marginL+slot*float64(i)+4, c.Y(v), slot-8, c.Y(0)-c.Y(v), color)
	}
	return c.svg()
}
