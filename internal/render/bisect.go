package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/benchy-dev/benchy/internal/bisect"
	"github.com/benchy-dev/benchy/internal/units"
)

// BisectFormats are the formats of `benchy bisect`.
var BisectFormats = []string{"text", "json", "markdown"}

// WriteBisect writes the bisection r in format (BisectFormats).
func WriteBisect(w io.Writer, r *bisect.Report, format string) error {
	switch format {
	case "json":
		return writeJSON(w, r)
	case "markdown":
		return writeBisectMarkdown(w, r)
	case "text":
		return writeBisectText(w, r)
	}
	return fmt.Errorf("unknown format %q (valid: %s)", format, strings.Join(BisectFormats, ", "))
}

// subjectWidth is the most of a commit's subject the text table shows.
const subjectWidth = 24

// writeBisectText writes one benchmark's walk under a line naming it;
// several under a line saying how many, each walked one under its name
// with its table and answer, and those BAD did not make slower on one
// line at the end.
func writeBisectText(w io.Writer, r *bisect.Report) error {
	walked, unchanged := splitUnchanged(r)
	several := len(r.Benchmarks) > 1
	if several {
		fmt.Fprintf(w, "%s: %s; %s\n", units.Count(len(r.Benchmarks), "benchmark"), walkOf(r), units.Count(r.Runs, "interleaved run"))
	} else {
		fmt.Fprintf(w, "%s: %s\n", nameOf(r), walkOf(r))
	}
	for _, bm := range walked {
		if several {
			fmt.Fprintf(w, "\n%s\n", bm.Name)
		}
		fmt.Fprintf(w, "\n%-4s  %-12s  %-*s  %-28s  %s\n", "step", "commit", subjectWidth, "subject", "vs GOOD (CI)", "side")
		for k, st := range bm.Steps {
			c := r.Commits[st.Commit]
			fmt.Fprintf(w, "%4d  %-12s  %-*s  %-28s  %s\n", k+1, c.Short(), subjectWidth, clip(subjectOf(r, st.Commit), subjectWidth),
				ratioText(st.Mid), sideText(r, st))
		}
		fmt.Fprintln(w)
		for _, l := range answerLines(r, bm) {
			fmt.Fprintln(w, l)
		}
	}
	if l := unchangedLine(r, unchanged, ""); l != "" {
		fmt.Fprintf(w, "\n%s\n", l)
	}
	if several && r.Interrupted {
		fmt.Fprintf(w, "\n%s\n", stoppedLine(r))
	}
	return nil
}

func writeBisectMarkdown(w io.Writer, r *bisect.Report) error {
	walked, unchanged := splitUnchanged(r)
	several := len(r.Benchmarks) > 1
	if several {
		fmt.Fprintf(w, "### Bisection of %s\n\n", units.Count(len(r.Benchmarks), "benchmark"))
	} else {
		fmt.Fprintf(w, "### Bisection of `%s`\n\n", nameOf(r))
	}
	fmt.Fprintf(w, "%s after `%s` (GOOD) up to `%s` (BAD), along the first parents; each step measured interleaved with GOOD and BAD",
		units.Count(len(r.Commits), "commit"), r.Good.Short(), r.Commits[len(r.Commits)-1].Short())
	if several {
		fmt.Fprintf(w, ", for every benchmark that needed the commit at once (%s)", units.Count(r.Runs, "interleaved run"))
	}
	fmt.Fprint(w, ".\n\n")
	for _, bm := range walked {
		if several {
			fmt.Fprintf(w, "#### `%s`\n\n", bm.Name)
		}
		fmt.Fprintln(w, "| step | commit | subject | vs GOOD (CI) | side |")
		fmt.Fprintln(w, "|---:|---|---|---|---|")
		for k, st := range bm.Steps {
			fmt.Fprintf(w, "| %d | `%s` | %s | %s | %s |\n", k+1, r.Commits[st.Commit].Short(),
				strings.ReplaceAll(subjectOf(r, st.Commit), "|", `\|`), ratioText(st.Mid), sideText(r, st))
		}
		fmt.Fprintln(w)
		for _, l := range answerLines(r, bm) {
			fmt.Fprintln(w, l+"  ")
		}
		if several {
			fmt.Fprintln(w)
		}
	}
	if l := unchangedLine(r, unchanged, "`"); l != "" {
		fmt.Fprintf(w, "%s\n", l)
	}
	if several && r.Interrupted {
		fmt.Fprintf(w, "\n%s\n", stoppedLine(r))
	}
	return nil
}

