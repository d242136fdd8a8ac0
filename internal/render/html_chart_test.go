package render

import (
	"bytes"
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// node is an element of a page, parsed generically.
type node struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Text    string     `xml:",chardata"`
	Nodes   []node     `xml:",any"`
}

func (n node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n node) num(t *testing.T, name string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(n.attr(name), 64)
	if err != nil {
		t.Fatalf("<%s %s=%q>: %v", n.XMLName.Local, name, n.attr(name), err)
	}
	return v
}

// all is every element under n (n too) named name whose class attribute
// starts with class.
func (n node) all(name, class string) []node {
	var out []node
	if n.XMLName.Local == name && strings.HasPrefix(n.attr("class"), class) {
		out = append(out, n)
	}
	for _, c := range n.Nodes {
		out = append(out, c.all(name, class)...)
	}
	return out
}

// parsePage parses an HTML page of writeHTML as XML.
func parsePage(t *testing.T, page string) node {
	t.Helper()
	var root node
	dec := xml.NewDecoder(strings.NewReader(strings.TrimPrefix(page, "<!DOCTYPE html>\n")))
	dec.Strict = true
	if err := dec.Decode(&root); err != nil {
		t.Fatalf("the page does not parse: %v", err)
	}
	return root
}

// chartTitled is the one SVG of the section of experiment name whose
// title starts with title.
func chartTitled(t *testing.T, page node, name, title string) node {
	t.Helper()
	for _, sec := range page.all("section", "experiment") {
		if sec.attr("id") != name {
			continue
		}
		for _, svg := range sec.all("svg", "") {
			for _, tt := range svg.all("title", "") {
				if strings.HasPrefix(tt.Text, title) {
					return svg
				}
			}
		}
	}
	t.Fatalf("no chart %q in the section of %s", title, name)
	return node{}
}

// parseValue reads a tick label back: "1.2 µs" in ns, "3 GHz" in Hz, "4".
func parseValue(t *testing.T, label string) float64 {
	t.Helper()
	num, unit, _ := strings.Cut(label, " ")
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		t.Fatalf("tick label %q: %v", label, err)
	}
	scale, ok := map[string]float64{"": 1, "fs": 1e-6, "ps": 1e-3, "ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9, "MHz": 1e6, "GHz": 1e9}[unit]
	if !ok {
		t.Fatalf("tick label %q: unknown unit", label)
	}
	return v * scale
}

// axis is the map from data to pixels that a chart's tick labels state:
// value = a + b·pixel, fitted through the first and last labelled tick.
type axis struct{ a, b float64 }

func (ax axis) value(px float64) float64 { return ax.a + ax.b*px }

// readAxis fits the axis of the ticks of class (tick x or tick y), whose
// position is the attribute pos.
func readAxis(t *testing.T, svg node, class, pos string, offset float64) axis {
	t.Helper()
	ts := svg.all("text", class)
	if len(ts) < 2 {
		t.Fatalf("%d labelled ticks of class %q, want two at least", len(ts), class)
	}
	first, last := ts[0], ts[len(ts)-1]
	p0, p1 := first.num(t, pos)-offset, last.num(t, pos)-offset
	v0, v1 := parseValue(t, first.Text), parseValue(t, last.Text)
	if p0 == p1 {
		t.Fatalf("ticks %q and %q at the same place", first.Text, last.Text)
	}
	b := (v1 - v0) / (p1 - p0)
	return axis{v0 - b*p0, b}
}

