package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchy-dev/benchy/internal/result"
	"github.com/benchy-dev/benchy/internal/units"
)

// textTopN is how many functions of a profile the text shows (the result
// keeps more, the page shows them all).
const textTopN = 5

// profileNote is what is said of a profile's size: how many samples, and
// that they are too few to read below result.ProfileMinSamples.
func profileNote(p *result.Profile) string {
	s := units.Count(p.Samples, "sample") + " at 100 Hz"
	if p.Sparse() {
		s += sparseNote
	}
	return s
}

var sparseNote = fmt.Sprintf(", too few to read (under %d: raise --samples or --sample-time)", result.ProfileMinSamples)

// writeProfileText writes an experiment's profile under its findings: the
// files, the number of samples, and its top functions by their own time
// and by what they allocated, per op.
func writeProfileText(w *errWriter, p *result.Profile) {
	if p == nil {
		return
	}
	if p.CPU == "" {
		w.printf("  profile: none (%s)\n", p.Error)
		return
	}
	w.printf("  %s\n", Wrap(fmt.Sprintf("profile %s: %s CPU per op, %s", p.CPU, units.Duration(p.CPUNsPerOp), profileNote(p)), profileWidth, "    "))
	rows := [][]string{{"    flat/op", "cum/op", "function"}}
	for _, e := range p.Top[:min(textTopN, len(p.Top))] {
		rows = append(rows, []string{"    " + units.Duration(e.Flat), units.Duration(e.Cum), e.Func})
	}
	if w.err == nil {
		w.err = WriteLeft(w, rows)
	}
	if p.Alloc != "" {
		w.printf("  %s\n", Wrap(fmt.Sprintf("allocations %s: %s per op (sampled)", p.Alloc, units.Bytes(p.AllocBytesPerOp)), profileWidth, "    "))
		rows := [][]string{{"    flat/op", "cum/op", "function"}}
		for _, e := range p.AllocTop[:min(textTopN, len(p.AllocTop))] {
			rows = append(rows, []string{"    " + units.Bytes(e.Flat), units.Bytes(e.Cum), e.Func})
		}
		if w.err == nil {
			w.err = WriteLeft(w, rows)
		}
	}
	if p.Error != "" {
		w.printf("  profile: %s\n", p.Error)
	}
}

// writeProfileHTML is the page's part of an experiment's profile: the
// files and both top tables.
func writeProfileHTML(w *errWriter, p *result.Profile) {
	if p == nil {
		return
	}
	w.printf("<div class=\"profile\">\n")
	if p.CPU == "" {
		w.printf("<p>profile: none (%s)</p>\n</div>\n", esc(p.Error))
		return
	}
	cls := ""
	if p.Sparse() {
		cls = " class=\"warn\""
	}
	w.printf("<p%s>CPU profile <code>%s</code>: %s, %s CPU per op</p>\n", cls, esc(p.CPU), esc(profileNote(p)), esc(units.Duration(p.CPUNsPerOp)))
	profileTableHTML(w, p.Top, units.Duration)
	if p.Alloc != "" {
		w.printf("<p>allocation profile <code>%s</code>: %s per op (sampled)</p>\n", esc(p.Alloc), esc(units.Bytes(p.AllocBytesPerOp)))
		profileTableHTML(w, p.AllocTop, units.Bytes)
	}
	if p.Error != "" {
		w.printf("<p>profile: %s</p>\n", esc(p.Error))
	}
	w.printf("</div>\n")
}

func profileTableHTML(w *errWriter, es []result.ProfileEntry, format func(float64) string) {
	w.printf("<table class=\"overview\">\n<tr><th>flat/op</th><th>cum/op</th><th>function</th></tr>\n")
	for _, e := range es {
		w.printf("<tr><td class=\"num\">%s</td><td class=\"num\">%s</td><td><code>%s</code></td></tr>\n", esc(format(e.Flat)), esc(format(e.Cum)), esc(e.Func))
	}
	w.printf("</table>\n")
}

// ProfileDiffRows are the rows of a profile difference for a table: the
// function, its own time per op on each side, the change of it and of its
// cumulative time; at most n rows (0: all).
func ProfileDiffRows(d result.ProfileDiff, n int) [][]string {
	rows := [][]string{{"function", "old flat", "new flat", "flat Δ", "cum Δ"}}
	for i, r := range d.Rows {
		if n > 0 && i >= n {
			break
		}
		rows = append(rows, []string{r.Func, units.Duration(r.OldFlat), units.Duration(r.NewFlat),
			signedDuration(r.FlatDelta()), signedDuration(r.CumDelta())})
	}
	return rows
}

// ProfileDiffLine is the line above a difference's table: both sides' CPU
// time per op in their profiles and their samples.
func ProfileDiffLine(d result.ProfileDiff) string {
	if d.Error != "" {
		return fmt.Sprintf("%s: no profile difference: %s", d.Name, d.Error)
	}
	s := fmt.Sprintf("%s: CPU per op %s -> %s in the profiles (%s; %s)", d.Name, units.Duration(d.OldNsPerOp), units.Duration(d.NewNsPerOp),
		units.Count(d.OldSamples, "sample")+" old", units.Count(d.NewSamples, "sample")+" new")
	if min(d.OldSamples, d.NewSamples) < result.ProfileMinSamples {
		s += fmt.Sprintf(", too few to read (under %d)", result.ProfileMinSamples)
	}
	return s + ": " + d.Path
}

// signedDuration is a duration with its sign: "+1.2 µs", "-30 ns".
func signedDuration(ns float64) string {
	switch {
	case ns > 0:
		return "+" + units.Duration(ns)
	case ns < 0:
		return "-" + units.Duration(math.Abs(ns))
	}
	return "0"
}

// writeProfileDiffsHTML is the page's part of the profile differences,
// under the comparisons.
func writeProfileDiffsHTML(w *errWriter, ds []result.ProfileDiff) {
	if len(ds) == 0 {
		return
	}
	w.printf("<h2>Profiles, new less old</h2>\n")
	for _, d := range ds {
		w.printf("<section class=\"comparison\">\n<p>%s</p>\n", esc(ProfileDiffLine(d)))
		if len(d.Rows) > 0 {
			rows := ProfileDiffRows(d, 0)
			w.printf("<table class=\"overview\">\n<tr><th>%s</th></tr>\n", strings.Join(escAll(rows[0]), "</th><th>"))
			for _, r := range rows[1:] {
				w.printf("<tr><td><code>%s</code></td><td class=\"num\">%s</td></tr>\n", esc(r[0]), strings.Join(escAll(r[1:]), "</td><td class=\"num\">"))
			}
			w.printf("</table>\n")
		}
		w.printf("</section>\n")
	}
}

func escAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = esc(x)
	}
	return out
}

// profileWidth is the width the profile's lines wrap at in the text (its
// two-space indent aside): an 80-column terminal.
const profileWidth = 78
