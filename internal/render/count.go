package render

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-dev/benchy/internal/compare"
	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// estNote says what the estimated cycles are, wherever they are shown.
const estNote = "est-cycles is an estimate, not a time: L1 hits + 5 × last-level hits + 35 × memory accesses of callgrind's simulated caches (the weights iai uses)"

// hasCounts reports whether any experiment of r has a count.
func hasCounts(r *result.Result) bool {
	for _, e := range r.Experiments {
		if e.Count != nil {
			return true
		}
	}
	return false
}

// hasEstimate reports whether any count of r has the cache events.
func hasEstimate(r *result.Result) bool {
	for _, e := range r.Experiments {
		if _, ok := compare.CountPerOp(e.Count, result.EventEstCycles); ok {
			return true
		}
	}
	return false
}

// countTable is the second basis beside the time table: per experiment the
// instructions per op, how far its counted runs stray from that figure, and
// the estimated cycles and L1 and last-level misses when the caches were
// simulated; the notes say what counted and how. Empty when nothing was
// counted.
func countTable(r *result.Result) (header []string, rows [][]string, notes []string) {
	if !hasCounts(r) {
		return nil, nil, nil
	}
	est := hasEstimate(r)
	header = []string{"experiment", "instructions/op", "spread"}
	if est {
		header = append(header, "est-cycles/op", "L1-miss/op", "LL-miss/op")
	}
	var how []string
	for _, e := range r.Experiments {
		c := e.Count
		if c == nil {
			continue
		}
		row := []string{e.Label(), "-", "-"}
		if per, ok := compare.CountPerOp(c, result.EventInstructions); ok {
			row[1], row[2] = CountNumber(per), spreadCell(c)
		}
		if est {
			if v, ok := compare.CountPerOp(c, result.EventEstCycles); ok {
				row = append(row, CountNumber(v)+"~", CountNumber(missesPerOp(c, result.EventI1mr, result.EventD1mr, result.EventD1mw)),
					CountNumber(missesPerOp(c, result.EventILmr, result.EventDLmr, result.EventDLmw)))
			} else {
				row = append(row, "-", "-", "-")
			}
		}
		rows = append(rows, row)
		if c.Error != "" {
			notes = append(notes, e.Label()+": instructions not counted: "+c.Error)
		} else if h := counterText(c); !slices.Contains(how, h) {
			how = append(how, h)
		}
	}
	if est {
		notes = append(notes, "~ "+estNote)
	}
	if len(how) > 0 {
		notes = append(notes, "counted by "+strings.Join(how, "; ")+", whatever else the machine did; spread: the farthest counted run from that figure")
	}
	return header, rows, notes
}

// missesPerOp is the sum of the events per op (0 for those not counted).
func missesPerOp(c *result.Count, events ...string) float64 {
	var sum float64
	for _, e := range events {
		v, _ := compare.CountPerOp(c, e)
		sum += v
	}
	return sum
}

// spreadCell is the count's spread as a percentage, "-" when it has too
// few samples to have one.
func spreadCell(c *result.Count) string {
	if len(compare.CountSamples(c, result.EventInstructions)) < 2 {
		return "-"
	}
	return "±" + units.Sig(100*compare.CountSpread(c, result.EventInstructions), 2) + "%"
}

// counterText names the counter and how its figure was made: the slope over
// runs at several N, or the median of runs of one N.
func counterText(c *result.Count) string {
	tool := c.Counter
	if c.Tool != "" {
		tool = c.Tool
	}
	switch {
	case c.Counter == result.CounterPerf:
		return tool + ", the median of the time samples"
	case c.Sloped():
		return fmt.Sprintf("%s, the slope over %s at different N", tool, units.Count(len(c.Samples), "run"))
	default:
		return fmt.Sprintf("%s, the median of %s", tool, units.Count(len(c.Samples), "run"))
	}
}

// CountNumber writes a count per op: whole numbers with thousands
// separators (a count is exact; its noise is far below one in a
// thousand), one decimal below 100.
func CountNumber(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	if math.Abs(v) < 100 {
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	s := strconv.FormatInt(int64(math.Round(v)), 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// writeCountText writes the count table and its notes, wrapped to width,
// after a blank line; nothing when nothing was counted.
func writeCountText(tw *errWriter, r *result.Result, width int) {
	header, rows, notes := countTable(r)
	if header == nil {
		return
	}
	tw.printf("\n")
	if tw.err == nil {
		tw.err = writeAligned(tw, header, rows, nil)
	}
	for _, n := range notes {
		tw.printf("%s\n", Wrap(n, width, "  "))
	}
}

// writeCountMarkdown is the count table in markdown.
func writeCountMarkdown(b io.StringWriter, r *result.Result) {
	header, rows, notes := countTable(r)
	if header == nil {
		return
	}
	b.WriteString("\n| " + strings.Join(header, " | ") + " |\n|:--|")
	for range header[1:] {
		b.WriteString("--:|")
	}
	b.WriteString("\n")
	for _, row := range rows {
		row[0] = MarkdownCode(row[0])
		for i := 1; i < len(row); i++ {
			row[i] = MarkdownCell(row[i])
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	for _, n := range notes {
		b.WriteString("\n<sub>" + MarkdownCell(n) + "</sub>\n")
	}
}

// writeCountHTML is the count table on the page.
func writeCountHTML(tw *errWriter, r *result.Result) {
	header, rows, notes := countTable(r)
	if header == nil {
		return
	}
	tw.printf("<h2>Instructions per op</h2>\n<table class=\"overview\">\n<tr>")
	for _, h := range header {
		tw.printf("<th>%s</th>", esc(h))
	}
	tw.printf("</tr>\n")
	for _, row := range rows {
		tw.printf("<tr>")
		for i, c := range row {
			class := ""
			if i > 0 {
				class = " class=\"num\""
			}
			tw.printf("<td%s>%s</td>", class, esc(c))
		}
		tw.printf("</tr>\n")
	}
	tw.printf("</table>\n")
	for _, n := range notes {
		tw.printf("<p class=\"desc\">%s</p>\n", esc(n))
	}
}

// gobenchCount writes one line of the Go benchmark format per counted run
// of e: its iterations, instructions/op (the run's count less the fitted
// constant, over its ops) and est-cycles/op where the caches were
// simulated, so that benchstat compares counts as it compares times.
func gobenchCount(bw *gobenchWriter, line *gobenchLine, e result.Experiment) error {
	c := e.Count
	if c == nil {
		return nil
	}
	instr := compare.CountSamples(c, result.EventInstructions)
	est := compare.CountSamples(c, result.EventEstCycles)
	i := 0
	for _, s := range c.Samples {
		if _, ok := s.Events[result.EventInstructions]; !ok || s.Iters <= 0 {
			continue
		}
		line.iters = s.Iters
		line.values = line.values[:0]
		line.add(instr[i], result.EventInstructions+"/op")
		if i < len(est) && len(est) == len(instr) {
			line.add(est[i], result.EventEstCycles+"/op")
		}
		i++
		if err := bw.write(line); err != nil {
			return err
		}
	}
	return nil
}