// nameOf is the one benchmark's name, "bisect" before one was found (a
// stop in BAD's first measurement).
func nameOf(r *bisect.Report) string {
	if len(r.Benchmarks) == 0 {
		return "bisect"
	}
	return r.Benchmarks[0].Name
}

// walkOf says which commits the walk went over: "11 commits after
// e68cced18234 (GOOD) up to 4942fe6e5e03 (BAD), first parents".
func walkOf(r *bisect.Report) string {
	return fmt.Sprintf("%s after %s (GOOD) up to %s (BAD), first parents", units.Count(len(r.Commits), "commit"),
		r.Good.Short(), r.Commits[len(r.Commits)-1].Short())
}

// splitUnchanged sets apart, when several benchmarks were followed, those
// BAD did not make slower: their walks ended after BAD's measurement, and
// one line names them all. One benchmark alone is written as walked.
func splitUnchanged(r *bisect.Report) (walked, unchanged []bisect.Benchmark) {
	for _, bm := range r.Benchmarks {
		if len(r.Benchmarks) > 1 && bm.Answer.Verdict == bisect.NoSlowdown && len(bm.Steps) > 0 {
			unchanged = append(unchanged, bm)
		} else {
			walked = append(walked, bm)
		}
	}
	return walked, unchanged
}

// unchangedLine names the benchmarks BAD did not make slower, each with
// BAD's figure against GOOD, the names quoted with q; "" when there are
// none.
func unchangedLine(r *bisect.Report, unchanged []bisect.Benchmark, q string) string {
	if len(unchanged) == 0 {
		return ""
	}
	var s []string
	for _, bm := range unchanged {
		s = append(s, fmt.Sprintf("%s%s%s %s", q, bm.Name, q, ratioText(bm.Steps[0].Mid)))
	}
	return fmt.Sprintf("not slower at BAD by more than %s, not walked: %s", units.Percent(r.Threshold), strings.Join(s, ", "))
}

// stoppedLine says a stop ended the walk: after how many steps of the one
// benchmark, or interleaved runs of several.
func stoppedLine(r *bisect.Report) string {
	done := units.Count(r.Runs, "interleaved run")
	if len(r.Benchmarks) == 1 {
		done = units.Count(len(r.Benchmarks[0].Steps), "step")
	}
	return fmt.Sprintf("stopped after %s: what was measured is above", done)
}

// subjectOf is commit i's subject, BAD marked.
func subjectOf(r *bisect.Report, i int) string {
	if i == len(r.Commits)-1 {
		return "(BAD) " + r.Commits[i].Subject
	}
	return r.Commits[i].Subject
}

// ratioText is a ratio to GOOD as a change with its interval: "+200.1%
// (+198.0% to +204.5%)".
func ratioText(r bisect.Ratio) string {
	if !(r.Value > 0) {
		return "-"
	}
	return fmt.Sprintf("%s (%s to %s)", units.Change(r.Value-1), units.Change(r.Low-1), units.Change(r.High-1))
}

// sideText is the side a step put its commit on, with the measurements
// pooled and why it was skipped, or the commit whose program it runs.
func sideText(r *bisect.Report, st bisect.Step) string {
	s := st.Side.String()
	switch {
	case st.SameAs != nil && st.Attempts == 0:
		return s + ", not measured: " + twinName(r, *st.SameAs) + "'s program"
	case st.SameAs != nil:
		return fmt.Sprintf("%s: %s's program (measured %s, undecided alone)", s, twinName(r, *st.SameAs), units.Count(st.Attempts, "time"))
	}
	if st.Attempts > 1 {
		s += fmt.Sprintf(" (measured %d times)", st.Attempts)
	}
	if st.Why != "" {
		s += ": " + st.Why
	}
	return s
}

