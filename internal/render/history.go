package render

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/benchy-dev/benchy/internal/history"
	"github.com/benchy-dev/benchy/internal/stats"
	"github.com/benchy-dev/benchy/internal/units"
)

// HistoryFormats are the formats of `benchy history show`.
var HistoryFormats = []string{"text", "json", "html"}

// HistoryOptions say how to draw a history.
type HistoryOptions struct {
	Width     int  // of the terminal, 0 for 80
	ASCII     bool // sparklines in ASCII
	Threshold float64
	Store     string
}

// WriteHistory writes the judged series js in format (HistoryFormats).
func WriteHistory(w io.Writer, js []history.Judgement, format string, o HistoryOptions) error {
	switch format {
	case "json":
		return historyJSON(w, js)
	case "html":
		return historyHTML(w, js, o)
	}
	return historyText(w, js, o)
}

// HistoryValue formats a value of a series in its unit.
func HistoryValue(x float64, unit string) string {
	switch unit {
	case "ns":
		return units.Duration(x)
	case "cycles":
		return units.Sig(x, 3) + " cyc"
	}
	return units.Sig(x, 3) + " " + unit
}

// historyText writes per series a line naming it, its commits drawn as a
// sparkline (one cell a commit, or the median of a run of them), a '^'
// under each step, and a line per step.
func historyText(w io.Writer, js []history.Judgement, o HistoryOptions) error {
	tw := &errWriter{w: w}
	width := o.Width
	if width <= 0 {
		width = 80
	}
	for i, j := range js {
		s := j.Series
		if i > 0 {
			tw.printf("\n")
		}
		name := s.Benchmark
		if s.Package != "" {
			name = s.Package + " " + name
		}
		extra := ""
		if s.Dirty > 0 {
			extra = fmt.Sprintf(", %s of changed trees left out", units.Count(s.Dirty, "result"))
		}
		tw.printf("%s  machine %s  %s, %s%s\n", name, s.Machine, s.Basis, units.Count(len(s.Commits), "commit"), extra)
		xs := s.Values()
		if len(xs) == 0 {
			continue
		}
		line, per := spark(xs, max(8, width-4), o.ASCII)
		lo, hi := minMax(xs)
		tw.printf("  %s  %s to %s, last %s\n", line, HistoryValue(lo, s.Unit), HistoryValue(hi, s.Unit), HistoryValue(xs[len(xs)-1], s.Unit))
		if len(j.Steps) > 0 {
			marks := []rune(strings.Repeat(" ", len([]rune(line))))
			for _, st := range j.Steps {
				marks[st.At/per] = '^'
			}
			tw.printf("  %s\n", strings.TrimRight(string(marks), " "))
		}
		if !j.Judged {
			tw.printf("  too few commits to find steps (%d, needs %d)\n", len(s.Commits), history.MinPoints)
		}
		for _, st := range j.Steps {
			tw.printf("  %s %s to %s at %s%s\n", units.Change(st.Change()), HistoryValue(st.Before, s.Unit),
				HistoryValue(st.After, s.Unit), s.Range(st), regressionNote(j, st, o.Threshold))
		}
	}
	return tw.err
}

func regressionNote(j history.Judgement, st history.Step, threshold float64) string {
	for _, r := range j.Regressions {
		if r == st {
			return ": slower beyond " + units.Percent(threshold)
		}
	}
	return ""
}

// spark draws xs in at most width cells, per values a cell (their
// median).
func spark(xs []float64, width int, ascii bool) (string, int) {
	levels := sparkBlocks
	if ascii {
		levels = sparkASCII
	}
	per := (len(xs) + width - 1) / width
	lo, hi := minMax(xs)
	var b strings.Builder
	for i := 0; i < len(xs); i += per {
		b.WriteRune(levels[sparkLevel(stats.Median(xs[i:min(i+per, len(xs))]), lo, hi, len(levels))])
	}
	return b.String(), per
}