// chartExperiment is one experiment with known samples (two slow ones,
// one disturbed), a clock and a reference loop.
func chartExperiment() *result.Result {
	r := fixtureResult()
	ns := []float64{1190, 1200, 1210, 1195, 1205, 1220, 1230, 1200, 1215, 1500, 1199, 1201, 1203, 1450, 1208, 1212, 1190, 1196, 1204, 1209, 1211}
	e := result.Experiment{Name: "chart/known", Iters: 1000,
		Clock:     &result.EffectiveClock{BeforeHz: 3.6e9, AfterHz: 3.4e9},
		Reference: &result.Reference{BeforeNs: 0.28, AfterNs: 0.33},
		Disturbed: []int{9}}
	for _, v := range ns {
		e.Samples = append(e.Samples, result.Sample{Iters: 1000, Ns: int64(v * 1000), CPU: 1})
	}
	e.Stats = result.Stats{N: len(ns), Min: 1190, Median: 1205, P90: 1230, Max: 1500}
	e.Verdict = result.VerdictBelievable
	r.Experiments = []result.Experiment{e}
	return r
}

// The charts of an experiment are drawn from its data: read back through
// the axes they label, the histogram's marks are its min, median and p90
// and its bars count every sample; the series has a dot per sample at its
// time, red where the sample was disturbed; the bars of the machine are
// its clock and reference loop before and after.
func TestHTMLChartsMatchTheData(t *testing.T) {
	r := chartExperiment()
	e := r.Experiments[0]
	var b bytes.Buffer
	if err := Write(&b, r, "html"); err != nil {
		t.Fatal(err)
	}
	page := parsePage(t, b.String())
	near := func(what string, got, want, tol float64) {
		t.Helper()
		if math.Abs(got-want) > tol {
			t.Errorf("%s: the chart reads %.4g, the data is %.4g", what, got, want)
		}
	}

	hist := chartTitled(t, page, e.Name, "distribution")
	x := readAxis(t, hist, "tick x", "x", 0)
	y := readAxis(t, hist, "tick y", "y", 4) // a label's baseline is 4 px below its tick
	pxNs := math.Abs(x.b)                    // the value of one pixel
	for _, m := range []struct {
		class string
		v     float64
	}{{"min", e.Stats.Min}, {"median", e.Stats.Median}, {"p90", e.Stats.P90}} {
		lines := hist.all("line", "mark "+m.class)
		labels := hist.all("text", "mark "+m.class)
		if len(lines) != 1 || len(labels) != 1 {
			t.Fatalf("histogram: %d lines and %d labels for %s, want one each", len(lines), len(labels), m.class)
		}
		near("histogram "+m.class, x.value(lines[0].num(t, "x1")), m.v, pxNs)
		if want := m.class + " " + units.Duration(m.v); labels[0].Text != want {
			t.Errorf("histogram: %s labelled %q, want %q", m.class, labels[0].Text, want)
		}
	}
	counted := 0.0
	for _, bin := range hist.all("rect", "bin") {
		top, bottom := bin.num(t, "y"), bin.num(t, "y")+bin.num(t, "height")
		n := y.value(top) - y.value(bottom)
		if math.Abs(n-math.Round(n)) > 0.05 {
			t.Errorf("a bin %.2f samples high", n)
		}
		counted += n
	}
	near("samples in the histogram's bins", counted, float64(len(e.Samples)), 0.1)
	checkNoOverlap(t, hist.all("text", "mark"))

	ser := chartTitled(t, page, e.Name, "run order")
	sy := readAxis(t, ser, "tick y", "y", 4)
	dots := ser.all("circle", "sample")
	if len(dots) != len(e.Samples) {
		t.Fatalf("series: %d dots for %d samples", len(dots), len(e.Samples))
	}
	for i, d := range dots {
		near("series sample "+strconv.Itoa(i), sy.value(d.num(t, "cy")), e.Samples[i].NsPerOp(), math.Abs(sy.b)*0.6)
		if disturbed := strings.Contains(d.attr("class"), "disturbed"); disturbed != (i == 9) {
			t.Errorf("series sample %d: disturbed %v, want %v", i, disturbed, i == 9)
		}
	}

	for _, tt := range []struct {
		title         string
		before, after float64
	}{{"clock", e.Clock.BeforeHz, e.Clock.AfterHz}, {"reference loop", e.Reference.BeforeNs, e.Reference.AfterNs}} {
		svg := chartTitled(t, page, e.Name, tt.title)
		ay := readAxis(t, svg, "tick y", "y", 4)
		for class, want := range map[string]float64{"bar before": tt.before, "bar after": tt.after} {
			bars := svg.all("rect", class)
			if len(bars) != 1 {
				t.Fatalf("%s: %d rects %q", tt.title, len(bars), class)
			}
			zero := ay.value(bars[0].num(t, "y") + bars[0].num(t, "height"))
			near(tt.title+" "+class+" starts at zero", zero, 0, math.Abs(ay.b))
			near(tt.title+" "+class, ay.value(bars[0].num(t, "y")), want, math.Abs(ay.b))
		}
	}
	ref := chartTitled(t, page, e.Name, "reference loop")
	if !strings.Contains(textOf(ref), "1 cycle at 3.6 GHz") {
		t.Errorf("the reference loop's chart does not mark one cycle at the clock:\n%s", textOf(ref))
	}
}

