package render

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/latency"
	"github.com/benchy-dev/benchy/internal/result"
)

// latencyOf is the stored form of h, its percentiles derived as the
// analysis derives them.
func latencyOf(h *latency.Histogram) result.Latency {
	var l result.Latency
	h.Store(&l)
	l.Percentiles = latency.Percentiles(h, latency.Reported, 0.95)
	return l
}

// stepCalls is 20,000 calls: 99% of fast ns and 1% of slow ns, so the
// percentile curve steps up at 99%.
func stepCalls(fast, slow int64) *latency.Histogram {
	h := latency.New()
	for i := range 20000 {
		if i%100 == 99 {
			h.Record(slow)
		} else {
			h.Record(fast)
		}
	}
	return h
}

// points reads an SVG points attribute.
func points(t *testing.T, s string) [][2]float64 {
	t.Helper()
	var out [][2]float64
	for _, f := range strings.Fields(s) {
		x, y, _ := strings.Cut(f, ",")
		px, err1 := strconv.ParseFloat(x, 64)
		py, err2 := strconv.ParseFloat(y, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("point %q", f)
		}
		out = append(out, [2]float64{px, py})
	}
	return out
}

// latencyPage writes r as HTML and returns the percentile plot of its
// experiment.
func latencyPlot(t *testing.T, e result.Experiment) node {
	t.Helper()
	r := fixtureResult()
	r.Experiments = []result.Experiment{e}
	var b bytes.Buffer
	if err := Write(&b, r, "html"); err != nil {
		t.Fatal(err)
	}
	return chartTitled(t, parsePage(t, b.String()), e.Name, "latency by percentile")
}

// The percentile plot of a constructed histogram, read back through the
// axes it labels: the x ticks are 0%, 50%, 90%, 99%, 99.9%, 99.99% (as far
// as 20,000 calls reach) on a log scale of 1/(1-p), so 90%, 99% and 99.9%
// are equally spaced; the y axis is a log scale of durations (the calls
// span 300x); the line is the fast time up to 99% and the slow one beyond,
// and ends at the max, and the band of intervals stops where percentiles stop
// being reported (10 calls beyond them).
func TestPercentilePlot(t *testing.T) {
	const fast, slow, slowest = 1000, 100_000, 300_000
	h := stepCalls(fast, slow)
	h.Record(slowest) // the max, one call
	l := latencyOf(h)
	svg := latencyPlot(t, result.Experiment{Name: "tail/step", Latency: &l})

	if title := svg.all("title", "")[0].Text; !strings.Contains(title, "log scales") {
		t.Errorf("title %q: the times span 300x, want log scales", title)
	}
	xs := map[string]float64{}
	var labels []string
	for _, tt := range svg.all("text", "tick x") {
		xs[tt.Text] = tt.num(t, "x")
		labels = append(labels, tt.Text)
	}
	if got := strings.Join(labels, " "); got != "0% 50% 90% 99% 99.9% 99.99%" {
		t.Fatalf("x ticks %q, want 0%% to 99.99%% (20,000 calls reach 99.995%%)", got)
	}
	decade := xs["99%"] - xs["90%"]
	if math.Abs(xs["99.9%"]-xs["99%"]-decade) > 0.2 || math.Abs(xs["90%"]-xs["0%"]-decade) > 0.2 || decade < 50 {
		t.Errorf("x ticks at %v: want 0%%, 90%%, 99%%, 99.9%% equally spaced", xs)
	}
	if f := (xs["50%"] - xs["0%"]) / decade; math.Abs(f-math.Log10(2)) > 0.01 {
		t.Errorf("50%% at %.3f of a decade, want log10(2)", f)
	}
	xOf := func(px float64) float64 { return (px - xs["0%"]) / decade } // nines
	// The y axis: log10 of the labelled durations against pixels.
	yt := svg.all("text", "tick y")
	if len(yt) < 2 {
		t.Fatalf("%d y ticks", len(yt))
	}
	p0, p1 := yt[0].num(t, "y")-4, yt[len(yt)-1].num(t, "y")-4
	v0, v1 := math.Log10(parseValue(t, yt[0].Text)), math.Log10(parseValue(t, yt[len(yt)-1].Text))
	nsOf := func(py float64) float64 { return math.Pow(10, v0+(py-p0)*(v1-v0)/(p1-p0)) }

	lines := svg.all("polyline", "line")
	if len(lines) != 1 || lines[0].attr("class") != "line closed" {
		t.Fatalf("%d lines, want one, of the closed loop", len(lines))
	}
	pts := points(t, lines[0].attr("points"))
	for _, p := range pts[:len(pts)-1] {
		x, ns := xOf(p[0]), nsOf(p[1])
		want := float64(fast)
		if x > 2+0.01 { // beyond 99%
			want = slow
		}
		if x < 2-0.01 || x > 2+0.01 {
			if math.Abs(ns/want-1) > 0.02 {
				t.Fatalf("at %.3f nines the line reads %.0f ns, want %.0f", x, ns, want)
			}
		}
	}
	last := pts[len(pts)-1]
	if x := xOf(last[0]); math.Abs(x-math.Log10(20001)) > 0.01 || math.Abs(nsOf(last[1])/slowest-1) > 0.02 {
		t.Errorf("the line ends at %.3f nines, %.0f ns: want the max, %d ns, at 1-1/n, %.3f", x, nsOf(last[1]), slowest, math.Log10(20001))
	}

	bands := svg.all("polygon", "band closed")
	if len(bands) != 1 {
		t.Fatalf("%d bands, want one", len(bands))
	}
	far := 0.0
	for _, p := range points(t, bands[0].attr("points")) {
		far = math.Max(far, xOf(p[0]))
	}
	if reach := math.Log10(20000 / latency.Beyond); far > reach+0.01 || far < reach-0.05 {
		t.Errorf("the band reaches %.3f nines, want where percentiles stop being reported, %.3f", far, reach)
	}
	if dots := svg.all("circle", "percentile closed"); len(dots) != 4 {
		t.Errorf("%d dots, want one per reported percentile (p50 to p99.9)", len(dots))
	}
	if legend := svg.all("text", "legend"); len(legend) != 1 {
		t.Errorf("%d legend entries, want one", len(legend))
	}
	checkNoOverlap(t, svg.all("text", "tick x"))
}