func minMax(xs []float64) (lo, hi float64) {
	lo, hi = xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// historyJSON writes the series with their steps and regressions.
func historyJSON(w io.Writer, js []history.Judgement) error {
	type out struct {
		history.Series
		Judged      bool           `json:"judged"`
		Steps       []history.Step `json:"steps"`
		Regressions []history.Step `json:"regressions"`
	}
	all := make([]out, 0, len(js))
	for _, j := range js {
		all = append(all, out{j.Series, j.Judged, nonNil(j.Steps), nonNil(j.Regressions)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(map[string]any{"series": all})
}

func nonNil(s []history.Step) []history.Step {
	if s == nil {
		return []history.Step{}
	}
	return s
}

// historyHTML writes one self-contained page: an overview table, then
// per series a chart of its commits (each a dot with its interval, the
// levels between steps as lines, each step a dashed line).
func historyHTML(w io.Writer, js []history.Judgement, o HistoryOptions) error {
	tw := &errWriter{w: w}
	tw.printf("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>benchy history</title>\n<style>%s</style>\n</head>\n<body>\n", htmlStyle)
	tw.printf("<h1>benchy history</h1>\n<p class=\"head\">%s: %s</p>\n", esc(o.Store), esc(fmt.Sprintf("%d series", len(js))))
	tw.printf("<table class=\"overview\"><tr><th>benchmark</th><th>machine</th><th>basis</th><th>commits</th><th>last</th><th>steps</th></tr>\n")
	for i, j := range js {
		s := j.Series
		last := "-"
		if xs := s.Values(); len(xs) > 0 {
			last = HistoryValue(xs[len(xs)-1], s.Unit)
		}
		tw.printf("<tr><td><a href=\"#s%d\">%s</a></td><td>%s</td><td>%s</td><td class=\"num\">%d</td><td class=\"num\">%s</td><td>%s</td></tr>\n",
			i, esc(s.Benchmark), esc(s.Machine), esc(s.Basis), len(s.Commits), esc(last), esc(stepsCell(j, o.Threshold)))
	}
	tw.printf("</table>\n")
	for i, j := range js {
		s := j.Series
		tw.printf("<h2 id=\"s%d\">%s</h2>\n<p class=\"head\">%s machine %s, %s</p>\n", i, esc(s.Benchmark), esc(s.Package), esc(s.Machine), esc(s.Basis))
		if len(s.Commits) > 0 {
			tw.printf("%s", historyChart(j))
		}
	}
	tw.printf("</body>\n</html>\n")
	return tw.err
}

func stepsCell(j history.Judgement, threshold float64) string {
	if !j.Judged {
		return "too few commits"
	}
	var parts []string
	for _, st := range j.Steps {
		parts = append(parts, units.Change(st.Change())+" at "+j.Series.Range(st)+regressionNote(j, st, threshold))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

func historyChart(j history.Judgement) string {
	s := j.Series
	// The axis spans the finite values only: a store's row can hold
	// anything, and an infinite end would leave no axis to draw on.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range s.Commits {
		for _, v := range []float64{c.Lo, c.Hi, c.Value} {
			if isFinite(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if lo > hi {
		lo, hi = 0, 1
	}
	n := float64(len(s.Commits))
	c := newChart(900, 240, -0.5, n-0.5, lo, hi, s.Benchmark+" over "+units.Count(len(s.Commits), "commit"))
	if s.Unit == "ns" {
		c.yAxis(durationTicks(lo, hi, 4))
	} else {
		c.yAxis(scaledTicks(lo, hi, 4, s.Unit, 1))
	}
	bounds := []int{0}
	for _, st := range j.Steps {
		bounds = append(bounds, st.At)
		c.line(c.X(float64(st.At)-0.5), marginT, c.X(float64(st.At)-0.5), c.h-marginB, "#c33", "4 3")
	}
	bounds = append(bounds, len(s.Commits))
	xs := s.Values()
	for k := 0; k+1 < len(bounds); k++ {
		level := stats.Median(xs[bounds[k]:bounds[k+1]])
		c.line(c.X(float64(bounds[k])-0.5), c.Y(level), c.X(float64(bounds[k+1])-0.5), c.Y(level), "#393", "")
	}
	for i, cm := range s.Commits {
		x := c.X(float64(i))
		c.line(x, c.Y(cm.Lo), x, c.Y(cm.Hi), "#9ab", "")
		fmt.Fprintf(&c.b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"#246\"><title>%s %s: %s (%s)</title></circle>\n",
			x, c.Y(cm.Value), esc(history.Short(cm.Source.Commit)), esc(cm.Source.Time.Format("2006-01-02")), esc(HistoryValue(cm.Value, s.Unit)), esc(units.Count(cm.Runs, "run")))
	}
	c.text(marginL, c.h-8, "start", history.Short(s.Commits[0].Source.Commit))
	c.text(c.w-marginR, c.h-8, "end", history.Short(s.Commits[len(s.Commits)-1].Source.Commit))
	return c.svg()
}