// textOf is all the text of n's elements, one per line.
func textOf(n node) string {
	s := strings.TrimSpace(n.Text)
	for _, c := range n.Nodes {
		if t := textOf(c); t != "" {
			s += "\n" + t
		}
	}
	return strings.TrimSpace(s)
}

// checkNoOverlap fails when two labels on one line run into each other,
// their widths estimated as the page's layout estimates them.
func checkNoOverlap(t *testing.T, labels []node) {
	t.Helper()
	type box struct {
		x0, x1, y float64
		s         string
	}
	var boxes []box
	for _, l := range labels {
		w := textWidth(l.Text)
		x0 := l.num(t, "x")
		switch l.attr("text-anchor") {
		case "end":
			x0 -= w
		case "middle":
			x0 -= w / 2
		}
		b := box{x0, x0 + w, l.num(t, "y"), l.Text}
		for _, o := range boxes {
			if math.Abs(o.y-b.y) < 11 && b.x0 < o.x1 && o.x0 < b.x1 {
				t.Errorf("labels %q and %q overlap", o.s, b.s)
			}
		}
		boxes = append(boxes, b)
	}
}

// The ticks of the comparison's log scale are round numbers, and the
// marks' labels of a histogram whose min and median are close stay apart.
func TestHTMLRoundTicksAndLabelsApart(t *testing.T) {
	r := fixtureResult()
	a, b := r.Experiments[0], r.Experiments[0]
	b.Name = "sum/sink#2"
	for i := range b.Samples {
		b.Samples[i].Ns /= 300 // 300x faster: the scale spans decades
	}
	r.Experiments = []result.Experiment{a, b}
	r.Settings.Compare = []string{a.Name, b.Name}
	r.Comparison = []result.Pair{{Base: a.Name, Candidate: b.Name, Paired: true, Ratio: 1.0 / 300, CILow: 0.9 / 300, CIHigh: 1.1 / 300, Threshold: 0.02}}
	var out bytes.Buffer
	if err := Write(&out, r, "html"); err != nil {
		t.Fatal(err)
	}
	page := parsePage(t, out.String())
	secs := page.all("section", "comparison")
	if len(secs) != 1 {
		t.Fatalf("%d comparison sections", len(secs))
	}
	ticks := secs[0].all("text", "tick y")
	if len(ticks) < 3 {
		t.Fatalf("%d ticks on a scale of three decades", len(ticks))
	}
	for _, tk := range ticks {
		v := parseValue(t, tk.Text)
		if m := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9)); m != 1 && m != 2 && m != 5 {
			t.Errorf("log-scale tick %q is not 1, 2 or 5 times a power of ten", tk.Text)
		}
	}
	// a is sum/sink: min 310, median 314 of a 302-339 ns spread, close.
	checkNoOverlap(t, chartTitled(t, page, a.Name, "distribution").all("text", "mark"))
}