// With --rate the plot has the closed and the open loop, each a line and
// a band, and a legend naming both; times within 10x are on a linear
// scale.
func TestPercentilePlotOpenLoop(t *testing.T) {
	closed, open := latencyOf(stepCalls(1000, 2000)), latencyOf(stepCalls(1100, 5000))
	closed.Rate = &result.LatencyRate{PerSecond: 1000, IntervalNs: 1_000_000, Achieved: 1000, Open: open}
	svg := latencyPlot(t, result.Experiment{Name: "tail/stall", Latency: &closed})
	if title := svg.all("title", "")[0].Text; strings.Contains(title, "log") {
		t.Errorf("title %q: times within 5x, want a linear y axis", title)
	}
	for _, class := range []string{"closed", "open"} {
		if n := len(svg.all("polyline", "line "+class)); n != 1 {
			t.Errorf("%d lines of the %s loop, want one", n, class)
		}
		if n := len(svg.all("polygon", "band "+class)); n != 1 {
			t.Errorf("%d bands of the %s loop, want one", n, class)
		}
		legend := svg.all("text", "legend "+class)
		if len(legend) != 1 || !strings.HasPrefix(legend[0].Text, class+" loop") {
			t.Errorf("legend of the %s loop: %v", class, legend)
		}
	}
	// The open loop's line is the higher one at its top.
	top := func(class string) float64 {
		pts := points(t, svg.all("polyline", "line "+class)[0].attr("points"))
		return pts[len(pts)-1][1]
	}
	if top("open") >= top("closed") {
		t.Errorf("the open loop's max is drawn at y %.1f, not above the closed loop's %.1f", top("open"), top("closed"))
	}
}

// An experiment without timed calls has no percentile plot.
func TestPercentilePlotNone(t *testing.T) {
	if s := percentilePlot(result.Experiment{Name: "x"}); s != "" {
		t.Errorf("no calls: %q", s)
	}
	if s := percentilePlot(result.Experiment{Name: "x", Latency: &result.Latency{}}); s != "" {
		t.Errorf("zero calls: %q", s)
	}
}

// Too few calls for any percentile's interval to be reported: the line
// is drawn without a band.
func TestPercentilePlotNoBand(t *testing.T) {
	h := latency.New()
	for _, ns := range []int64{1000, 1200, 1500, 2000, 9000} {
		h.Record(ns)
	}
	l := latencyOf(h)
	svg := latencyPlot(t, result.Experiment{Name: "few", Latency: &l})
	if n := len(svg.all("polyline", "line closed")); n != 1 {
		t.Errorf("%d lines, want one", n)
	}
	if bands := svg.all("polygon", "band closed"); len(bands) != 0 {
		t.Errorf("a band of 5 calls: %v", bands)
	}
}