// twinName names commit i of r as a step's twin: GOOD, BAD, or its
// short hash.
func twinName(r *bisect.Report, i int) string {
	switch i {
	case -1:
		return "GOOD"
	case len(r.Commits) - 1:
		return "BAD"
	}
	return r.Commits[i].Short()
}

// stepOf is the step of bm that measured commit i, nil when none did.
func stepOf(bm bisect.Benchmark, i int) *bisect.Step {
	for k := range bm.Steps {
		if bm.Steps[k].Commit == i {
			return &bm.Steps[k]
		}
	}
	return nil
}

// commitLine is a commit as the answer names it: hash, subject, author
// date and its ratio to GOOD as measured for bm.
func commitLine(r *bisect.Report, bm bisect.Benchmark, i int) string {
	c := r.Commits[i]
	s := fmt.Sprintf("%s %q (%s)", c.Hash, c.Subject, c.AuthorDate.Format("2006-01-02"))
	st := stepOf(bm, i)
	if st != nil && st.Mid.Value > 0 {
		s += fmt.Sprintf(": %s against GOOD, %s CI %s to %s", units.Change(st.Mid.Value-1), units.Level(st.Mid.Level),
			units.Change(st.Mid.Low-1), units.Change(st.Mid.High-1))
	}
	if st != nil && st.SameAs != nil {
		s += " (" + twinName(r, *st.SameAs) + "'s program)"
	}
	return s
}

// shorts are the short hashes of the commits at idx.
func shorts(r *bisect.Report, idx []int) string {
	var s []string
	for _, i := range idx {
		s = append(s, r.Commits[i].Short())
	}
	return strings.Join(s, ", ")
}

// answerLines say what the walk of bm came to (and, when it is the only
// benchmark, that a stop ended it).
func answerLines(r *bisect.Report, bm bisect.Benchmark) []string {
	a := bm.Answer
	var out []string
	if r.Interrupted && len(r.Benchmarks) == 1 {
		out = append(out, stoppedLine(r))
	}
	switch a.Verdict {
	case bisect.NoSlowdown:
		return append(out, fmt.Sprintf("no confirmed slowdown: BAD is %s against GOOD, not slower by more than %s",
			ratioText(bm.Steps[0].Mid), units.Percent(r.Threshold)))
	case bisect.CannotJudge:
		why := ""
		if len(bm.Steps) > 0 && bm.Steps[0].Why != "" {
			why = ": " + bm.Steps[0].Why
		}
		return append(out, "cannot judge whether BAD is slower than GOOD"+why)
	case bisect.NotFinished:
		if len(bm.Steps) == 0 {
			return out
		}
	}
	if a.Verdict == bisect.Found && a.From == a.To {
		return append(out, "first slow commit: "+commitLine(r, bm, a.From))
	}
	lead := "the slowdown is"
	if a.Verdict == bisect.NotFinished {
		lead = "so far the slowdown is"
	}
	out = append(out, fmt.Sprintf("%s in %s: %s..%s", lead, units.Count(a.To-a.From+1, "commit"), r.Commits[a.From].Short(), r.Commits[a.To].Short()))
	if a.First >= 0 && a.First != a.Last {
		out = append(out, "  first commit not at GOOD's level: "+commitLine(r, bm, a.First))
	}
	if a.Last >= 0 {
		out = append(out, "  first commit at BAD's level: "+commitLine(r, bm, a.Last))
	}
	if len(a.Undecided) > 0 {
		out = append(out, fmt.Sprintf("  between the two levels (two steps, or too noisy to tell): %s", shorts(r, a.Undecided)))
	}
	if len(a.Skipped) > 0 {
		out = append(out, fmt.Sprintf("  skipped (not built or not measured): %s", shorts(r, a.Skipped)))
	}
	return out
}
