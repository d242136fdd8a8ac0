package render

import (
	"fmt"
	"math"
	"unicode/utf8"
)

// charWidth is about the width of one character of the charts' 11px
// sans-serif labels, in pixels: enough to keep labels apart, which is
// all it is used for.
const charWidth = 6.2

// textWidth is about how wide s is drawn.
func textWidth(s string) float64 { return charWidth * float64(utf8.RuneCountInString(s)) }

// yAxis draws ts as light grid lines across the plot, labelled left of
// it. Call it before the data, which is drawn over the grid.
func (c *chart) yAxis(ts []tick) {
	for _, t := range ts {
		y := c.Y(t.v)
		fmt.Fprintf(&c.b, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e6e6e6\"/>\n", marginL, y, c.w-marginR, y)
		fmt.Fprintf(&c.b, "<text class=\"tick y\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", marginL-4, y+4, esc(t.label))
	}
}

// xAxis draws ts as marks under the plot with their labels below; a
// label that would run into the one before it is left out (its mark
// stays).
func (c *chart) xAxis(ts []tick) {
	right := math.Inf(-1)
	for _, t := range ts {
		x := c.X(t.v)
		fmt.Fprintf(&c.b, "<line class=\"tick x\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>\n", x, c.h-marginB, x, c.h-marginB+4)
		w := textWidth(t.label)
		if x-w/2 < right+6 || x+w/2 > c.w {
			continue
		}
		right = x + w/2
		fmt.Fprintf(&c.b, "<text class=\"tick x\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x, c.h-marginB+14, esc(t.label))
	}
}

// A mark is a value marked across the plot by a dashed line, with a
// label at the top.
type mark struct {
	v            float64
	class, label string
	color        string
}

// markRows is how many rows of labels marks may need at the top of a
// plot, and markRow the height of one.
const (
	markRows = 3
	markRow  = 13
)

// marks draws each mark's dashed line and its label in the first row,
// from the top, where it runs into no label already placed: right of its
// line, or left of it where the right has no room. Labels have a white
// halo, so a line crossing one does not hide it.
func (c *chart) marks(ms []mark) {
	type span struct{ x0, x1 float64 }
	rows := make([][]span, markRows)
	for _, m := range ms {
		x := c.X(m.v)
		fmt.Fprintf(&c.b, "<line class=\"mark %s\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>\n",
			m.class, x, marginT, x, c.h-marginB, m.color)
		w := textWidth(m.label)
		x0, anchor := x+3, "start"
		if x0+w > c.w-marginR {
			x0, anchor = x-3-w, "end"
		}
		row := len(rows) - 1
		for r, placed := range rows {
			free := true
			for _, s := range placed {
				if x0 < s.x1+4 && x0+w > s.x0-4 {
					free = false
				}
			}
			if free {
				row = r
				break
			}
		}
		rows[row] = append(rows[row], span{x0, x0 + w})
		tx := x0
		if anchor == "end" {
			tx = x0 + w
		}
		fmt.Fprintf(&c.b, "<text class=\"mark %s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\">%s</text>\n",
			m.class, tx, float64(marginT+11+markRow*row), anchor, esc(m.label))
	}
}

// scaledTicks is linear ticks over [lo, hi] written in unit, one of which
// is scale: hertz as "3 GHz".
func scaledTicks(lo, hi float64, n int, unit string, scale float64) []tick {
	ts := linearTicks(lo/scale, hi/scale, n, plainLabel)
	for i := range ts {
		ts[i].v *= scale
		ts[i].label += " " + unit
	}
	return ts
}

// countTicks is ticks for a count axis from 0 to top: whole numbers only.
func countTicks(top float64) []tick {
	var out []tick
	for _, t := range linearTicks(0, top, 4, plainLabel) {
		if t.v == math.Trunc(t.v) {
			out = append(out, t)
		}
	}
	return out
}
